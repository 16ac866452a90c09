import Foundation
import ListAdapter

/// Finds an object in a JSON text that names the same key twice. `JSONDecoder` keeps one of the
/// two values without a word; an input that says two things about one field is refused instead
/// (RFC 8259 leaves such objects to each parser, I-JSON forbids them). Only the keys a decoder
/// reads count (``JSONKeys``): unknown keys are ignored on input, repeated or not.
///
/// Keys are compared as the decoder compares them, after their escapes are decoded: `"id"` and
/// `"\u0069d"` are the same key, and so are two spellings of an escaped surrogate pair. The
/// decoder reads an object into a dictionary keyed by Swift strings, whose equality is Unicode
/// canonical equivalence (titles and identifiers, by contrast, compare code point by code
/// point): in `meta`, a precomposed `"é"` and `"e"` + U+0301 are one key too, of which the
/// decoder would keep one value without a word.
package enum JSONDuplicateKeys {
    /// A key named twice in one object, and the path of that object in
    /// ``JSONInputProblem/path(_:)``'s notation.
    package struct Duplicate: Equatable, Sendable, CustomStringConvertible {
        /// The key, decoded.
        package var key: String
        /// Where the object is: `sections[0].items[3]`, or `(top level)`.
        package var path: String

        /// `duplicate key "id" in sections[0].items[3]; …`, the key quoted as
        /// `quotedExcerpt(_:limit:spellingOut:)` (ListAdapter) quotes a user value: its control
        /// characters escaped, and cut after 60 Unicode scalars, with its length, so that a
        /// multi-megabyte `meta` key does not make a multi-megabyte message.
        package var description: String {
            let place = path == "(top level)" ? "at the top level" : "in \(path)"
            return "duplicate key \(quotedExcerpt(key)) \(place); a key may appear once in an object"
        }
    }

    /// The first key named twice in one object of `json`, in reading order; `nil` when there is
    /// none. Call it on text that parses as JSON: on anything else it returns `nil`. It reads
    /// UTF-8 only: refuse other text first with ``JSONTextEncoding/notUTF8(_:)``.
    ///
    /// - Parameter keys: the keys a decoder reads; a key repeated elsewhere is not reported.
    /// - Complexity: O(*n*) expected for *n* bytes: an object's first keys are compared with each
    ///   other, the keys of a larger object are hashed.
    package static func first(in json: Data, reading keys: JSONKeys = .everything) -> Duplicate? {
        json.withUnsafeBytes { raw in
            var scanner = Scanner(raw.bindMemory(to: UInt8.self), schema: keys)
            return scanner.firstDuplicate()
        }
    }
}

/// A single pass over valid JSON text, with an explicit stack (no recursion, so no depth limit).
private struct Scanner: JSONTextReader {
    /// A key of an open object: where its text lies between the quotes.
    struct Key {
        var start: Int
        var end: Int
        var escaped: Bool
    }

    /// An open object or array.
    enum Container {
        /// An object whose keys start at `firstKey` in ``keys``.
        case object(firstKey: Int)
        /// An array and the index of its current element.
        case array(index: Int)
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var containers: [Container] = []
    /// The schema of each open container, parallel to ``containers``.
    var schemas: [JSONKeys] = []
    /// The schema of the document.
    let schema: JSONKeys
    /// The keys of every open object, innermost last.
    var keys: [Key] = []
    /// The keys, as the decoder compares them, of each open object that has more than
    /// ``linearScanLimit`` keys, by the object's `firstKey`: comparing every key of an object with
    /// every other one took minutes for an object of a few hundred thousand keys.
    var largeObjectKeys: [Int: Set<String>] = [:]
    /// How many keys of an object are compared one by one before they are hashed instead:
    /// most objects have a few keys, and comparing those costs less than hashing them.
    static let linearScanLimit = 16

    init(_ bytes: UnsafeBufferPointer<UInt8>, schema: JSONKeys) {
        self.bytes = bytes
        self.schema = schema
        // A UTF-8 byte order mark, which JSONDecoder accepts.
        position = Self.textStart(of: bytes)
    }

