import Foundation

/// Checks a text against JSON's grammar (RFC 8259), where Foundation's `JSONDecoder` is lenient:
/// it accepts trailing commas (`[1,]`, `{"a": 1,}`) and does not look inside values it does not
/// read (`"x": 01` under an unknown key). Input that is not JSON is refused, wherever it is.
///
/// Only the grammar is checked: UTF-8 is ``JSONTextEncoding``'s and the decoder's concern,
/// repeated keys ``JSONDuplicateKeys``'.
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
                skipWhitespace()
                guard let container = containers.last else {
                    return position < bytes.count ? violation("text after the value") : nil
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
        guard peek(UInt8(ascii: "\"")) else { return violation("expected a key in double quotes") }
        if let problem = readString() { return problem }
        skipWhitespace()
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
                    guard position + 6 <= bytes.count,
                        bytes[(position + 2)..<(position + 6)].allSatisfy(Self.isHexDigit)
                    else { return violation("invalid \\u escape") }
                    position += 6
                default:
                    return violation("invalid escape")
                }
            case 0x00..<0x20:
                return violation("control character in a string")
            default:
                position += 1
            }
        }
        return violation("unexpected end of text in a string")
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

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}
