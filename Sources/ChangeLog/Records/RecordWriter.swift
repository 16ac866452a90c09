/// Appends the primitives of RecordFormat.md to a byte buffer.
struct RecordWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    /// Takes the bytes written so far out of the writer, which is left empty: the array stays
    /// uniquely referenced, so the caller can append to it (a checksum) without a copy.
    mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }

    mutating func writeByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// An unsigned LEB128 varint: 7 bits per byte, low bits first, high bit set on all but the last.
    mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A count or length as a varint.
    mutating func writeCount(_ count: Int) {
        precondition(count >= 0, "counts are never negative")
        writeVarint(UInt64(count))
    }

    /// A signed integer, zigzag-mapped (0, -1, 1, -2, ... to 0, 1, 2, 3, ...) then as a varint.
    mutating func writeSigned(_ value: Int) {
        let value = Int64(value)
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A string: its UTF-8 byte length as a varint, then the bytes.
    mutating func writeString(_ string: String) {
        writeBytes(of: string, lengthOffset: 0)
    }

    /// An optional string: varint 0 for `nil`, otherwise byte length + 1, then the bytes.
    mutating func writeOptionalString(_ string: String?) {
        guard string != nil else {
            writeVarint(0)
            return
        }
        // Unwrapped in place: the string is borrowed, not copied (a copy retains its storage,
        // an atomic write to memory that other threads reading the same snapshots share).
        writeBytes(of: string.unsafelyUnwrapped, lengthOffset: 1)
    }

    /// The UTF-8 byte length of `string` plus `lengthOffset` as a varint, then the bytes, read
    /// where they are through the non-mutating `withContiguousStorageIfAvailable` (other
    /// threads may read the same string meanwhile); a string that is not contiguous UTF-8 is
    /// copied first.
    private mutating func writeBytes(of string: String, lengthOffset: UInt64) {
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            writeVarint(UInt64(utf8.count) + lengthOffset)
            bytes.append(contentsOf: utf8)
        }
        if written != nil { return }
        var string = string
        string.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count) + lengthOffset)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Eight bytes, little-endian.
    mutating func writeUInt64LittleEndian(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends the XXH3-64 checksum (seeded with `seed`) of everything written so far.
    mutating func seal(seed: UInt64) {
        writeUInt64LittleEndian(ContentHash.checksum(bytes, seed: seed))
    }
}

extension UInt64 {
    /// The eight big-endian bytes that key revisions and chunks, so that keys sort numerically.
    var bigEndianKey: [UInt8] {
        withUnsafeBytes(of: self.bigEndian) { Array($0) }
    }

    /// Reads an eight-byte big-endian key; `nil` when `key` is not eight bytes long.
    init?(bigEndianKey key: some Collection<UInt8>) {
        guard key.count == 8 else { return nil }
        self = key.reduce(0) { ($0 << 8) | UInt64($1) }
    }
}