    mutating func firstDuplicate() -> JSONDuplicateKeys.Duplicate? {
        while true {
            // At the start of a value.
            skipWhitespace()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                open(.object(firstKey: keys.count))
                skipWhitespace()
                if peek(UInt8(ascii: "}")) {
                    position += 1
                    close()
                } else {
                    if let duplicate = readKey() { return duplicate }
                    continue
                }
            case UInt8(ascii: "["):
                position += 1
                open(.array(index: 0))
                skipWhitespace()
                if peek(UInt8(ascii: "]")) {
                    position += 1
                    close()
                } else {
                    continue
                }
            case UInt8(ascii: "\""):
                guard skipString() != nil else { return nil }
            default:
                while !atScalarEnd {
                    position += 1
                }
            }
            // After a value: close containers until one continues with a comma.
            while true {
                skipWhitespace()
                guard let container = containers.last, position < bytes.count else { return nil }
                let byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: ",") {
                    if case .array(let index) = container {
                        containers[containers.count - 1] = .array(index: index + 1)
                    } else if let duplicate = readKey() {
                        return duplicate
                    }
                    break
                }
                guard byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") else { return nil }
                if case .object(let firstKey) = container {
                    keys.removeSubrange(firstKey...)
                    if !largeObjectKeys.isEmpty { largeObjectKeys[firstKey] = nil }
                }
                close()
            }
        }
    }

    /// Opens `container` as the value at the current place, with the schema of that place.
    private mutating func open(_ container: Container) {
        let schema: JSONKeys
        switch (containers.last, schemas.last) {
        case (.object?, let parent?):
            // The value of the object's last key.
            schema = parent.value(of: String(decoding: decoded(keys[keys.count - 1]), as: UTF8.self))
        case (.array?, let parent?):
            schema = parent
        default:
            schema = self.schema
        }
        containers.append(container)
        schemas.append(schema)
    }

    private mutating func close() {
        containers.removeLast()
        schemas.removeLast()
    }

    /// Reads the key at the current position of the innermost object and the colon after it;
    /// returns it as a duplicate when the object already had it.
    private mutating func readKey() -> JSONDuplicateKeys.Duplicate? {
        skipWhitespace()
        guard case .object(let firstKey) = containers.last, peek(UInt8(ascii: "\"")),
            let key = readString()
        else { return nil }
        let keyCount = keys.count - firstKey
        let repeated: Bool
        if keyCount < Self.linearScanLimit {
            repeated = keys[firstKey...].contains { same($0, key) }
        } else {
            if keyCount == Self.linearScanLimit {
                largeObjectKeys[firstKey] = Set(keys[firstKey...].map(text(of:)))
            }
            // Swift's string hashing agrees with its equality, which `same(_:_:)` computes.
            repeated = !largeObjectKeys[firstKey, default: []].insert(text(of: key)).inserted
        }
        if repeated {
            let name = text(of: key)
            // A key the decoder ignores may be repeated: it is ignored, whatever it holds.
            if schemas.last?.reads(name) ?? true {
                return JSONDuplicateKeys.Duplicate(key: name, path: path())
            }
        }
        keys.append(key)
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else { return nil }
        position += 1
        return nil
    }

    /// Reads a string from its opening quote: where its text lies, and whether it has escapes
    /// (``JSONTextReader/skipString()``); `nil` when the text ends first.
    private mutating func readString() -> Key? {
        let start = position + 1
        guard let quote = skipString() else { return nil }
        let escaped = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\\")), quote - start) != nil
        return Key(start: start, end: quote, escaped: escaped)
    }

    /// Whether two keys are one key to the decoder: the same text once escapes are decoded, up
    /// to canonical equivalence (Swift's string equality). Two keys written as plain ASCII are
    /// one key exactly when their bytes are equal, the common case, compared without building
    /// strings.
    private func same(_ lhs: Key, _ rhs: Key) -> Bool {
        let length = lhs.end - lhs.start
        if !lhs.escaped, !rhs.escaped, length == rhs.end - rhs.start,
            memcmp(bytes.baseAddress! + lhs.start, bytes.baseAddress! + rhs.start, length) == 0
        {
            return true
        }
        if !lhs.escaped, !rhs.escaped, isASCII(lhs), isASCII(rhs) { return false }
        return text(of: lhs) == text(of: rhs)
    }

    /// A key's text with its escapes decoded, as the decoder compares it.
    private func text(of key: Key) -> String {
        String(decoding: decoded(key), as: UTF8.self)
    }

    /// Whether a key's text is ASCII only: no other spelling of it is canonically equivalent but
    /// its own bytes (escapes aside).
    private func isASCII(_ key: Key) -> Bool {
        !bytes[key.start..<key.end].contains { $0 >= 0x80 }
    }

    /// The UTF-8 bytes of a key's text with its escapes decoded.
    private func decoded(_ key: Key) -> [UInt8] {
        let text = bytes[key.start..<key.end]
        guard key.escaped else { return Array(text) }
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var index = text.startIndex
        func flush() {
            if !utf8.isEmpty {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll()
            }
        }
        while index < text.endIndex {
            let byte = text[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < text.endIndex else {
                utf8.append(byte)
                index += 1
                continue
            }
            flush()
            let escape = text[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                guard var unit = hex4(text, at: index) else { return Array(text) }
                index += 4
                if (0xD800..<0xDC00).contains(unit), index + 6 <= text.endIndex, text[index] == UInt8(ascii: "\\"),
                    text[index + 1] == UInt8(ascii: "u"), let low = hex4(text, at: index + 2),
                    (0xDC00..<0xE000).contains(low)
                {
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
            default:
                // `\"`, `\\`, `\/`: the character itself.
                scalars.append(Unicode.Scalar(escape))
            }
        }
        flush()
        return Array(String(scalars).utf8)
    }

    private func hex4(_ text: Slice<UnsafeBufferPointer<UInt8>>, at index: Int) -> UInt32? {
        guard index + 4 <= text.endIndex else { return nil }
        var value: UInt32 = 0
        for byte in text[index..<(index + 4)] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The path of the innermost object, from the keys and indices of the containers around it.
    /// An object's current key is the last of its keys: the keys of the objects inside it come
    /// after its own. Keys are shown as ``JSONInputProblem/path(_:)`` shows them, a long one cut.
    private func path() -> String {
        var result = ""
        for (offset, container) in containers.dropLast().enumerated() {
            switch container {
            case .object:
                let inner = containers[(offset + 1)...].lazy.compactMap { container -> Int? in
                    if case .object(let firstKey) = container { return firstKey }
                    return nil
                }.first
                let key = printableExcerpt(text(of: keys[(inner ?? keys.count) - 1]))
                result += result.isEmpty ? key : ".\(key)"
            case .array(let index):
                result += "[\(index)]"
            }
        }
        return result.isEmpty ? "(top level)" : result
    }
}
