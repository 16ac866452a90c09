import ChangeLog

/// The layout of a log file: a header, then frames, each write transaction's frames ended by a
/// commit frame that makes them all count or none.
///
/// ```
/// header   magic (8 bytes: 89 'C' 'H' 'L' 'O' 'G' 0D 0A), layout version (UInt32 LE, 2),
///          XXH3-64 of those 12 bytes, seed 0, low 32 bits (UInt32 LE)             16 bytes
/// frame    kind (UInt8), payload length (UInt32 LE), key (UInt64 LE), payload    13 + length
///   kind 1 chunk:  key = chunk identifier, payload = the sealed chunk (at least 9 bytes)
///   kind 2 record: key = revision number,  payload = the sealed revision record (at least 9)
///   kind 3 commit, kind 4 ordered commit:
///                  key = offset of the transaction's first frame, payload (24 bytes) =
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
/// rewritten in place. A sealed chunk or record is at least its kind byte and its 8-byte
/// checksum: a shorter payload is no frame a writer wrote, which also bounds what an opening
/// scan holds per byte of file.
///
/// A transaction counts once its commit frame is whole and both its checksums hold: a write
/// cut short (a killed process, a power loss before the bytes reached the disk) leaves a tail
/// without one, which readers ignore and the next writer cuts away.
///
/// The two commit kinds say what reached the disk first:
/// - An ordered commit (kind 4) is written only once everything before it in the file was
///   synced: the durable modes write and sync a transaction's frames, then write and sync its
///   commit frame (``ChangeLog/Durability/noSync`` writes one on ``FileLogStorage/flush()``, a
///   transaction of no frames). So a whole, self-valid ordered commit frame anywhere after a
///   failing transaction proves the failing bytes were once on disk whole: that is damage
///   (a bit flip, an overwrite), and the log is refused, never cut.
/// - A commit (kind 3) is written with its frames in one write, nothing synced
///   (``ChangeLog/Durability/noSync``). After a power loss the disk may hold a later
///   transaction and not an earlier one, so a failing transaction followed only by commits of
///   this kind is a tail: the log after the last flush is cut, not refused.
///
/// Damage inside the last commit frame itself cannot be told from a commit frame cut short,
/// so it is cut as a tail (the transaction was the last one, and its revisions go with it).
///
/// Version 1 files (commits of kind 3 only) are read as they are; a writer opening one turns
/// its header into version 2's before it appends, since version 1 readers do not know kind 4.
enum FileLogLayout {
    /// The file's magic bytes.
    static let magic: [UInt8] = [0x89, 0x43, 0x48, 0x4C, 0x4F, 0x47, 0x0D, 0x0A]
    /// The layout version this library writes.
    static let version: UInt32 = 2
    /// The layout versions this library reads: version 1 lacks ordered commits only.
    static let readableVersions: ClosedRange<UInt32> = 1...2
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
    /// The smallest payload of a chunk or record frame: a sealed value's kind byte and checksum.
    static let minimumSealedPayload = 9
    /// The largest payload a frame holds (its length field's range).
    static let maxPayload = Int(UInt32.max)

    /// A frame's kind.
    enum Kind: UInt8 {
        case chunk = 1
        case record = 2
        case commit = 3
        case orderedCommit = 4

        /// Whether this kind ends a transaction.
        var isCommit: Bool { self == .commit || self == .orderedCommit }
    }

    /// The file's header, of layout `version`.
    static func header(version: UInt32 = version) -> [UInt8] {
        var bytes = magic
        append(version, to: &bytes)
        let checksum = bytes.withUnsafeBytes { XXH3.hash64($0, seed: 0) }
        append(UInt32(truncatingIfNeeded: checksum), to: &bytes)
        return bytes
    }

    /// What the first bytes of a file say about it.
    enum HeaderCheck: Equatable {
        /// A log file of a layout this library reads, of `version`.
        case valid(version: UInt32)
        /// Fewer than ``headerSize`` bytes, all a prefix of a header (a creation cut short).
        case incomplete
        /// Another layout version of a log file.
        case otherVersion(UInt32)
        /// Not a log file, or a damaged header.
        case notALog
    }

    /// Checks the first bytes of a file, `bytes`.
    static func check(header bytes: [UInt8]) -> HeaderCheck {
        let expected = header()
        if bytes.count < headerSize {
            return Array(expected.prefix(bytes.count)) == bytes ? .incomplete : .notALog
        }
        guard Array(bytes.prefix(magic.count)) == magic else { return .notALog }
        let checksum = bytes.withUnsafeBytes { XXH3.hash64($0.baseAddress, count: 12, seed: 0) }
        guard UInt32(truncatingIfNeeded: checksum) == readUInt32(bytes, at: 12) else { return .notALog }
        let version = readUInt32(bytes, at: 8)
        return readableVersions.contains(version) ? .valid(version: version) : .otherVersion(version)
    }

    /// Appends a frame header to `bytes`.
    static func appendFrameHeader(kind: Kind, length: Int, key: UInt64, to bytes: inout [UInt8]) {
        bytes.append(kind.rawValue)
        append(UInt32(length), to: &bytes)
        append(key, to: &bytes)
    }

    /// The commit frame of `kind` of the transaction whose frames are `frames` (without a commit
    /// frame), starting at file offset `start`: it goes right after them.
    static func commitFrame(of frames: [UInt8], start: UInt64, kind: Kind) -> [UInt8] {
        precondition(kind.isCommit, "a commit frame of kind \(kind)")
        let rangeChecksum = frames.withUnsafeBytes { XXH3.hash64($0, seed: start) }
        var frame: [UInt8] = []
        frame.reserveCapacity(commitFrameSize)
        appendFrameHeader(kind: kind, length: commitPayloadSize, key: start, to: &frame)
        frame += commitMagic
        append(rangeChecksum, to: &frame)
        let selfChecksum = frame.withUnsafeBytes { buffer in
            XXH3.hash64(buffer.baseAddress!, count: commitFrameSize - 8, seed: start + UInt64(frames.count))
        }
        append(selfChecksum, to: &frame)
        return frame
    }

    /// The checksum a commit frame at file offset `offset`, `frame` (``commitFrameSize`` bytes),
    /// holds of itself.
    static func selfChecksum(ofCommitFrame frame: UnsafeRawBufferPointer, at offset: UInt64) -> UInt64 {
        XXH3.hash64(frame.baseAddress, count: commitFrameSize - 8, seed: offset)
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
