/// The revisions of a ``ChangeLog`` from a starting revision on: first the ones already stored
/// (the backlog), then a ``Event/caughtUp(latest:)`` marker, then live ones as they are
/// appended, by this process or any other. Created by ``ChangeLog/subscribe(from:batchSize:)``.
///
/// ```swift
/// for try await event in log.subscribe(from: 1) {
///     switch event {
///     case .revision(let record): render(record.changes)
///     case .caughtUp(let latest): print("live after revision \(latest)")
///     }
/// }
/// ```
///
/// ## Guarantees
///
/// - Every revision from the start is delivered exactly once and in order: no gap and no
///   duplicate, also when appends race with the catch-up, and across processes.
/// - Only committed revisions are delivered, each read from the log with its checksums checked.
///   In a relaxed ``ChangeLog/Durability`` mode a revision delivered may still be lost by a
///   system crash (not by a process crash); in the default mode it is on disk.
/// - Live revisions are read and decoded once per ``ChangeLog`` instance, however many
///   subscriptions follow it: they share the log's live feed, which reads on a task of its own,
///   never on a subscriber's actor (<doc:SubscriptionThreads> says where each step runs). The backlog
///   is read by each subscription, also off its actor.
/// - A slow subscriber never blocks writers or the other subscribers, and holds no more than
///   one batch of records: the feed queues at most `batchSize` revisions for it, and when it
///   falls further behind, it leaves the feed and reads the log itself, in short read
///   transactions of at most `batchSize` revisions, keeping no transaction open between
///   batches or while it waits, then joins the feed again. It still receives every revision,
///   once and in order. Notifications of new revisions coalesce into one number.
/// - Live revisions appended through the same ``ChangeLog`` instance arrive as soon as their
///   transaction committed; others are noticed through file events (inotify on Linux) or, at
///   the latest, by the next poll (``ChangeLog/Options/subscriptionPollInterval``).
///
/// The sequence never finishes by itself. It ends when the iterating task is cancelled or the
/// iterator is dropped (for example by `break`), which frees its resources; it throws
/// ``ChangeLogError`` when a revision cannot be read, notably
/// ``ChangeLogError/Code/revisionDropped`` when the start, or the next revision to deliver,
/// was removed by retention. (A copy of an iterator shares its subscription and ends with it:
/// see ``Iterator``.)
///
/// Each iterator is a subscription of its own: iterating the same `LogSubscription` twice
/// delivers the revisions twice.
public struct LogSubscription: AsyncSequence, Sendable {
    /// What a subscription delivers.
    public enum Event: Hashable, Sendable {
        /// The next revision's full record.
        case revision(RevisionRecord)
        /// Sent once, after the backlog: every revision stored when iteration began (up to
        /// `latest`, 0 for an empty log) from the starting revision on has been delivered, and
        /// what follows is live. Sent first when nothing is stored from the starting revision.
        case caughtUp(latest: UInt64)
    }

    /// Each element is an ``Event``.
    public typealias Element = Event
    /// Iteration throws ``ChangeLogError``.
    public typealias Failure = ChangeLogError

    /// The log subscribed to.
    public let log: ChangeLog
    /// The revision asked for: 0 or 1 mean the oldest revision stored.
    public let startRevision: UInt64
    /// The largest number of revisions read in one read transaction.
    public let batchSize: Int

    init(log: ChangeLog, startRevision: UInt64, batchSize: Int) {
        self.log = log
        self.startRevision = startRevision
        self.batchSize = Swift.max(1, batchSize)
    }

    /// Creates an iterator: a new subscription, which starts when ``Iterator/next()`` is first
    /// called.
    public func makeAsyncIterator() -> Iterator {
        Iterator(log: log, startRevision: startRevision, batchSize: batchSize)
    }

    /// One subscription: reads the backlog, then follows the log's live feed.
    ///
    /// The iterator owns the subscription: when it is dropped, its listener is unregistered and
    /// it leaves the feed. Copies of an iterator share that one subscription, so iterate only
    /// one of them: once a copy ends (it threw, or returned `nil` after its task was
    /// cancelled), every copy waiting for a live revision ends too, with `nil`.
    public struct Iterator: AsyncIteratorProtocol {
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
        private let startRevision: UInt64
        private let batchSize: Int
        private var phase = Phase.starting
        /// The subscription's position: the next revision to deliver.
        private var cursor: RecordCursor
        private var buffer: [RevisionRecord] = []
        private var bufferIndex = 0
        private var listener: CommitListener?
        /// The error of the revision after the buffered ones, thrown once they are delivered.
        private var failure: ChangeLogError?

