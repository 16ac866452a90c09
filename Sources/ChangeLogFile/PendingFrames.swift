/// What a write transaction has put so far: its frames' bytes, and where each payload will be
/// once they are appended at ``start``.
final class PendingFrames {
    /// Where the transaction's first frame goes.
    let start: UInt64
    /// The frames, without their commit frame.
    var bytes: [UInt8] = []
    /// The frames' kinds, keys and (file) locations.
    var frames: [FileLogFrame] = []
    /// The records put, by revision: their location in ``bytes``.
    var records: [UInt64: Range<Int>] = [:]
    /// The chunks put, by identifier: their location in ``bytes``.
    var chunks: [UInt64: Range<Int>] = [:]
    /// The latest revision, this transaction's included.
    var latestRevision: UInt64?
    /// The largest chunk identifier, this transaction's included.
    var largestChunk: UInt64?
    /// The oldest revision this transaction keeps, when it deleted the records before it.
    var keptFrom: UInt64?
    /// The chunks this transaction deleted.
    var deletedChunks: Set<UInt64> = []

    /// Whether this transaction deleted records or chunks: it commits by compacting.
    var deletes: Bool {
        keptFrom != nil || !deletedChunks.isEmpty
    }

    init(start: UInt64, snapshot: FileLogIndex.Snapshot) {
        self.start = start
        latestRevision = snapshot.latestRevision
        largestChunk = snapshot.largestChunk
    }

    /// Adds a frame of `kind` and `key` holding `payload`; returns where its payload is in ``bytes``.
    func add(_ kind: FileLogLayout.Kind, key: UInt64, payload: [UInt8]) -> Range<Int> {
        FileLogLayout.appendFrameHeader(kind: kind, length: payload.count, key: key, to: &bytes)
        let range = bytes.count..<bytes.count + payload.count
        bytes += payload
        frames.append(
            FileLogFrame(
                kind: kind, key: key, location: .init(offset: start + UInt64(range.lowerBound), length: payload.count)))
        return range
    }
}
