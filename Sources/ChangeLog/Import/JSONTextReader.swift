#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The steps a single pass over JSON text takes byte by byte, shared by the passes of this
/// folder (``JSONGrammar``'s, ``JSONDuplicateKeys``' and ``JSONValueText``'s): where the text
/// starts, whitespace, strings, and where a number or a literal ends.
protocol JSONTextReader {
    /// The text.
    var bytes: UnsafeBufferPointer<UInt8> { get }
    /// The offset of the next byte to read.
    var position: Int { get set }
}

extension JSONTextReader {
    /// Where JSON text starts in `bytes`: after a UTF-8 byte order mark, which `JSONDecoder`
    /// accepts.
    static func textStart(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Skips JSON's whitespace: space, tab, line feed and carriage return.
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Skips a string from its opening quote (the next byte) to past its closing one; returns
    /// the offset of the closing quote, or `nil` when the text ends first. Escapes are skipped,
    /// not checked. Most of a document's bytes are inside strings: `memchr` finds each quote, and
    /// a quote after an odd run of backslashes is escaped.
    mutating func skipString() -> Int? {
        let base = bytes.baseAddress!
        let start = position + 1
        var from = start
        while from < bytes.count {
            guard let found = memchr(base + from, Int32(UInt8(ascii: "\"")), bytes.count - from) else { return nil }
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            // A quote ends the string unless an odd number of backslashes escapes it.
            var backslashes = 0
            while quote - backslashes - 1 >= start, base[quote - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 {
                position = quote + 1
                return quote
            }
            from = quote + 1
        }
        return nil
    }

    /// Whether the next byte is `byte`.
    func peek(_ byte: UInt8) -> Bool {
        position < bytes.count && bytes[position] == byte
    }

    /// Whether a number or a literal (`true`, `false`, `null`) ends here: at the text's end,
    /// whitespace, a comma or a closing bracket.
    var atScalarEnd: Bool {
        guard position < bytes.count else { return true }
        switch bytes[position] {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: return true
        default: return false
        }
    }
}
