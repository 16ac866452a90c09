import ListAdapter

/// Writes the interchange format's JSON byte by byte: keys in the order the caller writes them, strings
/// escaped per RFC 8259 (`"`, `\`, control characters), `/` and non-ASCII left as they are.
///
/// Foundation's `JSONEncoder` does not keep key order on every platform, and the interchange format fixes
/// the order, so the project's output goes through this writer.
package struct JSONWriter: Sendable {
    /// The UTF-8 bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    package init() {}

    /// Runs `body` with a writer that appends to `bytes` in place (no copy of what `bytes`
    /// already holds), then leaves everything written at the end of `bytes`.
    package static func appending(to bytes: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter()
        swap(&writer.bytes, &bytes)
        defer { swap(&writer.bytes, &bytes) }
        body(&writer)
    }

    /// The bytes written so far, as a string.
    package var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends raw JSON punctuation or a literal, such as `{` or `"key":`.
    @inlinable
    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes already written as JSON by another writer.
    package mutating func raw(bytes written: [UInt8]) {
        bytes.append(contentsOf: written)
    }

    /// Appends `"key":`.
    @inlinable
    package mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends a comma when `index` is not the first element.
    @inlinable
    package mutating func separator(_ index: Int) {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
    }

    /// Appends an integer in decimal.
    package mutating func integer(_ value: some BinaryInteger) {
        guard let magnitude = UInt64(exactly: value) else {
            bytes.append(contentsOf: String(value).utf8)
            return
        }
        // The digits of a non-negative value, written backwards into a small buffer, without a String.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends `[section,item]`.
    package mutating func path(_ path: ItemPath) {
        bytes.append(UInt8(ascii: "["))
        integer(path.section)
        bytes.append(UInt8(ascii: ","))
        integer(path.item)
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends a JSON string, escaping what RFC 8259 requires.
    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        stringContents(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends what goes between the quotes of `value`'s JSON string: its UTF-8, with what
    /// RFC 8259 requires escaped. With ``raw(_:)`` around it, a caller writes a string and the
    /// punctuation on either side in fewer appends.
    package mutating func stringContents(_ value: String) {
        let written: Void? = value.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
        if written == nil {
            var value = value
            value.withUTF8 { appendEscaped($0) }
        }
    }

    /// Appends `utf8`, escaping quotes, backslashes and control characters; runs with nothing
    /// to escape (the whole of most strings) are appended at once.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""): raw(#"\""#)
            case UInt8(ascii: "\\"): raw(#"\\"#)
            case 0x0A: raw(#"\n"#)
            case 0x0D: raw(#"\r"#)
            case 0x09: raw(#"\t"#)
            case 0x08: raw(#"\b"#)
            case 0x0C: raw(#"\f"#)
            default:
                raw(#"\u00"#)
                let hex: StaticString = "0123456789abcdef"
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0x0F)])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }

    /// Appends a string map as an object with its keys in ascending order (`String`'s `<`), so
    /// output is stable.
    package mutating func stringMap(_ map: [String: String]) {
        stringMap(map, keys: map.keys.sorted())
    }

    /// Appends a string map as an object with its keys in ascending order of their UTF-8 bytes
    /// (code point by code point), as Foundation's `JSONEncoder` sorts them with `.sortedKeys`.
    /// It differs from ``stringMap(_:)`` only for keys not in Unicode normal form C.
    package mutating func stringMapByCodePoint(_ map: [String: String]) {
        stringMap(map, keys: map.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    private mutating func stringMap(_ map: [String: String], keys: [String]) {
        raw("{")
        for (index, key) in keys.enumerated() {
            separator(index)
            string(key)
            raw(":")
            string(map[key]!)
        }
        raw("}")
    }
}
