/// Why bytes did not decode: what was expected and at which byte offset.
struct RecordDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset of the byte where decoding failed.
    var offset: Int
    /// What was wrong there.
    var reason: String

    var description: String { "\(reason) at byte \(offset)" }
}

/// Reads the primitives of RecordFormat.md from a byte buffer, checking every bound: malformed
/// input is a ``RecordDecodingError``, never a trap.
struct RecordReader {
    private let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    private(set) var offset: Int

    /// Reads `bytes[range]`; the buffer must outlive the reader.
    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The number of bytes not read yet.
    var remaining: Int { bytes.count - offset }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset == bytes.count }

    func failure(_ reason: String) -> RecordDecodingError {
        RecordDecodingError(offset: offset, reason: reason)
    }

    mutating func readByte() throws(RecordDecodingError) -> UInt8 {
        guard offset < bytes.count else { throw failure("unexpected end of data") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readVarint() throws(RecordDecodingError) -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            if shift == 63 && byte > 1 {
                offset = start
                throw failure("varint overflows 64 bits")
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 {
                offset = start
                throw failure("varint longer than 10 bytes")
            }
        }
    }

    /// A count of elements that each take at least `minimumElementSize` bytes: larger counts
    /// cannot be honest, and are refused before anything is allocated for them.
    mutating func readCount(minimumElementSize: Int = 1) throws(RecordDecodingError) -> Int {
        let start = offset
        let value = try readVarint()
        guard value <= UInt64(remaining / max(minimumElementSize, 1)) else {
            offset = start
            throw failure("count \(value) exceeds the \(remaining) bytes left")
        }
        return Int(value)
    }

    /// A count that is not backed by bytes in this buffer (a total stated for checking).
    mutating func readTotal() throws(RecordDecodingError) -> Int {
        let start = offset
        let value = try readVarint()
        guard value <= UInt64(Int.max) else {
            offset = start
            throw failure("number \(value) is too large")
        }
        return Int(value)
    }

    mutating func readSigned() throws(RecordDecodingError) -> Int {
        let start = offset
        let raw = try readVarint()
        let value = Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
        guard let result = Int(exactly: value) else {
            offset = start
            throw failure("number \(value) does not fit in Int")
        }
        return result
    }

    mutating func readChunkID() throws(RecordDecodingError) -> UInt64 {
        let start = offset
        let id = try readVarint()
        guard id != 0 else {
            offset = start
            throw failure("chunk identifier 0")
        }
        return id
    }

    private mutating func readUTF8(count: Int) throws(RecordDecodingError) -> String {
        guard count <= remaining else { throw failure("string of \(count) bytes exceeds the \(remaining) bytes left") }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw failure("string is not valid UTF-8")
        }
        offset += count
        return string
    }

    mutating func readString() throws(RecordDecodingError) -> String {
        let count = try readCount()
        return try readUTF8(count: count)
    }

    mutating func readOptionalString() throws(RecordDecodingError) -> String? {
        let start = offset
        let marker = try readVarint()
        if marker == 0 { return nil }
        guard marker - 1 <= UInt64(remaining) else {
            offset = start
            throw failure("string of \(marker - 1) bytes exceeds the \(remaining) bytes left")
        }
        return try readUTF8(count: Int(marker - 1))
    }

    mutating func readUInt64LittleEndian() throws(RecordDecodingError) -> UInt64 {
        guard remaining >= 8 else { throw failure("unexpected end of data") }
        var value: UInt64 = 0
        for index in (0..<8).reversed() {
            value = (value << 8) | UInt64(bytes[offset + index])
        }
        offset += 8
        return value
    }

    func expectEnd() throws(RecordDecodingError) {
        guard isAtEnd else { throw failure("\(remaining) unexpected trailing bytes") }
    }
}

/// The result of checking a sealed buffer's trailing XXH3-64 checksum.
enum SealCheck {
    /// The checksum matches; the content is the buffer without its last eight bytes.
    case valid(UnsafeRawBufferPointer)
    /// The buffer is shorter than a checksum.
    case tooShort
    /// The stored and computed checksums differ.
    case mismatch(stored: UInt64, computed: UInt64)

    /// Checks the last eight bytes of `bytes` against XXH3-64 (seeded with `seed`) of the rest.
    init(_ bytes: UnsafeRawBufferPointer, seed: UInt64) {
        guard bytes.count >= 8 else {
            self = .tooShort
            return
        }
        let content = UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 8)])
        var stored: UInt64 = 0
        for index in (0..<8).reversed() {
            stored = (stored << 8) | UInt64(bytes[bytes.count - 8 + index])
        }
        let computed = ContentHash.checksum(content, seed: seed)
        self = stored == computed ? .valid(content) : .mismatch(stored: stored, computed: computed)
    }
}
