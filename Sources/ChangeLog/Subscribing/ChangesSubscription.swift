/// The revisions of a ``ChangeLog`` from a starting revision on, each as its changes alone
/// (``RevisionChanges``, no snapshot): the stored ones, a ``Event/caughtUp(latest:)`` marker,
/// then live ones as they are appended, by this process or any other. Created by
/// ``ChangeLog/subscribeChanges(from:batchSize:)``.
///
/// For a follower that holds the list itself (a renderer, a mirror, a tail of the changes): no
/// snapshot chunk is read or decoded, stored or live, so each revision costs what its changes
/// cost rather than what its snapshot does.
///
/// ```swift
/// for try await event in log.subscribeChanges(from: 1) {
///     switch event {
///     case .revision(let revision): apply(revision.changes)
///     case .caughtUp(let latest): print("live after revision \(latest)")
///     }
/// }
/// ```
///
/// It delivers, revision for revision, what ``LogSubscription`` delivers without the
/// snapshots (``RevisionChanges/init(_:)`` of each record), with the same guarantees: every
/// revision exactly once and in order, no gap between the stored and the live ones, across
/// processes; reading off the subscriber's actor; a slow subscriber that holds at most one
/// batch, never blocks writers or other subscribers, and reads the log itself until it catches
/// up. Live revisions are read once per ``ChangeLog`` instance for all its changes
/// subscriptions (and the server's changes-only streams): they share a live feed of their own,
/// which reads no snapshot, beside the one of full subscriptions.
///
/// Each record read is checked against its checksum; a damaged snapshot chunk, which this
/// subscription does not read, is reported by the reads that need it and by
/// ``ChangeLog/verify(_:progress:)``.
///
/// The sequence ends as ``LogSubscription`` does: when the iterating task is cancelled or the
/// iterator is dropped; it throws ``ChangeLogError`` when a revision cannot be read, notably
/// ``ChangeLogError/Code/revisionDropped``. Each iterator is a subscription of its own.
public struct ChangesSubscription: AsyncSequence, Sendable {
    /// What a changes subscription delivers.
    public enum Event: Hashable, Sendable {
        /// The next revision's changes.
        case revision(RevisionChanges)
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

    /// One subscription: reads the backlog's changes, then follows the log's live feed of
    /// changes. Owned and shared as ``LogSubscription/Iterator`` is: iterate one copy only.
    public struct Iterator: AsyncIteratorProtocol {
        private var subscriber: RevisionSubscriber<ChangesDecoding>

        init(log: ChangeLog, startRevision: UInt64, batchSize: Int) {
            subscriber = RevisionSubscriber(
                log: log, feed: log.changesFeed, decoding: ChangesDecoding(), startRevision: startRevision,
                batchSize: batchSize)
        }

        /// The next event: a revision's changes, or the caught-up marker; waits while no newer
        /// revision is stored. Returns `nil` once the task is cancelled.
        ///
        /// Revisions are read off the caller's actor (<doc:SubscriptionThreads>).
        ///
        /// - Throws: ``ChangeLogError`` naming the revision that could not be read; the
        ///   subscription ends with it. A failure to reach the engine is retried first, for up
        ///   to two minutes (``ChangeLog/subscribe(from:batchSize:)``).
        /// - Complexity: O(*c*) per revision, where *c* is the size of its changes, whatever
        ///   the size of its snapshot; a live revision is read once for all the changes
        ///   subscriptions of the log instance.
        public mutating func next() async throws(ChangeLogError) -> Event? {
            try await next(isolation: nil)
        }

        /// The next event; see ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ChangeLogError) -> Event? {
            switch try await subscriber.next(isolation: actor) {
            case .revision(let changes): .revision(changes)
            case .caughtUp(let latest): .caughtUp(latest: latest)
            case nil: nil
            }
        }
    }
}
