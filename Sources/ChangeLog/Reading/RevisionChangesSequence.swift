/// Consecutive revisions' changes (``RevisionChanges``), read lazily in batches, each batch in
/// its own short read transaction, from the revision records alone: no snapshot chunk is read.
///
/// What needs only the changes (a renderer that holds the list, a revision list, operation
/// counts) reads them here at a fraction of the cost of ``RevisionRecords``, and gets exactly
/// what those records hold apart from the snapshots. Iterate it with
/// `for try await revision in log.changes(in: 1...10)`, or synchronously with
/// ``Iterator/next()``.
public struct RevisionChangesSequence: AsyncSequence, Sendable {
    /// Each element is a revision's changes, with its number, time and annotations.
    public typealias Element = RevisionChanges
    /// Iteration throws ``ChangeLogError`` naming the revision that could not be read.
    public typealias Failure = ChangeLogError

    let log: ChangeLog
    let start: UInt64
    let end: UInt64?
    let batchSize: Int

    /// Creates an iterator that starts at the range's first revision.
    public func makeAsyncIterator() -> Iterator {
        Iterator(log: log, next: start, end: end, batchSize: batchSize)
    }

    /// Reads the revisions, one batch at a time.
    public struct Iterator: AsyncIteratorProtocol {
        private var batches: RevisionBatches<ChangesDecoding>

        init(log: ChangeLog, next: UInt64, end: UInt64?, batchSize: Int) {
            batches = RevisionBatches(
                log: log, next: next, end: end, batchSize: batchSize, decoding: ChangesDecoding())
        }

        /// The next revision's changes, reading the next batch when the current one is used up;
        /// `nil` after the last.
        ///
        /// - Throws: ``ChangeLogError`` naming the revision that is missing or damaged.
        public mutating func next() throws(ChangeLogError) -> RevisionChanges? {
            try batches.next()
        }

        /// The next revision's changes, as ``next()``; a batch is read on the engine's read threads
        /// (``ChangeLog/reading(isolation:_:)``), never holding a cooperative thread while it waits.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ChangeLogError)
            -> RevisionChanges?
        {
            try await batches.next(isolation: actor)
        }
    }
}
