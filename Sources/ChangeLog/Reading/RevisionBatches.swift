/// Consecutive revisions read in batches, each batch in its own short read transaction: the
/// reading behind ``RevisionRecords`` (full records) and ``RevisionChangesSequence`` (changes
/// alone), which differ only in their ``RevisionDecoding``.
struct RevisionBatches<Decoding: RevisionDecoding> {
    private let log: ChangeLog
    private var nextRevision: UInt64
    private let end: UInt64?
    private let batchSize: Int
    private var buffer: [Decoding.Element] = []
    private var bufferIndex = 0
    private var decoding: Decoding
    private var finished = false
    /// The error of the revision after the buffered ones, thrown once they are taken.
    private var failure: ChangeLogError?

    /// Reads from `next` to `end`, or to the latest revision when `end` is `nil`.
    init(log: ChangeLog, next: UInt64, end: UInt64?, batchSize: Int, decoding: Decoding) {
        self.log = log
        self.nextRevision = next
        self.end = end
        self.batchSize = Swift.max(1, batchSize)
        self.decoding = decoding
        self.finished = end.map { $0 < next } ?? false
    }

    /// The next element, reading the next batch when the current one is used up; `nil` after
    /// the last.
    ///
    /// - Throws: ``ChangeLogError`` naming the revision that is missing or damaged, after every
    ///   element before it.
    mutating func next() throws(ChangeLogError) -> Decoding.Element? {
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

    /// The next element, as ``next()``; when that reads a batch from the log, the read runs on
    /// the engine's read threads (``ChangeLog/reading(isolation:_:)``), so an async caller never
    /// holds a cooperative thread while it waits.
    mutating func next(isolation actor: isolated (any Actor)?) async throws(ChangeLogError) -> Decoding.Element? {
        guard bufferIndex == buffer.count, failure == nil, !finished,
            let executor = log.store.storage.readExecutor
        else { return try next() }
        return try await withTaskExecutorPreference(executor, isolation: actor) { () throws(ChangeLogError) in
            try next()
        }
    }

    private mutating func readBatch() throws(ChangeLogError) {
        let requested = nextRevision
        let store = log.store
        let isOpenEnded = end == nil
        let batchSize = UInt64(batchSize)
        let end = end
        var decoding = self.decoding
        // A revision that cannot be read ends the batch; the ones before it are still
        // handed out, then its error is thrown.
        let (first, last, elements, unreadable) = try store.read(during: "reading") {
            transaction -> (UInt64, UInt64, [Decoding.Element], (any Error)?) in
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
            let (elements, failure) = store.elements(first...upper, decoding: &decoding, in: transaction)
            return (first, last, elements, failure)
        }
        self.decoding = decoding
        buffer = elements
        bufferIndex = 0
        if let lastRead = elements.last.map(Decoding.revision(of:)) {
            if lastRead == .max {
                finished = true
            } else {
                nextRevision = lastRead + 1
            }
        }
        if let unreadable {
            failure = ChangeLogError.wrapping(unreadable, path: store.path, during: "reading")
            finished = true
        } else if isOpenEnded ? elements.count < Int(last - first) + 1 : last == end {
            finished = true
        }
    }
}
