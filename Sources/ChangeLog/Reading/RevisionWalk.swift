import ListAdapter

/// Consecutive revisions of a log read for verification and replay: the range resolved against
/// the log, the revision before it, and the records one at a time, read in batches of short
/// read transactions.
///
/// Unlike ``RevisionRecords``, a walk tells a damaged record apart from other failures: a record
/// or chunk that fails its checksum or does not decode is returned as a failure naming its
/// revision, after every good record before it, and ends the walk. Other failures (LMDB, a
/// revision dropped by a concurrent retention) are thrown.
struct RevisionWalk {
    /// What comes before the range's first revision.
    enum Base: Equatable {
        /// The range starts at revision 1: the empty snapshot comes before it.
        case empty
        /// The revision before the range is still stored.
        case stored(UInt64)
        /// The revision before the range was dropped by retention.
        case dropped
    }

    /// The most revisions read in one transaction.
    static let maximumBatchCount = 32
    /// The most items of the snapshots read in one transaction (a batch holds at least one revision).
    static let maximumBatchItems = 200_000

    /// The revisions walked.
    let range: ClosedRange<UInt64>
    /// What comes before ``range``.
    let base: Base
    private let store: LogStore
    private var nextRevision: UInt64
    private var loader = SnapshotLoader()
    private var buffer: [RevisionRecord] = []
    private var bufferIndex = 0
    private var damage: ChangeLogError?
    private var isFinished = false

    /// Resolves `range` against the log as it is now: `nil` means every revision it holds.
    ///
    /// - Returns: `nil` when `range` is `nil` and the log is empty.
    /// - Throws: ``ChangeLogError``: ``ChangeLogError/Code/invalidArgument`` for a range that
    ///   starts at 0, ``ChangeLogError/Code/revisionNotFound`` for one that ends after the latest
    ///   revision, ``ChangeLogError/Code/revisionDropped`` for one that starts before the first
    ///   revision kept, or a storage failure.
    init?(_ range: ClosedRange<UInt64>?, in store: LogStore) throws(ChangeLogError) {
        let (first, latest) = try store.read(during: "reading") { transaction in
            (try store.first(in: transaction) ?? 0, try store.latest(in: transaction)?.revision ?? 0)
        }
        let resolved: ClosedRange<UInt64>
        if let range {
            guard range.lowerBound >= 1 else {
                throw ChangeLogError(
                    code: .invalidArgument,
                    message: "revisions count from 1; the range \(range.lowerBound)...\(range.upperBound) starts at 0",
                    revision: 0, path: store.path)
            }
            guard range.upperBound <= latest else {
                let holds = latest == 0 ? "no revision yet" : "revisions \(first) to \(latest)"
                throw ChangeLogError(
                    code: .revisionNotFound,
                    message: "there is no revision \(range.upperBound); the log at \(store.path) holds \(holds)",
                    revision: range.upperBound, path: store.path)
            }
            guard range.lowerBound >= first else {
                throw ChangeLogError(
                    code: .revisionDropped,
                    message: "revision \(range.lowerBound) was dropped by retention; the log at \(store.path) now "
                        + "holds revisions \(first) to \(latest)",
                    revision: range.lowerBound, path: store.path)
            }
            resolved = range
        } else {
            guard latest > 0 else { return nil }
            resolved = first...latest
        }
        let before = resolved.lowerBound - 1
        self.range = resolved
        self.base = before == 0 ? .empty : before >= first ? .stored(before) : .dropped
        self.store = store
        self.nextRevision = resolved.lowerBound
    }

    /// The snapshot of `revision` (the base), or the damage that makes it unreadable.
    ///
    /// - Throws: ``ChangeLogError`` for a failure that is not damage to the log.
    mutating func snapshot(at revision: UInt64) throws(ChangeLogError) -> Result<LogSnapshot, ChangeLogError> {
        let store = self.store
        var loader = self.loader
        let result = try store.read(during: "reading") { transaction in
            do {
                let body = try store.body(at: revision, in: transaction)
                let stored = try store.snapshot(of: body, revision: revision, loader: &loader, in: transaction)
                return Result<LogSnapshot, ChangeLogError>.success(stored.snapshot)
            } catch {
                guard let damage = Self.damage(in: error, revision: revision, store: store) else { throw error }
                return .failure(damage)
            }
        }
        self.loader = loader
        return result
    }

    /// The next record of the range; the damage that makes the next revision unreadable (the
    /// walk then ends); or `nil` after the range's last revision.
    ///
    /// - Throws: ``ChangeLogError`` for a failure that is not damage to the log.
    mutating func next() throws(ChangeLogError) -> Result<RevisionRecord, ChangeLogError>? {
        if bufferIndex == buffer.count {
            if let damage {
                self.damage = nil
                isFinished = true
                return .failure(damage)
            }
            guard !isFinished else { return nil }
            try readBatch()
            if bufferIndex == buffer.count { return try next() }
        }
        defer { bufferIndex += 1 }
        return .success(buffer[bufferIndex])
    }

    /// Whether the records read so far are used up, so that the next call of ``next()`` reads
    /// from the log: a good moment to let other tasks run.
    var isAtBatchEnd: Bool { bufferIndex == buffer.count }

    private mutating func readBatch() throws(ChangeLogError) {
        let store = self.store
        let first = nextRevision
        let last = range.upperBound
        var loader = self.loader
        let (records, damage): ([RevisionRecord], ChangeLogError?) = try store.read(during: "reading") { transaction in
            var records: [RevisionRecord] = []
            var items = 0
            var revision = first
            while records.count < Self.maximumBatchCount, items < Self.maximumBatchItems {
                do {
                    let record = try store.record(at: revision, loader: &loader, in: transaction)
                    records.append(record)
                    items += record.snapshot.itemCount
                } catch {
                    guard let damage = Self.damage(in: error, revision: revision, store: store) else { throw error }
                    return (records, damage)
                }
                guard revision < last else { break }
                revision += 1
            }
            return (records, nil)
        }
        self.loader = loader
        buffer = records
        bufferIndex = 0
        self.damage = damage
        if damage == nil, let lastRead = records.last?.revision, lastRead < last {
            nextRevision = lastRead + 1
        } else {
            isFinished = true
        }
    }

    /// `error` as damage to the log naming `revision`, or `nil` when it is another kind of
    /// failure: a record or chunk that fails its checksum, does not decode or has an unknown
    /// version, and LMDB's own corruption codes (``LogStore/damage(reportedBy:reading:)``).
    private static func damage(in error: any Error, revision: UInt64, store: LogStore) -> ChangeLogError? {
        if let error = error as? ChangeLogError {
            switch error.code {
            case .checksumMismatch, .malformedRecord, .unsupportedFormat: return error
            default: return nil
            }
        }
        return store.damage(reportedBy: error, reading: revision)
    }
}
