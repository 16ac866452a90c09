/// What a ``RevisionSubscriber`` delivers: a revision decoded as its feed decodes them, or the
/// caught-up marker.
enum SubscriberEvent<Element: Sendable>: Sendable {
    /// The next revision.
    case revision(Element)
    /// Every revision stored when the subscription began has been delivered.
    case caughtUp(latest: UInt64)
}

/// One subscription's reading, whatever it decodes: the backlog from its own cursor, then the
/// log's live feed of the same decoding, and the log again whenever it falls behind the feed.
/// ``LogSubscription`` (full records, the ``RecordFeed``) and ``ChangesSubscription`` (changes
/// alone, the ``ChangesFeed``) are this, with their own event types; their guarantees are this
/// type's.
///
/// A value type owning its subscription's resources through its listener and membership:
/// ``finish()`` frees them, and so does dropping the last copy.
struct RevisionSubscriber<Decoding: RevisionDecoding> where Decoding.Element: LiveFeedElement {
    typealias Element = Decoding.Element

    private enum Phase {
        /// `next()` has not been called yet.
        case starting
        /// Delivering the revisions stored when the subscription started, up to `end`.
        case catchingUp(end: UInt64)
        /// Caught up, not a member of the feed: reading the log from the cursor until it
        /// holds nothing more, then joining the feed.
        case reading
        /// A member of the log's live feed, taking the revisions it pushed.
        case following(Membership)
        /// Cancelled, or failed.
        case finished
    }

    private let log: ChangeLog
    private let feed: LiveFeed<Element>
    private let startRevision: UInt64
    private let batchSize: Int
    private var phase = Phase.starting
    /// The subscription's position: the next revision to deliver.
    private var cursor: RevisionCursor<Decoding>
    private var buffer: [Element] = []
    private var bufferIndex = 0
    private var listener: CommitListener?
    /// The error of the revision after the buffered ones, thrown once they are delivered.
    private var failure: ChangeLogError?
    /// Reads that fail while the engine cannot be reached are tried again.
    private var retry = ReadRetry()

    /// A subscription to `log` from `startRevision`, decoding the backlog by `decoding` and
    /// taking live revisions from `feed`, which must decode them the same way.
    init(log: ChangeLog, feed: LiveFeed<Element>, decoding: Decoding, startRevision: UInt64, batchSize: Int) {
        self.log = log
        self.feed = feed
        self.startRevision = startRevision
        self.batchSize = batchSize
        cursor = RevisionCursor(store: log.store, next: startRevision, batchSize: batchSize, decoding: decoding)
    }

    /// The next event; `nil` once the task is cancelled. Any error ends the subscription, but a
    /// transient failure of the engine, which is retried first (``ReadRetry``).
    mutating func next(isolation actor: isolated (any Actor)?) async throws(ChangeLogError)
        -> SubscriberEvent<Element>?
    {
        do {
            return try await advance(isolation: actor)
        } catch {
            finish()
            throw error
        }
    }

    private mutating func advance(isolation actor: isolated (any Actor)?) async throws(ChangeLogError)
        -> SubscriberEvent<Element>?
    {
        while true {
            do throws(ChangeLogError) {
                if Task.isCancelled {
                    finish()
                }
                if bufferIndex < buffer.count {
                    defer { bufferIndex += 1 }
                    return .revision(buffer[bufferIndex])
                }
                if let failure {
                    self.failure = nil
                    throw failure
                }
                buffer = []
                bufferIndex = 0
                switch phase {
                case .finished:
                    return nil
                case .starting:
                    try await start(isolation: actor)
                case .catchingUp(let end):
                    if cursor.next > end {
                        phase = .reading
                        return .caughtUp(latest: end)
                    }
                    _ = try await readBatch(upTo: end, isolation: actor)
                case .reading:
                    let latest = try await readBatch(upTo: nil, isolation: actor)
                    guard buffer.isEmpty, failure == nil, case .reading = phase else { continue }
                    join(latestStored: latest)
                case .following(let membership):
                    switch await membership.queue.take() {
                    case .record(let record):
                        cursor.skip(past: record.revision)
                        return .revision(record)
                    case .fellBehind:
                        // Leaves the feed (the membership is released), and reads the log from
                        // the cursor until it can join again.
                        phase = .reading
                    case .cancelled:
                        finish()
                        return nil
                    }
                }
            } catch {
                // A read that failed changed nothing but `failure`: the loop reads again.
                if await retry.shouldRetry(after: error) { continue }
                if Task.isCancelled {
                    finish()
                    return nil
                }
                throw error
            }
        }
    }

