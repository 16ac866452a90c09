import Foundation

/// The JSON half of ``ImportLineReader``: containers, strings, and the values the schema does
/// not read, which are checked against JSON's grammar and skipped. ``ImportLineParser`` holds
/// the schema's half.
extension ImportLineReader {
    // MARK: Containers

    /// An object whose keys are plain strings (no escapes), each handed to `member` to read or
    /// skip its value.
    mutating func object(
        depth: Int, _ member: (inout ImportLineReader, Range<Int>) throws(Declined) -> Void
    ) throws(Declined) {
        try container(opening: UInt8(ascii: "{"), closing: UInt8(ascii: "}"), depth: depth) {
            (reader) throws(Declined) in
            let key = try reader.plainString()
            try reader.expect(UInt8(ascii: ":"))
            try member(&reader, key)
        }
    }

    /// An array, each element read by `element`.
    mutating func array(depth: Int, _ element: (inout ImportLineReader) throws(Declined) -> Void)
        throws(Declined)
    {
        try container(opening: UInt8(ascii: "["), closing: UInt8(ascii: "]"), depth: depth, element)
    }

    /// An object or an array at nesting `depth`: its members or elements, each read by `each`,
    /// separated by commas (no trailing one).
    @inline(__always)
    private mutating func container(
        opening: UInt8, closing: UInt8, depth: Int, _ each: (inout ImportLineReader) throws(Declined) -> Void
    ) throws(Declined) {
        guard depth <= ImportLineParser.depthLimit else { throw Declined() }
        try expect(opening)
        if try peek() == closing {
            position += 1
            return
        }
        while true {
            try each(&self)
            guard try endOfMember(closing: closing) else { continue }
            return
        }
    }

    /// After a member or an element: `true` past the closing bracket, `false` past a comma.
    mutating func endOfMember(closing: UInt8) throws(Declined) -> Bool {
        let next = try peek()
        position += 1
        if next == closing { return true }
        guard next == UInt8(ascii: ",") else { throw Declined() }
        return false
    }

    // MARK: Values

    /// A string of the schema, which may not hold an escape.
    mutating func string() throws(Declined) -> String {
        text(try plainString())
    }

    /// The text of a plain string's bytes (their UTF-8 is checked with the whole line's).
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Whether the bytes in `range` are `literal`'s.
    @inline(__always)
    func matches(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount, let base = bytes.baseAddress else {
            return range.isEmpty && literal.utf8CodeUnitCount == 0
        }
        return Self.sameBytes(base + range.lowerBound, literal.utf8Start, count: range.count)
    }

    /// An item exactly as `formatJSON()` writes it, `{"id":"…","summary":"…"}` or `{"id":"…"}`
    /// (no whitespace, no escape): the ranges of its id and summary. Otherwise `(nil, nil)`,
    /// and nothing is consumed: the item is read as any object is.
    @inline(__always)
    mutating func compactItem() -> (id: Range<Int>?, summary: Range<Int>?) {
        let start = position
        guard literalFollows("{\"id\":\""), let id = try? stringRest() else {
            position = start
            return (nil, nil)
        }
        if literalFollows("}") { return (id, nil) }
        guard literalFollows(",\"summary\":\""), let summary = try? stringRest(), literalFollows("}") else {
            position = start
            return (nil, nil)
        }
        return (id, summary)
    }

    /// Whether `literal`'s bytes come next; they are consumed if they do.
    @inline(__always)
    mutating func literalFollows(_ literal: StaticString) -> Bool {
        let end = position + literal.utf8CodeUnitCount
        guard end <= bytes.count, matches(position..<end, literal) else { return false }
        position = end
        return true
    }

    /// A string without escapes: the range of its bytes, quotes left out.
    mutating func plainString() throws(Declined) -> Range<Int> {
        try expect(UInt8(ascii: "\""))
        return try stringRest()
    }

    /// The rest of a string without escapes after its opening quote: the range of its bytes.
    @inline(__always)
    mutating func stringRest() throws(Declined) -> Range<Int> {
        let start = position
        skipOrdinaryWords()
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return start..<(position - 1)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { throw Declined() }
            if byte >= 0x80 { sawNonASCII = true }
            position += 1
        }
        throw Declined()
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

    /// A value the schema does not read, checked against JSON's grammar: any string (escapes
    /// included, but no UTF-16 surrogate, which must pair), an integer of at most 15 digits,
    /// `true`, `false`, `null`, and arrays and objects of those.
    mutating func skipValue(depth: Int) throws(Declined) {
        switch try peek() {
        case UInt8(ascii: "{"):
            try object(depth: depth) { (reader, _) throws(Declined) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            try array(depth: depth) { (reader) throws(Declined) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "t"):
            try literal("true")
        case UInt8(ascii: "f"):
            try literal("false")
        case UInt8(ascii: "n"):
            try literal("null")
        default:
            try integer()
        }
    }

    /// A string that is not read: escapes are checked, not decoded.
    mutating func skipString() throws(Declined) {
        position += 1
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw Declined() }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"):
                    try unicodeEscape()
                default:
                    throw Declined()
                }
            case 0..<0x20:
                throw Declined()
            case 0x80...:
                sawNonASCII = true
            default:
                continue
            }
        }
        throw Declined()
    }

    /// The four hexadecimal digits of a `\u` escape, of a code point that is not a surrogate.
    mutating func unicodeEscape() throws(Declined) {
        guard position + 4 <= bytes.count else { throw Declined() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            position += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Declined()
            }
            value = value << 4 | UInt32(digit)
        }
        guard !(0xD800...0xDFFF).contains(value) else { throw Declined() }
    }

    /// `-`, then `0` or up to 15 digits not starting with `0`, and no fraction or exponent.
    mutating func integer() throws(Declined) {
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            position += 1
        }
        let digits = position - start
        guard digits > 0, digits <= 15, digits == 1 || bytes[start] != UInt8(ascii: "0") else { throw Declined() }
        if position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): throw Declined()
            default: break
            }
        }
    }

    /// The bytes of `word` (`true`, `false`, `null`).
    mutating func literal(_ word: StaticString) throws(Declined) {
        guard literalFollows(word) else { throw Declined() }
    }

    // MARK: Bytes

    /// The next byte after whitespace, not consumed.
    mutating func peek() throws(Declined) -> UInt8 {
        skipWhitespace()
        guard position < bytes.count else { throw Declined() }
        return bytes[position]
    }

    /// Consumes `byte` after whitespace.
    mutating func expect(_ byte: UInt8) throws(Declined) {
        guard try peek() == byte else { throw Declined() }
        position += 1
    }

    /// Skips JSON's whitespace: space, tab, line feed, carriage return.
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }
}
