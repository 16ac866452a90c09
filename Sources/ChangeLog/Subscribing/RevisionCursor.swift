/// A position in a log and the reading from it: the revisions from ``next`` on, in short read
/// transactions of at most ``batchSize`` revisions each, decoded by one ``RevisionDecoding``:
/// full records (``RecordCursor``), whose one ``SnapshotLoader`` decodes the sections unchanged
/// since the previous revision once, or the changes alone (``ChangesCursor``), which read no
/// snapshot chunk.
///
/// Both readers of live revisions use it: the ``LiveFeed``'s task, and a ``LogSubscription``
/// while it catches up. It reads on whatever thread calls ``read(upTo:)``; its callers make
/// sure that is never a subscriber's actor (<doc:SubscriptionThreads> says where each one runs).
struct RevisionCursor<Decoding: RevisionDecoding>: Sendable {
    /// What one read returned.
    struct Batch: Sendable {
        /// The revisions read, consecutive from the cursor's position.
        var records: [Decoding.Element]
        /// The error of the revision after `records`, when it could not be read (never set
        /// with `records` empty: then the read throws).
        var failure: ChangeLogError?
        /// The latest revision stored when the read's transaction began (0 for an empty log).
        var latest: UInt64
    }

    let store: LogStore
    /// The most revisions one read returns.
    let batchSize: Int
    /// The next revision to read.
    private(set) var next: UInt64
    /// Whether a ``next`` of 0 or 1 stands for the oldest revision stored (until a read
    /// returned records).
    private var startsAtOldest: Bool
    /// Set once a read returned revision `UInt64.max`, after which nothing can follow.
    private(set) var isExhausted = false
    private var decoding: Decoding

    /// A cursor at `next`; when `startsAtOldest` (by default, when `next` is 0 or 1), the first
    /// read starts at the oldest revision stored.
    init(store: LogStore, next: UInt64, batchSize: Int, startsAtOldest: Bool? = nil, decoding: Decoding) {
        self.store = store
        self.decoding = decoding
        self.next = Swift.max(next, 1)
        self.startsAtOldest = startsAtOldest ?? (next <= 1)
        self.batchSize = Swift.max(1, batchSize)
    }

    /// Moves the cursor to `revision`, a position found by other means (the oldest revision
    /// stored, read when a subscription starts).
    mutating func move(to revision: UInt64) {
        startsAtOldest = false
        next = Swift.max(revision, 1)
    }

    /// Moves the cursor past `revision`, delivered by other means (the live feed).
    mutating func skip(past revision: UInt64) {
        startsAtOldest = false
        guard revision < .max else {
            isExhausted = true
            return
        }
        next = revision + 1
    }

    /// Reads the records from the cursor on, at most ``batchSize`` of them and none after `end`
    /// (or after the latest stored revision when `end` is `nil`), in one read transaction, and
    /// moves the cursor past them.
    ///
    /// - Throws: ``ChangeLogError`` when the cursor's revision itself cannot be read (notably
    ///   ``ChangeLogError/Code/revisionDropped``); when a later one of the batch cannot, the
    ///   ones before it are returned with its error in ``Batch/failure``.
    mutating func read(upTo end: UInt64?) throws(ChangeLogError) -> Batch {
        guard !isExhausted else {
            return Batch(records: [], failure: nil, latest: .max)
        }
        let store = store
        let requested = next
        let startsAtOldest = startsAtOldest
        let batchSize = UInt64(batchSize)
        var decoding = self.decoding
        ReadingProbe.recordRead()
        let (records, unreadable, latest) = try store.read(during: "reading") {
            transaction -> (records: [Decoding.Element], failure: (any Error)?, latest: UInt64) in
            let latest = try store.latest(in: transaction)?.revision ?? 0
            var first = requested
            if startsAtOldest {
                first = Swift.max(first, try store.first(in: transaction) ?? 1)
            }
            let (candidate, overflow) = first.addingReportingOverflow(batchSize - 1)
            let last = Swift.min(overflow ? .max : candidate, end ?? .max, latest)
            guard last >= first else { return ([], nil, latest) }
            let (records, failure) = store.elements(first...last, decoding: &decoding, in: transaction)
            return (records, failure, latest)
        }
        self.decoding = decoding
        var failure: ChangeLogError?
        if let unreadable {
            let error = ChangeLogError.wrapping(unreadable, path: store.path, during: "reading")
            // With nothing to deliver first, fail now: a live reader would otherwise wait for
            // the next commit before saying so.
            guard !records.isEmpty else { throw error }
            failure = error
        }
        if let last = records.last.map(Decoding.revision(of:)) {
            skip(past: last)
        }
        return Batch(records: records, failure: failure, latest: latest)
    }
}

/// A cursor that reads full records.
typealias RecordCursor = RevisionCursor<RecordDecoding>

/// A cursor that reads the changes alone.
typealias ChangesCursor = RevisionCursor<ChangesDecoding>

extension RevisionCursor where Decoding == RecordDecoding {
    /// A cursor of full records at `next` (see ``init(store:next:batchSize:startsAtOldest:decoding:)``).
    init(store: LogStore, next: UInt64, batchSize: Int, startsAtOldest: Bool? = nil) {
        self.init(
            store: store, next: next, batchSize: batchSize, startsAtOldest: startsAtOldest, decoding: RecordDecoding())
    }
}
