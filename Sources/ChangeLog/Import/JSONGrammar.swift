import Foundation

/// Checks a text against JSON's grammar (RFC 8259), where Foundation's `JSONDecoder` is lenient:
/// it accepts trailing commas (`[1,]`, `{"a": 1,}`) and does not look inside values it does not
/// read (`"x": 01` under an unknown key). Input that is not JSON is refused, wherever it is.
///
/// Strings are checked as the decoder reads the ones it decodes: their bytes must be UTF-8
/// (RFC 8259, section 8.1) and their `\u` escapes of UTF-16 surrogates must pair up. Text in
/// another encoding is ``JSONTextEncoding``'s concern, repeated keys ``JSONDuplicateKeys``'.
///
/// Besides refusing input, the check names the place where `JSONDecoder` does not: where its
/// parser stops, this one finds the same fault with a byte offset (``JSONInputProblem``).
package enum JSONGrammar {
    /// Where the text leaves JSON's grammar, and how.
    package struct Violation: Equatable, Sendable {
        /// What is wrong: `trailing comma`, `invalid number`, ….
        package var reason: String
        /// The 0-based byte offset where it is wrong.
        package var offset: Int
    }

    /// The first place where `json` is not JSON, or `nil` when it is (a UTF-8 byte order mark
    /// may start it, as `JSONDecoder` accepts).
    ///
    /// - Complexity: O(*n*) for *n* bytes; no recursion, so no limit on nesting.
    package static func violation(in json: Data) -> Violation? {
        json.withUnsafeBytes { raw in
            var parser = Parser(raw.bindMemory(to: UInt8.self))
            return parser.check()
        }
    }
}

/// A single pass with an explicit stack of open containers.
private struct Parser: JSONTextReader {
    private enum Container {
        case object
        case array
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    private var containers: [Container] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = Self.textStart(of: bytes)
    }

    private func violation(_ reason: String, at offset: Int? = nil) -> JSONGrammar.Violation {
        JSONGrammar.Violation(reason: reason, offset: offset ?? position)
    }

    mutating func check() -> JSONGrammar.Violation? {
        while true {
            // At the start of a value.
            skipWhitespace()
            guard position < bytes.count else { return violation("unexpected end of text, expected a value") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                skipWhitespace()
                if peek(UInt8(ascii: "}")) {
                    position += 1
                } else {
                    containers.append(.object)
                    if let problem = readKey() { return problem }
                    continue
                }
            case UInt8(ascii: "["):
                position += 1
                skipWhitespace()
                if peek(UInt8(ascii: "]")) {
                    position += 1
                } else {
                    containers.append(.array)
                    continue
                }
            case UInt8(ascii: "\""):
                if let problem = readString() { return problem }
            case UInt8(ascii: "t"):
                if let problem = readLiteral("true") { return problem }
            case UInt8(ascii: "f"):
                if let problem = readLiteral("false") { return problem }
            case UInt8(ascii: "n"):
                if let problem = readLiteral("null") { return problem }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if let problem = readNumber() { return problem }
            default:
                return violation("invalid value")
            }
            // After a value: close containers until one continues with a comma.
            while true {
                let valueEnd = position
                skipWhitespace()
                guard let container = containers.last else {
                    guard position < bytes.count else { return nil }
                    // A file whose lines end with a carriage return alone reads as one line.
                    let separatedByCR = bytes[valueEnd..<position].contains(UInt8(ascii: "\r"))
                    return violation(
                        separatedByCR
                            ? "text after the value and a carriage return (lines end with \\n, not \\r alone)"
                            : "text after the value")
                }
                guard position < bytes.count else { return violation("unexpected end of text") }
                let byte = bytes[position]
                let comma = position
                position += 1
                if byte == UInt8(ascii: ",") {
                    skipWhitespace()
                    if peek(UInt8(ascii: "]")) || peek(UInt8(ascii: "}")) {
                        return violation("trailing comma", at: comma)
                    }
                    if container == .object, let problem = readKey() { return problem }
                    break
                }
                switch (container, byte) {
                case (.object, UInt8(ascii: "}")), (.array, UInt8(ascii: "]")):
                    containers.removeLast()
                case (.object, _):
                    return violation("expected ',' or '}'", at: comma)
                case (.array, _):
                    return violation("expected ',' or ']'", at: comma)
                }
            }
        }
    }

