import ListAdapter

/// A strict single-pass reader of the interchange format's JSON over UTF-8 bytes: the cursor,
/// whitespace, and the problems it reports. The grammar is RFC 8259's throughout, values the
/// schema ignores included; strings must be UTF-8 and their `\u` escapes must pair surrogates;
/// arrays and objects nest at most ``depthLimit`` deep. The schemas (snapshot lines, revision
/// lines) are extensions by concern, one method per object, each handing its members to the
/// method of their key, so that a new key is one more case.
///
/// The reader stops at the first problem in input order: each problem is found when the byte
/// that shows it is read, and nothing after it is read. Containers add their key or index to a
/// problem's path as it passes through them, so the path costs nothing until there is a problem.
struct FormatReader {
    /// The text.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    var position: Int

    /// The deepest nesting of arrays and objects read, the document's own object or array
    /// counting as 1: as deep as Foundation's `JSONDecoder` reads, far deeper than the format's
    /// four levels, and shallow enough for the recursion of the reader's methods.
    static let depthLimit = 512

    /// A reader at the start of `bytes`, after a UTF-8 byte order mark (which an editor may
    /// write, and which the format's older reader accepted).
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    // MARK: Problems

    /// The text is not JSON at `offset` (by default, here).
    func syntax(_ reason: String, at offset: Int? = nil) -> ReadFailure {
        ReadFailure(offset: offset ?? position, reason: reason, kind: .syntax)
    }

    /// The text is JSON, but not of the format's schema, at `offset`.
    func schema(_ reason: String, at offset: Int) -> ReadFailure {
        ReadFailure(offset: offset, reason: reason, kind: .schema)
    }

    /// An object names `key` a second time (the key starting at `offset`).
    func duplicateKey(_ key: Key) -> ReadFailure {
        var failure = schema(
            "duplicate key \(quotedExcerpt(text(of: key))); a key may appear once in an object",
            at: key.range.lowerBound - 1)
        failure.belongsToObject = true
        return failure
    }

    /// An object lacks `field`: named at the object's opening brace, found at its end.
    func missingField(_ field: String, objectStart: Int) -> ReadFailure {
        schema("missing field \"\(field)\"", at: objectStart)
    }

    // MARK: Bytes

    /// Skips JSON's whitespace: space, tab, line feed, carriage return.
    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The next byte after whitespace, not consumed; at the end of the text, a problem saying
    /// what was `expected`.
    @inline(__always)
    mutating func peek(expecting expected: String) throws(ReadFailure) -> UInt8 {
        skipWhitespace()
        guard position < bytes.count else { throw syntax("unexpected end of text, expected \(expected)") }
        return bytes[position]
    }

    /// Whether `literal`'s bytes come next; they are consumed if they do.
    @inline(__always)
    mutating func literalFollows(_ literal: StaticString) -> Bool {
        let end = position + literal.utf8CodeUnitCount
        guard end <= bytes.count, let base = bytes.baseAddress,
            Self.sameBytes(base + position, literal.utf8Start, count: literal.utf8CodeUnitCount)
        else { return false }
        position = end
        return true
    }

    /// After the document's value: nothing but whitespace may follow.
    mutating func expectEnd() throws(ReadFailure) {
        let valueEnd = position
        skipWhitespace()
        guard position < bytes.count else { return }
        // A file whose lines end with a carriage return alone reads as one line.
        let separatedByCR = bytes[valueEnd..<position].contains(UInt8(ascii: "\r"))
        throw syntax(
            separatedByCR
                ? "text after the value and a carriage return (lines end with \\n, not \\r alone)"
                : "text after the value")
    }

    /// Whether the `count` bytes at `lhs` and `rhs` are the same: words compared in place, for
    /// the short strings and keys of a line, where a call to `memcmp` costs more than the bytes.
    @inline(__always)
    static func sameBytes(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count >= 8 else {
            for offset in 0..<count where lhs[offset] != rhs[offset] { return false }
            return true
        }
        let left = UnsafeRawPointer(lhs)
        let right = UnsafeRawPointer(rhs)
        var offset = 0
        while offset + 8 < count {
            guard
                left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        // The last word, which may overlap the one before.
        return left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }
}
