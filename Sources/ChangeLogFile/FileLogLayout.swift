import CXXHash

/// The layout of a log file: a header, then frames, each write transaction's frames ended by a
/// commit frame that makes them all count or none.
///
/// ```
/// header   magic (8 bytes: 89 'C' 'H' 'L' 'O' 'G' 0D 0A), layout version (UInt32 LE, 1),
///          XXH3-64 of those 12 bytes, seed 0, low 32 bits (UInt32 LE)             16 bytes
/// frame    kind (UInt8), payload length (UInt32 LE), key (UInt64 LE), payload    13 + length
///   kind 1 chunk:  key = chunk identifier, payload = the sealed chunk
///   kind 2 record: key = revision number,  payload = the sealed revision record
///   kind 3 commit: key = offset of the transaction's first frame, payload (24 bytes) =
///                  commit magic (8 bytes: 89 'C' 'O' 'M' 'M' 'I' 'T' 0A),
///                  XXH3-64 of the transaction's frames before this one, seeded with their
///                  offset (UInt64 LE),
///                  XXH3-64 of this frame's first 29 bytes, seeded with its own offset
///                  (UInt64 LE)
/// ```
///
/// Chunks and records are the very bytes the other engines store (RecordFormat.md), with
/// their own checksums: the file adds framing and the commit frames only. A transaction holds
/// an append's chunks (ascending identifiers, each after every stored one) and records (the
/// revisions after the latest stored one, in order), then its commit frame; nothing is ever
/// rewritten in place.
///
/// A transaction counts once its commit frame is whole and both its checksums hold: a write
/// cut short (a killed process, a power loss before the bytes reached the disk) leaves a tail
/// without one, which readers ignore and the next writer cuts away. The commit magic and the
/// commit frame's checksum of itself, seeded with its offset, let the opening scan tell a torn
/// tail from damage before it: a transaction that fails while a whole, valid one follows it
/// is damage, and the log is refused.
enum FileLogLayout {
    /// The file's magic bytes.
    static let magic: [UInt8] = [0x89, 0x43, 0x48, 0x4C, 0x4F, 0x47, 0x0D, 0x0A]
    /// The layout version this library writes and reads.
    static let version: UInt32 = 1
    /// The header's size in bytes.
    static let headerSize = 16
    /// A frame header's size: kind, length, key.
    static let frameHeaderSize = 13
    /// The commit frame's magic, at the start of its payload.
    static let commitMagic: [UInt8] = [0x89, 0x43, 0x4F, 0x4D, 0x4D, 0x49, 0x54, 0x0A]
    /// The commit frame's payload length: magic and two checksums.
    static let commitPayloadSize = 24
    /// The commit frame's size.
    static let commitFrameSize = frameHeaderSize + commitPayloadSize
    /// The largest payload a frame holds (its length field's range).
    static let maxPayload = Int(UInt32.max)

    /// A frame's kind.
    enum Kind: UInt8 {
        case chunk = 1
        case record = 2
        case commit = 3
    }

    /// The file's header.
    static var header: [UInt8] {
        var bytes = magic
        append(version, to: &bytes)
        let checksum = bytes.withUnsafeBytes { XXH3_64bits_withSeed($0.baseAddress, $0.count, 0) }
        append(UInt32(truncatingIfNeeded: checksum), to: &bytes)
        return bytes
    }

    /// What the first bytes of a file say about it.
    enum HeaderCheck: Equatable {
        /// A log file of this layout.
        case valid
        /// Fewer than ``headerSize`` bytes, all a prefix of a header (a creation cut short).
        case incomplete
        /// Another layout version of a log file.
        case otherVersion(UInt32)
        /// Not a log file, or a damaged header.
        case notALog
    }

    /// Checks the first bytes of a file, `bytes`.
    static func check(header bytes: [UInt8]) -> HeaderCheck {
        let expected = header
        if bytes.count < headerSize {
            return Array(expected.prefix(bytes.count)) == bytes ? .incomplete : .notALog
        }
        guard Array(bytes.prefix(magic.count)) == magic else { return .notALog }
        let checksum = bytes.withUnsafeBytes { XXH3_64bits_withSeed($0.baseAddress, 12, 0) }
        guard UInt32(truncatingIfNeeded: checksum) == readUInt32(bytes, at: 12) else { return .notALog }
        let version = readUInt32(bytes, at: 8)
        return version == self.version ? .valid : .otherVersion(version)
    }

    /// Appends a frame header to `bytes`.
    static func appendFrameHeader(kind: Kind, length: Int, key: UInt64, to bytes: inout [UInt8]) {
        bytes.append(kind.rawValue)
        append(UInt32(length), to: &bytes)
        append(key, to: &bytes)
    }

    /// Appends the commit frame of the transaction whose frames are `frames`, starting at file
    /// offset `start`, to `frames`.
    static func appendCommitFrame(to frames: inout [UInt8], start: UInt64) {
        let rangeChecksum = frames.withUnsafeBytes { XXH3_64bits_withSeed($0.baseAddress, $0.count, start) }
        let offset = frames.count
        appendFrameHeader(kind: .commit, length: commitPayloadSize, key: start, to: &frames)
        frames += commitMagic
        append(rangeChecksum, to: &frames)
        let selfChecksum = frames.withUnsafeBytes { buffer in
            XXH3_64bits_withSeed(buffer.baseAddress! + offset, commitFrameSize - 8, start + UInt64(offset))
        }
        append(selfChecksum, to: &frames)
    }

    /// The checksum a commit frame at file offset `offset`, `frame` (``commitFrameSize`` bytes),
    /// holds of itself.
    static func selfChecksum(ofCommitFrame frame: UnsafeRawBufferPointer, at offset: UInt64) -> UInt64 {
        XXH3_64bits_withSeed(frame.baseAddress, commitFrameSize - 8, offset)
    }

    /// Appends `value` little-endian.
    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// The little-endian `UInt32` at `offset` of `bytes`.
    static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { readUInt32($0, at: offset) }
    }

    /// The little-endian `UInt32` at `offset` of `bytes`.
    static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The little-endian `UInt64` at `offset` of `bytes`.
    static func readUInt64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