        init(log: ChangeLog, startRevision: UInt64, batchSize: Int) {
            self.log = log
            self.startRevision = startRevision
            self.batchSize = batchSize
            cursor = RecordCursor(store: log.store, next: startRevision, batchSize: batchSize)
        }

        /// The next event: a revision, or the caught-up marker; waits while no newer revision
        /// is stored. Returns `nil` once the task is cancelled.
        ///
        /// Records are read and decoded off the caller's actor (<doc:SubscriptionThreads>): a
        /// subscriber on the main actor only receives them.
        ///
        /// - Throws: ``ChangeLogError`` naming the revision that could not be read; the
        ///   subscription ends with it.
        /// - Complexity: amortized O(*n*) per revision, where *n* is the number of items of its
        ///   snapshot (sections unchanged since the previous revision are decoded once); a live
        ///   revision is read and decoded once for all the subscriptions of the log instance.
        public mutating func next() async throws(ChangeLogError) -> Event? {
            try await next(isolation: nil)
        }

        /// The next event; see ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ChangeLogError) -> Event? {
            do {
                return try await advance(isolation: actor)
            } catch {
                finish()
                throw error
            }
        }

        private mutating func advance(isolation actor: isolated (any Actor)?) async throws(ChangeLogError) -> Event? {
            while true {
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
            }
        }

        /// Registers the listener (so that the log's watcher runs from the subscription's
        /// start), then measures the backlog. A start dropped by retention is an error.
        private mutating func start(isolation actor: isolated (any Actor)?) async throws(ChangeLogError) {
            listener = CommitListener(notifier: log.notifier)
            let (first, latest) = try await Self.measure(log.store, from: startRevision)
            let next = startRevision <= 1 ? first ?? 1 : startRevision
            cursor = RecordCursor(store: log.store, next: next, batchSize: batchSize, startsAtOldest: false)
            phase = .catchingUp(end: latest)
        }

        /// Nothing is stored after the cursor: hands over to the log's live feed, as
        /// ``LiveFeed``'s argument says, under a new member identity. When the feed has
        /// already published revisions after the cursor, stays in ``Phase/reading``, which
        /// reads them next.
        private mutating func join(latestStored: UInt64) {
            let feed = log.feed
            let queue = FeedQueue(capacity: batchSize)
            let id = feed.makeMemberID()
            let member = LiveFeed.Member(
                after: cursor.next - 1, receive: { queue.push($0) }, end: { _ in queue.fallBehind() })
            if case .joined = feed.join(id, member, latestStored: latestStored) {
                phase = .following(Membership(feed: feed, id: id, queue: queue))
            }
        }

        /// Reads the records from the cursor on, at most ``batchSize`` of them and none after
        /// `end` (or after the latest stored revision when `end` is `nil`), in one read
        /// transaction, off the caller's actor; returns the latest revision stored then.
        private mutating func readBatch(upTo end: UInt64?, isolation actor: isolated (any Actor)?)
            async throws(ChangeLogError) -> UInt64
        {
            let (cursor, batch) = try await Self.read(cursor, upTo: end)
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

        /// The oldest and the latest revision stored, read on the cooperative pool.
        @concurrent
        private static func measure(_ store: LogStore, from requested: UInt64) async throws(ChangeLogError) -> (
            first: UInt64?, latest: UInt64
        ) {
            try store.read(during: "subscribing to") { transaction in
                let first = try store.first(in: transaction)
                if let first, requested > 1, requested < first {
                    throw try store.missingRevision(requested, in: transaction)
                }
                return (first, try store.latest(in: transaction)?.revision ?? 0)
            }
        }

        /// Reads one batch from `cursor`, on the cooperative pool rather than the caller's actor.
        @concurrent
        private static func read(_ cursor: RecordCursor, upTo end: UInt64?) async throws(ChangeLogError) -> (
            RecordCursor, RecordCursor.Batch
        ) {
            var cursor = cursor
            let batch = try cursor.read(upTo: end)
            return (cursor, batch)
        }

        /// Ends the subscription, leaves the feed and frees its listener; buffered records,
        /// and the error that was to follow them, are discarded.
        private mutating func finish() {
            if case .following(let membership) = phase {
                // A copy of this iterator waiting on the same membership ends too.
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
}

extension LogSubscription.Iterator {
    /// A membership of the log's live feed, left when its iterator drops it (or ends).
    final class Membership: Sendable {
        let feed: LiveFeed
        let id: LiveFeed.MemberID
        /// Where the feed pushes the revisions.
        let queue: FeedQueue

        init(feed: LiveFeed, id: LiveFeed.MemberID, queue: FeedQueue) {
            self.feed = feed
            self.id = id
            self.queue = queue
        }

        deinit {
            feed.leave(id)
        }
    }
}
