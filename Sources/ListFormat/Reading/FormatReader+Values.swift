import ListAdapter

/// Containers, the values of each JSON type the schemas read, and the values they ignore, which
/// are checked against JSON's grammar all the same.
extension FormatReader {
    // MARK: Containers

    /// An object at nesting `depth` (the next byte is its brace): each member's key handed to
    /// `member`, which reads or skips its value. A problem inside a member's value gets the
    /// member's key in its path.
    @inline(__always)
    mutating func object(depth: Int, _ member: (inout FormatReader, Key) throws(ReadFailure) -> Void)
        throws(ReadFailure)
    {
        try container(closing: UInt8(ascii: "}"), depth: depth) { (reader, _) throws(ReadFailure) in
            let key = try reader.key()
            do throws(ReadFailure) {
                try member(&reader, key)
            } catch {
                throw error.inside(.key(reader.text(of: key)))
            }
        }
    }

    /// An array at nesting `depth` (the next byte is its bracket), each element read by
    /// `element`. A problem inside an element gets its index in its path.
    @inline(__always)
    mutating func array(depth: Int, _ element: (inout FormatReader) throws(ReadFailure) -> Void) throws(ReadFailure) {
        try container(closing: UInt8(ascii: "]"), depth: depth) { (reader, index) throws(ReadFailure) in
            do throws(ReadFailure) {
                try element(&reader)
            } catch {
                throw error.inside(.index(index))
            }
        }
    }

