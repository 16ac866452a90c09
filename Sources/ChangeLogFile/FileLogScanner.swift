import ChangeLog

/// Reads a log file's transactions from where its index ends to where the file ends, adding
/// each committed one to the index, and says what follows the last: nothing, or a tail
/// (torn, garbage, or after a power loss what a ``ChangeLog/Durability/noSync`` writer had not
/// flushed), or damage (an ordered commit frame after a transaction that fails, see
/// ``FileLogLayout``).
///
/// Every length is checked against the file's size before it is followed, every checksum
/// before a frame counts: hostile bytes make the scan stop or report, never read out of
/// bounds. It reads each byte about once (``FileWindow``), and holds one frame description per
/// at least 22 bytes of file (``FileLogLayout/minimumSealedPayload``).
struct FileLogScanner {
    /// What follows the transactions the scan added.
    enum Outcome: Equatable {
        /// Nothing: the file ends where the last committed transaction does.
        case complete
        /// A tail from `start` to the file's end that holds no committed transaction.
        case tail(start: UInt64, length: UInt64)
        /// A transaction at `start` fails (`reason`) while an ordered commit frame follows it,
        /// or a committed transaction does not continue the log.
        case damage(start: UInt64, reason: String)
    }

    /// One transaction's reading.
    private enum Transaction {
        case committed([FileLogFrame], end: UInt64)
        case failed(String)
    }

    let window: FileWindow

    /// Scans from `index.end` to `fileSize`, adding the committed transactions to `index`.
    ///
    /// - Throws: ``FileEngineError`` when reading fails.
    func scan(into index: inout FileLogIndex, fileSize: UInt64) throws -> Outcome {
        while index.end < fileSize {
            let start = index.end
            switch try transaction(at: start, fileSize: fileSize) {
            case .committed(let frames, let end):
                if let wrong = index.add(frames, end: end) {
                    return .damage(start: start, reason: wrong)
                }
            case .failed(let reason):
                if let ordered = try orderedCommitFrame(after: start, fileSize: fileSize) {
                    return .damage(
                        start: start,
                        reason: "the transaction at offset \(start) \(reason), yet it reached the disk whole before "
                            + "the ordered commit frame at offset \(ordered)")
                }
                return .tail(start: start, length: fileSize - start)
            }
        }
        return .complete
    }

    /// Reads the transaction at `start`.
    private func transaction(at start: UInt64, fileSize: UInt64) throws -> Transaction {
        var hasher = XXH3Hasher64(seed: start)
        var frames: [FileLogFrame] = []
        var position = start
        let headerSize = UInt64(FileLogLayout.frameHeaderSize)
        while true {
            guard fileSize - position >= headerSize else { return .failed("ends inside a frame header") }
            let header = try window.withBytes(at: position, count: FileLogLayout.frameHeaderSize) { bytes in
                (
                    kind: bytes[0], length: FileLogLayout.readUInt32(bytes, at: 1),
                    key: FileLogLayout.readUInt64(bytes, at: 5)
                )
            }
            guard let header else { return .failed("ends inside a frame header") }
            guard let kind = FileLogLayout.Kind(rawValue: header.kind) else {
                return .failed("holds a frame of unknown kind \(header.kind) at offset \(position)")
            }
            let length = UInt64(header.length)
            guard fileSize - position - headerSize >= length else {
                return .failed("holds a frame at offset \(position) of \(length) bytes, past the file's end")
            }
            if kind.isCommit {
                guard length == UInt64(FileLogLayout.commitPayloadSize), header.key == start else {
                    return .failed("holds a damaged commit frame at offset \(position)")
                }
                let computed = hasher.digest()
                let valid = try window.withBytes(at: position, count: FileLogLayout.commitFrameSize) { frame in
                    Self.isValidCommitFrame(frame, at: position) && FileLogLayout.readUInt64(frame, at: 21) == computed
                }
                guard valid == true else { return .failed("fails its commit frame's checksum") }
                return .committed(frames, end: position + UInt64(FileLogLayout.commitFrameSize))
            }
            guard length >= UInt64(FileLogLayout.minimumSealedPayload) else {
                return .failed("holds a frame at offset \(position) of \(length) bytes, too short for a sealed value")
            }
            let complete = try window.forEachPiece(at: position, count: headerSize + length) { piece in
                hasher.update(piece)
            }
            guard complete else { return .failed("ends inside a frame") }
            frames.append(
                FileLogFrame(
                    kind: kind, key: header.key, location: .init(offset: position + headerSize, length: Int(length))))
            position += headerSize + length
        }
    }

    /// Whether `frame`, the ``FileLogLayout/commitFrameSize`` bytes at `offset`, is a whole
    /// commit frame of either kind: its kind, length, magic and its checksum of itself.
    static func isValidCommitFrame(_ frame: UnsafeRawBufferPointer, at offset: UInt64) -> Bool {
        guard FileLogLayout.Kind(rawValue: frame[0])?.isCommit == true,
            FileLogLayout.readUInt32(frame, at: 1) == UInt32(FileLogLayout.commitPayloadSize),
            frame[13..<21].elementsEqual(FileLogLayout.commitMagic)
        else { return false }
        return FileLogLayout.selfChecksum(ofCommitFrame: frame, at: offset) == FileLogLayout.readUInt64(frame, at: 29)
    }

    /// The offset of a whole, self-valid ordered commit frame at or after `start`, or `nil` when
    /// there is none: whether the failing bytes from `start` on were once synced whole (damage)
    /// or may be a write cut short (a tail).
    ///
    /// It looks for the commit magic window by window and checks each candidate's 37 bytes:
    /// linear in the tail's length.
    private func orderedCommitFrame(after start: UInt64, fileSize: UInt64) throws -> UInt64? {
        let magic = FileLogLayout.commitMagic
        let headerSize = UInt64(FileLogLayout.frameHeaderSize)
        var position = start + headerSize
        let step = UInt64(FileWindow.capacity - (magic.count - 1))
        while position < fileSize, fileSize - position >= UInt64(magic.count) {
            let count = Int(min(UInt64(FileWindow.capacity), fileSize - position))
            let matches = try window.withBytes(at: position, count: count) { bytes -> [UInt64] in
                var found: [UInt64] = []
                var index = 0
                while index + magic.count <= bytes.count {
                    if bytes[index] == magic[0], bytes[index + 1] == magic[1],
                        bytes[index..<index + magic.count].elementsEqual(magic)
                    {
                        found.append(position + UInt64(index))
                    }
                    index += 1
                }
                return found
            }
            for match in matches ?? [] {
                let frameOffset = match - headerSize
                guard fileSize - frameOffset >= UInt64(FileLogLayout.commitFrameSize) else { continue }
                let ordered = try window.withBytes(at: frameOffset, count: FileLogLayout.commitFrameSize) { frame in
                    frame[0] == FileLogLayout.Kind.orderedCommit.rawValue
                        && Self.isValidCommitFrame(frame, at: frameOffset)
                }
                if ordered == true { return frameOffset }
            }
            position += step
        }
        return nil
    }
}
