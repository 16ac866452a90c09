import Foundation

/// Finds the text of the value at a decoder's coding path in JSON text, as the user typed it:
/// error messages quote `-0`, `1E+2` or `1e400` as they stand in the input, where a value read
/// back and written again would show `0`, `100` or nothing.
package enum JSONValueText {
    /// The text of the value at `codingPath` in `json`, or `nil` when the text is not JSON, holds
    /// no such value, or names one of the path's keys twice (which of the two the decoder read
    /// is its own affair). Object keys compare as the decoder compares them: escapes decoded,
    /// canonically equivalent spellings equal.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    package static func text(at codingPath: [any CodingKey], in json: Data) -> String? {
        json.withUnsafeBytes { raw in
            var locator = Locator(raw.bindMemory(to: UInt8.self))
            guard let range = locator.find(codingPath) else { return nil }
            return String(decoding: raw[range], as: UTF8.self)
        }
    }
}

/// A walk down a coding path, skipping the values beside it.
private struct Locator: JSONTextReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = Self.textStart(of: bytes)
    }

    /// The byte range of the value at `path`.
    mutating func find(_ path: [any CodingKey]) -> Range<Int>? {
        skipWhitespace()
        for key in path {
            if peek(UInt8(ascii: "[")) {
                guard let index = key.intValue, enterElement(index) else { return nil }
            } else if peek(UInt8(ascii: "{")) {
                guard enterMember(key.stringValue) else { return nil }
            } else {
                return nil
            }
        }
        let start = position
        guard skipValue() else { return nil }
        return start..<position
    }

    /// From an array's `[`, moves to the start of its element at `index`.
    private mutating func enterElement(_ index: Int) -> Bool {
        position += 1
        skipWhitespace()
        guard index >= 0, !peek(UInt8(ascii: "]")) else { return false }
        for _ in 0..<index {
            guard skipValue() else { return false }
            skipWhitespace()
            guard peek(UInt8(ascii: ",")) else { return false }
            position += 1
            skipWhitespace()
        }
        return position < bytes.count
    }

    /// From an object's `{`, moves to the start of the value of its member named `name`, when it
    /// has exactly one.
    private mutating func enterMember(_ name: String) -> Bool {
        position += 1
        var found: Int?
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { break }
            let keyStart = position
            guard skipString() != nil else { return false }
            let key = Self.text(ofString: UnsafeBufferPointer(rebasing: bytes[keyStart..<position]))
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { return false }
            position += 1
            skipWhitespace()
            if key == name {
                guard found == nil else { return false }
                found = position
            }
            guard skipValue() else { return false }
            skipWhitespace()
            guard peek(UInt8(ascii: ",")) else { break }
            position += 1
        }
        guard let found else { return false }
        position = found
        return true
    }

    /// The text of a JSON string, `quoted` with its quotes: its bytes as they are when it has no
    /// escape (most keys), otherwise decoded by `JSONDecoder`.
    private static func text(ofString quoted: UnsafeBufferPointer<UInt8>) -> String? {
        guard quoted.contains(UInt8(ascii: "\\")) else {
            return String(decoding: UnsafeBufferPointer(rebasing: quoted.dropFirst().dropLast()), as: UTF8.self)
        }
        return try? JSONDecoder().decode(String.self, from: Data(quoted))
    }

    /// Skips the value that starts here; `false` when the text ends first or holds no value here.
    private mutating func skipValue() -> Bool {
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            return skipString() != nil
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            var depth = 0
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    guard skipString() != nil else { return false }
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return true
                    }
                default:
                    break
                }
                position += 1
            }
            return false
        default:
            let start = position
            while !atScalarEnd { position += 1 }
            return position > start
        }
    }
}
