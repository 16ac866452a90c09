/// The steps a single pass over JSON text takes byte by byte, shared by the passes of this
/// folder (``JSONGrammar``'s and ``JSONDuplicateKeys``'): where the text starts, whitespace,
/// and where a number or a literal ends.
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
