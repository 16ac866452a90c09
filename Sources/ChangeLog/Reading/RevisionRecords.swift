import ListAdapter

/// Consecutive revisions of a ``ChangeLog``, read lazily in batches, each batch in its own short
/// read transaction.
///
/// Iterate it with `for try await record in log.records(in: 1...10)`, or synchronously with
/// ``Iterator/next()``:
///
/// ```swift
/// var iterator = log.records(from: 1).makeAsyncIterator()
/// while let record = try iterator.next() { ... }
/// ```
///
/// Consecutive snapshots share their unchanged sections, which are decoded once.
public struct RevisionRecords: AsyncSequence, Sendable {
    /// Each element is a revision's full record.
    public typealias Element = RevisionRecord
    /// Iteration throws ``ChangeLogError`` naming the revision that could not be read.
    public typealias Failure = ChangeLogError

    let log: ChangeLog
    let start: UInt64
    let end: UInt64?
    let batchSize: Int
    /// Whether the reads keep the work done on one snapshot for the next (``SnapshotLoader``);
    /// `false` only for the benchmarks' baseline.
    var keepsWork = true

    /// Creates an iterator that starts at the range's first revision.
    public func makeAsyncIterator() -> Iterator {
        Iterator(log: log, next: start, end: end, batchSize: batchSize, keepsWork: keepsWork)
    }

    /// Reads the revisions, one batch of records at a time.
    public struct Iterator: AsyncIteratorProtocol {
        private var batches: RevisionBatches<RecordDecoding>

        init(log: ChangeLog, next: UInt64, end: UInt64?, batchSize: Int, keepsWork: Bool) {
            batches = RevisionBatches(
                log: log, next: next, end: end, batchSize: batchSize,
                decoding: RecordDecoding(loader: SnapshotLoader(keepsWork: keepsWork)))
        }

        /// The next record, reading the next batch when the current one is used up; `nil` after
        /// the last.
        ///
        /// - Throws: ``ChangeLogError`` naming the revision that is missing or damaged.
        public mutating func next() throws(ChangeLogError) -> RevisionRecord? {
            try batches.next()
        }

        /// The next record, as ``next()``; a batch is read on the engine's read threads
        /// (``ChangeLog/reading(isolation:_:)``), never holding a cooperative thread while it waits.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ChangeLogError)
            -> RevisionRecord?
        {
            try await batches.next(isolation: actor)
        }
    }
}
