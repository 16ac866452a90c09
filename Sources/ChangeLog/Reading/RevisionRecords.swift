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

    /// Creates an iterator that starts at the range's first revision.
    public func makeAsyncIterator() -> Iterator {
        Iterator(log: log, next: start, end: end, batchSize: Swift.max(1, batchSize))
    }

    /// Reads the revisions, one batch of records at a time.
    public struct Iterator: AsyncIteratorProtocol {
        private let log: ChangeLog
        private var nextRevision: UInt64
        private let end: UInt64?
        private let batchSize: Int
        private var buffer: [RevisionRecord] = []
        private var bufferIndex = 0
        private var loader = SnapshotLoader()
        private var finished = false
        /// The error of the revision after the buffered ones, thrown once they are taken.
        private var failure: ChangeLogError?

        init(log: ChangeLog, next: UInt64, end: UInt64?, batchSize: Int) {
            self.log = log
            self.nextRevision = next
            self.end = end
            self.batchSize = batchSize
            self.finished = end.map { $0 < next } ?? false
        }

        /// The next record, reading the next batch when the current one is used up; `nil` after
        /// the last.
        ///
        /// - Throws: ``ChangeLogError`` naming the revision that is missing or damaged.
        public mutating func next() throws(ChangeLogError) -> RevisionRecord? {
            try advance()
        }

        /// The next record; see ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ChangeLogError)
            -> RevisionRecord?
        {
            try advance()
        }

        private mutating func advance() throws(ChangeLogError) -> RevisionRecord? {
            if bufferIndex == buffer.count {
                if let failure {
                    self.failure = nil
                    throw failure
                }
                guard !finished else { return nil }
                try readBatch()
                if bufferIndex == buffer.count, let failure {
                    self.failure = nil
                    throw failure
                }
                guard bufferIndex < buffer.count else { return nil }
            }
            defer { bufferIndex += 1 }
            return buffer[bufferIndex]
        }

        private mutating func readBatch() throws(ChangeLogError) {
            let requested = nextRevision
            let store = log.store
            let isOpenEnded = end == nil
            let batchSize = UInt64(batchSize)
            let end = end
            var loader = self.loader
            // A revision that cannot be read ends the batch; the ones before it are still
            // handed out, then its error is thrown.
            let (first, last, records, unreadable) = try store.read(during: "reading") {
                transaction -> (UInt64, UInt64, [RevisionRecord], (any Error)?) in
                var first = requested
                if isOpenEnded, requested <= 1 {
                    // 0 and 1 mean the oldest revision stored, as for subscriptions.
                    guard let oldest = try store.first(in: transaction) else { return (first, first, [], nil) }
                    first = Swift.max(first, oldest)
                }
                let (candidate, overflow) = first.addingReportingOverflow(batchSize - 1)
                var last = overflow ? UInt64.max : candidate
                if let end {
                    last = Swift.min(last, end)
                }
                var upper = last
                if isOpenEnded {
                    // An open range ends at the latest revision; a dropped start still throws below.
                    let latest = try store.latest(in: transaction)?.revision ?? 0
                    guard latest >= first else { return (first, last, [], nil) }
                    upper = Swift.min(upper, latest)
                }
                let (records, failure) = store.records(first...upper, loader: &loader, in: transaction)
                return (first, last, records, failure)
            }
            self.loader = loader
            buffer = records
            bufferIndex = 0
            if let lastRead = records.last?.revision {
                if lastRead == .max {
                    finished = true
                } else {
                    nextRevision = lastRead + 1
                }
            }
            if let unreadable {
                failure = ChangeLogError.wrapping(unreadable, path: store.path, during: "reading")
                finished = true
            } else if isOpenEnded ? records.count < Int(last - first) + 1 : last == end {
                finished = true
            }
        }
    }
}