    /// Reads an object's key and the colon after it.
    private mutating func readKey() -> JSONGrammar.Violation? {
        skipWhitespace()
        guard position < bytes.count else { return violation("unexpected end of text, expected a key") }
        guard peek(UInt8(ascii: "\"")) else { return violation("expected a key in double quotes") }
        if let problem = readString() { return problem }
        skipWhitespace()
        guard position < bytes.count else { return violation("unexpected end of text, expected ':'") }
        guard peek(UInt8(ascii: ":")) else { return violation("expected ':' after the key") }
        position += 1
        return nil
    }

    /// Reads a string from its opening quote: no raw control character, only JSON's escapes.
    private mutating func readString() -> JSONGrammar.Violation? {
        position += 1
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return nil
            case UInt8(ascii: "\\"):
                guard position + 1 < bytes.count else { return violation("unexpected end of text in a string") }
                switch bytes[position + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 2
                case UInt8(ascii: "u"):
                    if let problem = readUnicodeEscape() { return problem }
                default:
                    return violation("invalid escape")
                }
            case 0x00..<0x20:
                return violation("control character in a string")
            case 0x80...:
                guard let length = Self.utf8SequenceLength(in: bytes, at: position) else {
                    return violation("invalid UTF-8 in a string")
                }
                position += length
            default:
                position += 1
            }
        }
        return violation("unexpected end of text in a string")
    }

    /// Reads a `\uXXXX` escape from its backslash, and the low surrogate's escape that must
    /// follow a high surrogate's: a lone surrogate is no character, and `JSONDecoder` refuses it.
    private mutating func readUnicodeEscape() -> JSONGrammar.Violation? {
        let start = position
        guard let unit = codeUnit(at: position) else { return violation("invalid \\u escape") }
        position += 6
        switch unit {
        case 0xD800...0xDBFF:
            guard let low = codeUnit(at: position), (0xDC00...0xDFFF).contains(low) else {
                return violation("unpaired UTF-16 surrogate in a \\u escape", at: start)
            }
            position += 6
        case 0xDC00...0xDFFF:
            return violation("unpaired UTF-16 surrogate in a \\u escape", at: start)
        default:
            break
        }
        return nil
    }

    /// The code unit of the `\uXXXX` escape at `offset`, or `nil` when there is none.
    private func codeUnit(at offset: Int) -> UInt16? {
        guard offset + 6 <= bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
        else { return nil }
        var unit: UInt16 = 0
        for byte in bytes[(offset + 2)..<(offset + 6)] {
            guard let digit = Self.hexValue(byte) else { return nil }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// The length of the well-formed UTF-8 sequence that starts at `offset` with a byte of
    /// 0x80 or more (the Unicode Standard, table 3-7: no overlong forms, no surrogates, nothing
    /// past U+10FFFF), or `nil` when it is not one.
    private static func utf8SequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
        let lead = bytes[offset]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return nil
        }
        guard offset + length <= bytes.count, second.contains(bytes[offset + 1]) else { return nil }
        for index in (offset + 2)..<(offset + length) where !(0x80...0xBF).contains(bytes[index]) {
            return nil
        }
        return length
    }

    private mutating func readLiteral(_ literal: StaticString) -> JSONGrammar.Violation? {
        let start = position
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count,
            memcmp(bytes.baseAddress! + position, literal.utf8Start, count) == 0
        else { return violation("invalid value") }
        position += count
        return atScalarEnd ? nil : violation("invalid value", at: start)
    }

    /// Reads `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func readNumber() -> JSONGrammar.Violation? {
        let start = position
        if peek(UInt8(ascii: "-")) { position += 1 }
        if peek(UInt8(ascii: "0")) {
            position += 1
        } else if digits() == 0 {
            return violation("invalid number", at: start)
        }
        if peek(UInt8(ascii: ".")) {
            position += 1
            guard digits() > 0 else { return violation("invalid number", at: start) }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard digits() > 0 else { return violation("invalid number", at: start) }
        }
        return atScalarEnd ? nil : violation("invalid number", at: start)
    }

    /// Skips decimal digits; returns how many.
    private mutating func digits() -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            position += 1
        }
        return position - start
    }

    /// The value of a hexadecimal digit, or `nil` for another byte.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
