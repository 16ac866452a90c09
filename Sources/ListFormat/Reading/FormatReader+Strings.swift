/// Strings and keys: checked as they are read (UTF-8, no raw control character, only JSON's
/// escapes, surrogates in pairs), decoded only where the schema reads them.
extension FormatReader {
    /// A string's bytes between its quotes, and whether it holds an escape (then its text is
    /// not its bytes).
    struct Key {
        var range: Range<Int>
        var escaped: Bool
    }

    /// A string, from its opening quote (the next byte).
    @inline(__always)
    mutating func string() throws(ReadFailure) -> Key {
        position += 1
        return try stringRest()
    }

    /// The rest of a string after its opening quote.
    @inline(__always)
    mutating func stringRest() throws(ReadFailure) -> Key {
        let start = position
        var escaped = false
        skipOrdinaryWords()
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return Key(range: start..<(position - 1), escaped: escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                try escape()
            case 0..<0x20:
                throw syntax("control character in a string")
            case 0x80...:
                try utf8Sequence()
            default:
                position += 1
            }
        }
        throw syntax("unexpected end of text in a string")
    }

    /// Skips the string's bytes eight at a time while none of the eight ends it or needs a
    /// look (a quote, a backslash, a control character, a byte past ASCII); the byte-by-byte
    /// loop takes over from the first word that holds one.
    @inline(__always)
    mutating func skipOrdinaryWords() {
        guard let base = bytes.baseAddress else { return }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while position + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            // A byte is flagged when it is zero after the XOR (`x - 1` borrows into its high bit),
            // below 0x20, or past ASCII; a flag may also fall on the bytes above a flagged one,
            // which the byte-by-byte loop reads anyway.
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | (word &- ones &* 0x20) | word
            guard special & highs == 0 else { return }
            position += 8
        }
    }

    /// An escape, from its backslash: one of JSON's, a `\u` escape of a high surrogate followed
    /// by one of a low surrogate.
    private mutating func escape() throws(ReadFailure) {
        guard position + 1 < bytes.count else {
            position += 1
            throw syntax("unexpected end of text in a string")
        }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            let start = position
            guard let unit = codeUnit(at: position) else { throw syntax("invalid \\u escape") }
            position += 6
            switch unit {
            case 0xD800...0xDBFF:
                guard let low = codeUnit(at: position), (0xDC00...0xDFFF).contains(low) else {
                    throw syntax("unpaired UTF-16 surrogate in a \\u escape", at: start)
                }
                position += 6
            case 0xDC00...0xDFFF:
                throw syntax("unpaired UTF-16 surrogate in a \\u escape", at: start)
            default:
                break
            }
        default:
            throw syntax("invalid escape")
        }
    }

    /// The code unit of the `\uXXXX` escape at `offset`, or `nil` when there is none.
    private func codeUnit(at offset: Int) -> UInt16? {
        guard offset + 6 <= bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
        else { return nil }
        var unit: UInt16 = 0
        for byte in bytes[(offset + 2)..<(offset + 6)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// A well-formed UTF-8 sequence from its lead byte (0x80 or more): the Unicode Standard's
    /// table 3-7, so no overlong form, no surrogate, nothing past U+10FFFF.
    mutating func utf8Sequence() throws(ReadFailure) {
        let lead = bytes[position]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: throw syntax("invalid UTF-8 in a string")
        }
        guard position + length <= bytes.count, second.contains(bytes[position + 1]) else {
            throw syntax("invalid UTF-8 in a string")
        }
        for index in (position + 2)..<(position + length) where !(0x80...0xBF).contains(bytes[index]) {
            throw syntax("invalid UTF-8 in a string")
        }
        position += length
    }

    // MARK: Text

    /// The text of a string read, its escapes decoded.
    func text(of key: Key) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[key.range])
        guard key.escaped else { return String(decoding: raw, as: UTF8.self) }
        return String(decoding: Self.unescaped(raw), as: UTF8.self)
    }

    /// Whether a key's text is `literal` (ASCII): its bytes, or with escapes its decoded bytes.
    @inline(__always)
    func matches(_ key: Key, _ literal: StaticString) -> Bool {
        guard !key.escaped else {
            let decoded = Self.unescaped(UnsafeBufferPointer(rebasing: bytes[key.range]))
            return decoded.elementsEqual(
                UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
        guard key.range.count == literal.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return Self.sameBytes(base + key.range.lowerBound, literal.utf8Start, count: key.range.count)
    }

    /// Whether `string`'s UTF-8 is the bytes of `key`, a string without escapes.
    @inline(__always)
    func holds(_ key: Key, _ string: String) -> Bool {
        guard !key.escaped else { return false }
        return string.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.count == key.range.count else { return false }
            guard let stored = utf8.baseAddress, let read = bytes.baseAddress else { return true }
            return Self.sameBytes(stored, read + key.range.lowerBound, count: key.range.count)
        } ?? false
    }

    /// The UTF-8 of a checked string's bytes with their escapes decoded (a surrogate pair's two
    /// escapes as one scalar).
    static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(raw.count)
        var index = 0
        func hex4(_ at: Int) -> UInt32 {
            var value: UInt32 = 0
            for byte in raw[at..<(at + 4)] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                default: digit = byte - UInt8(ascii: "A") + 10
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                index += 1
                continue
            }
            let escaped = raw[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "u"):
                var value = hex4(index)
                index += 4
                // Checked when read: a high surrogate's escape is followed by a low one's.
                if (0xD800...0xDBFF).contains(value) {
                    value = 0x10000 + ((value - 0xD800) << 10) + (hex4(index + 2) - 0xDC00)
                    index += 6
                }
                result.append(contentsOf: UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}")!)
            default:
                // `\"`, `\\`, `\/`: the character itself.
                result.append(escaped)
            }
        }
        return result
    }
}
