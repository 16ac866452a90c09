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
        private var subscriber: RevisionSubscriber<RecordDecoding>

        init(log: ChangeLog, startRevision: UInt64, batchSize: Int) {
            subscriber = RevisionSubscriber(
                log: log, feed: log.feed, decoding: RecordDecoding(), startRevision: startRevision,
                batchSize: batchSize)
        }

        /// The next event: a revision, or the caught-up marker; waits while no newer revision
        /// is stored. Returns `nil` once the task is cancelled.
        ///
        /// Records are read and decoded off the caller's actor (<doc:SubscriptionThreads>): a
        /// subscriber on the main actor only receives them.
        ///
        /// - Throws: ``ChangeLogError`` naming the revision that could not be read; the
        ///   subscription ends with it. A failure to reach the engine is retried first, for up
        ///   to two minutes (``ChangeLog/subscribe(from:batchSize:)``).
        /// - Complexity: amortized O(*n*) per revision, where *n* is the number of items of its
        ///   snapshot (sections unchanged since the previous revision are decoded once); a live
        ///   revision is read and decoded once for all the subscriptions of the log instance.
        public mutating func next() async throws(ChangeLogError) -> Event? {
            try await next(isolation: nil)
        }

        /// The next event; see ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ChangeLogError) -> Event? {
            switch try await subscriber.next(isolation: actor) {
            case .revision(let record): .revision(record)
            case .caughtUp(let latest): .caughtUp(latest: latest)
            case nil: nil
            }
        }
    }
}