    /// Registers the listener (so that the log's watcher runs from the subscription's
    /// start), then measures the backlog. A start dropped by retention is an error.
    private mutating func start(isolation actor: isolated (any Actor)?) async throws(ChangeLogError) {
        if listener == nil { listener = CommitListener(notifier: log.notifier) }
        let (first, latest) = try await Self.measure(log.store, from: startRevision)
        retry.succeeded()
        let next = startRevision <= 1 ? first ?? 1 : startRevision
        cursor.move(to: next)
        phase = .catchingUp(end: latest)
    }

    /// Nothing is stored after the cursor: hands over to the log's live feed, as
    /// ``LiveFeed``'s argument says, under a new member identity. When the feed has
    /// already published revisions after the cursor, stays in ``Phase/reading``, which
    /// reads them next.
    private mutating func join(latestStored: UInt64) {
        let feed = feed
        let queue = FeedQueue<Element>(capacity: batchSize)
        let id = feed.makeMemberID()
        let member = LiveFeed<Element>.Member(
            after: cursor.next - 1, receive: { queue.push($0) }, end: { _ in queue.fallBehind() })
        if case .joined = feed.join(id, member, latestStored: latestStored) {
            phase = .following(Membership(feed: feed, id: id, queue: queue))
        }
    }

    /// Reads the revisions from the cursor on, at most ``batchSize`` of them and none after
    /// `end` (or after the latest stored revision when `end` is `nil`), in one read
    /// transaction, off the caller's actor; returns the latest revision stored then.
    private mutating func readBatch(upTo end: UInt64?, isolation actor: isolated (any Actor)?)
        async throws(ChangeLogError) -> UInt64
    {
        let (cursor, batch) = try await Self.read(cursor, upTo: end)
        if batch.failure == nil { retry.succeeded() }
        self.cursor = cursor
        buffer = batch.records
        bufferIndex = 0
        failure = batch.failure
        if cursor.isExhausted {
            // UInt64.max revisions cannot happen in practice; end rather than wrap.
            phase = .finished
        }
        return batch.latest
    }

    /// The oldest and the latest revision stored, read on the cooperative pool (or on the
    /// engine's own threads, ``LogStorage/readExecutor``).
    @concurrent
    private static func measure(_ store: LogStore, from requested: UInt64) async throws(ChangeLogError) -> (
        first: UInt64?, latest: UInt64
    ) {
        try await withTaskExecutorPreference(store.storage.readExecutor) { () throws(ChangeLogError) in
            try store.read(during: "subscribing to") { transaction in
                let first = try store.first(in: transaction)
                if let first, requested > 1, requested < first {
                    throw try store.missingRevision(requested, in: transaction)
                }
                return (first, try store.latest(in: transaction)?.revision ?? 0)
            }
        }
    }

    /// Reads one batch from `cursor`, on the cooperative pool rather than the caller's actor (or
    /// on the engine's own threads, ``LogStorage/readExecutor``).
    @concurrent
    private static func read(_ cursor: RevisionCursor<Decoding>, upTo end: UInt64?) async throws(ChangeLogError)
        -> (RevisionCursor<Decoding>, RevisionCursor<Decoding>.Batch)
    {
        try await withTaskExecutorPreference(cursor.store.storage.readExecutor) { () throws(ChangeLogError) in
            var cursor = cursor
            let batch = try cursor.read(upTo: end)
            return (cursor, batch)
        }
    }

    /// Ends the subscription, leaves the feed and frees its listener; buffered revisions,
    /// and the error that was to follow them, are discarded.
    mutating func finish() {
        if case .following(let membership) = phase {
            // A copy of this subscriber waiting on the same membership ends too.
            membership.queue.cancel()
            membership.feed.leave(membership.id)
        }
        phase = .finished
        buffer = []
        bufferIndex = 0
        failure = nil
        listener?.unregister()
        listener = nil
    }
}

extension RevisionSubscriber {
    /// A membership of the log's live feed, left when its subscriber drops it (or ends).
    final class Membership: Sendable {
        let feed: LiveFeed<Element>
        let id: LiveFeed<Element>.MemberID
        /// Where the feed pushes the revisions.
        let queue: FeedQueue<Element>

        init(feed: LiveFeed<Element>, id: LiveFeed<Element>.MemberID, queue: FeedQueue<Element>) {
            self.feed = feed
            self.id = id
            self.queue = queue
        }

        deinit {
            feed.leave(id)
        }
    }
}