    /// An object or an array from its opening bracket: its members or elements, each read by
    /// `each` with its index, separated by commas (no trailing one).
    @inline(__always)
    private mutating func container(
        closing: UInt8, depth: Int, _ each: (inout FormatReader, Int) throws(ReadFailure) -> Void
    ) throws(ReadFailure) {
        guard depth <= Self.depthLimit else {
            throw schema("nested deeper than \(Self.depthLimit) arrays and objects", at: position)
        }
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == closing {
            position += 1
            return
        }
        var index = 0
        while true {
            try each(&self, index)
            skipWhitespace()
            guard position < bytes.count else { throw syntax("unexpected end of text") }
            let next = bytes[position]
            if next == closing {
                position += 1
                return
            }
            guard next == UInt8(ascii: ",") else {
                throw syntax(closing == UInt8(ascii: "]") ? "expected ',' or ']'" : "expected ',' or '}'")
            }
            let comma = position
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") || bytes[position] == UInt8(ascii: "}") {
                throw syntax("trailing comma", at: comma)
            }
            index += 1
        }
    }

    /// An object's key and the colon after it.
    @inline(__always)
    private mutating func key() throws(ReadFailure) -> Key {
        guard try peek(expecting: "a key") == UInt8(ascii: "\"") else {
            throw syntax("expected a key in double quotes")
        }
        let key = try string()
        guard try peek(expecting: "':'") == UInt8(ascii: ":") else { throw syntax("expected ':' after the key") }
        position += 1
        return key
    }

    // MARK: Values of a type

    /// A string the schema reads; a string of no value where `null` stands and `nullable`.
    @inline(__always)
    mutating func stringValue(nullable: Bool = false) throws(ReadFailure) -> Key? {
        let next = try peek(expecting: "a value")
        if next == UInt8(ascii: "\"") { return try string() }
        if nullable, next == UInt8(ascii: "n") {
            let start = position
            if literalFollows("null"), atScalarEnd { return nil }
            position = start
        }
        throw try mistyped(expected: "a string")
    }

    /// Whether the value here, after whitespace, is `null`; it is consumed if it is.
    mutating func null() throws(ReadFailure) -> Bool {
        let start = position
        guard try peek(expecting: "a value") == UInt8(ascii: "n"), literalFollows("null"), atScalarEnd else {
            position = start
            return false
        }
        return true
    }

    /// Checks that the value here, after whitespace, starts with `opening` (an object's brace or
    /// an array's bracket), else throws the problem of a value of another type.
    @inline(__always)
    mutating func expectContainer(_ opening: UInt8) throws(ReadFailure) {
        guard try peek(expecting: "a value") == opening else {
            throw try mistyped(expected: opening == UInt8(ascii: "{") ? "an object" : "an array")
        }
    }

    /// A value of some other type than `expected` here: the problem that it is not JSON where
    /// it starts not to be (from its first byte), else the problem of its type, quoting it as
    /// the text spells it.
    mutating func mistyped(expected: String) throws(ReadFailure) -> ReadFailure {
        skipWhitespace()
        let start = position
        var skipper = self
        do throws(ReadFailure) {
            try skipper.skipValue(depth: 1)
        } catch {
            if error.offset == start { return error }
            skipper.position = valueEnd(from: start)
        }
        position = start
        let shown = shownValue(start..<skipper.position)
        if shown == "null" { return schema("expected \(expected), found null", at: start) }
        return schema("expected \(expected), found \(shown)", at: start)
    }

    /// Where the value from `start` ends, counting brackets and skipping strings without
    /// checking them: the excerpt of a value that is mistyped and not JSON further in.
    private func valueEnd(from start: Int) -> Int {
        var position = start
        var depth = 0
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                    position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth <= 0 { return min(position + 1, bytes.count) }
            case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                if depth == 0 { return position }
            default:
                break
            }
            position += 1
        }
        return bytes.count
    }

    /// The text of `range` as a message shows a value: line breaks and tabs as spaces, control
    /// and invisible characters escaped, cut after 60 characters.
    private func shownValue(_ range: Range<Int>) -> String {
        let typed = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        var text = ""
        for scalar in typed.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\t" {
                text += " "
            } else if isEscapedInText(scalar) {
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        if text.count > 60 { text = String(text.prefix(57)) + "..." }
        return text
    }

    /// An integer the schema reads (an index, a revision number): digits without a fraction
    /// or an exponent, a minus sign first where `negative` allows it, within `Int64`.
    mutating func integerValue(negative: Bool = false) throws(ReadFailure) -> Int64 {
        let expected = negative ? "an integer" : "a non-negative integer"
        _ = try peek(expecting: "a value")
        let start = position
        let minus = negative && bytes[position] == UInt8(ascii: "-")
        if minus { position += 1 }
        let digitsStart = position
        var magnitude: UInt64 = 0
        var overflow = false
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            let (times10, over1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, over2) = times10.addingReportingOverflow(UInt64(bytes[position] - UInt8(ascii: "0")))
            overflow = overflow || over1 || over2
            magnitude = sum
            position += 1
        }
        let count = position - digitsStart
        guard count > 0, atScalarEnd, count == 1 || bytes[digitsStart] != UInt8(ascii: "0"), !overflow,
            let value = minus
                ? (magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil)
                : Int64(exactly: magnitude)
        else {
            position = start
            throw try mistyped(expected: expected)
        }
        return value
    }

    // MARK: Values the schema ignores

    /// A value the schema does not read, checked against JSON's grammar.
    mutating func skipValue(depth: Int) throws(ReadFailure) {
        switch try peek(expecting: "a value") {
        case UInt8(ascii: "{"):
            try object(depth: depth) { (reader, _) throws(ReadFailure) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            try array(depth: depth) { (reader) throws(ReadFailure) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "t"):
            try literal("true")
        case UInt8(ascii: "f"):
            try literal("false")
        case UInt8(ascii: "n"):
            try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
        default:
            throw syntax("invalid value")
        }
    }

    /// `true`, `false` or `null`, ending where a value ends.
    private mutating func literal(_ word: StaticString) throws(ReadFailure) {
        let start = position
        guard literalFollows(word), atScalarEnd else { throw syntax("invalid value", at: start) }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, ending where a value ends.
    private mutating func number() throws(ReadFailure) {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        if position < bytes.count, bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else if digits() == 0 {
            throw syntax("invalid number", at: start)
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw syntax("invalid number", at: start) }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { throw syntax("invalid number", at: start) }
        }
        guard atScalarEnd else { throw syntax("invalid number", at: start) }
    }

    /// Skips decimal digits; returns how many.
    private mutating func digits() -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            position += 1
        }
        return position - start
    }

    /// Whether a number or a literal ends here: at the text's end, whitespace, a comma or a
    /// closing bracket.
    var atScalarEnd: Bool {
        guard position < bytes.count else { return true }
        switch bytes[position] {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: return true
        default: return false
        }
    }
}
