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
/// - A slow subscriber never blocks writers and holds no more than one batch of records: it
///   reads the log itself, in short read transactions of at most `batchSize` revisions, and
///   keeps no transaction open between batches or while it waits. Notifications of new
///   revisions coalesce into one number.
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

    /// One subscription: reads the backlog, then waits for and reads live revisions.
    ///
    /// The iterator owns the subscription: when it is dropped, its listener is unregistered.
    /// Copies of an iterator share that one subscription, so iterate only one of them: once a
    /// copy ends (it threw, or returned `nil` after its task was cancelled), every copy waiting
    /// for a live revision ends too, with `nil`.
    public struct Iterator: AsyncIteratorProtocol {
        private enum Phase {
            /// `next()` has not been called yet.
            case starting
            /// Delivering the revisions stored when the subscription started, up to `end`.
            case catchingUp(end: UInt64)
            /// Caught up: delivering revisions as they are appended.
            case live
            /// Cancelled, or failed.
            case finished
        }

        private let log: ChangeLog
        private let startRevision: UInt64
        private let batchSize: Int
        private var phase = Phase.starting
        /// The next revision to deliver: the subscription's cursor.
        private var nextRevision: UInt64 = 1
        /// The latest revision a wakeup announced; waits ask for one after it.
        private var lastNotified: UInt64 = 0
        private var buffer: [RevisionRecord] = []
        private var bufferIndex = 0
        private var loader = SnapshotLoader()
        private var listener: Listener?
        /// The error of the revision after the buffered ones, thrown once they are delivered.
        private var failure: ChangeLogError?

        init(log: ChangeLog, startRevision: UInt64, batchSize: Int) {
            self.log = log
            self.startRevision = startRevision
            self.batchSize = batchSize
        }

        /// The next event: a revision, or the caught-up marker; waits while no newer revision
        /// is stored. Returns `nil` once the task is cancelled.
        ///
        /// - Throws: ``ChangeLogError`` naming the revision that could not be read; the
        ///   subscription ends with it.
        /// - Complexity: amortized O(*n*) per revision, where *n* is the number of items of its
        ///   snapshot (sections unchanged since the previous revision are decoded once).
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
                    try start()
                case .catchingUp(let end):
                    if nextRevision > end {
                        phase = .live
                        return .caughtUp(latest: end)
                    }
                    try readBatch(upTo: end)
                case .live:
                    try readBatch(upTo: nil)
                    guard buffer.isEmpty else { continue }
                    // Nothing stored after the cursor: wait for a revision after both the
                    // cursor's predecessor and the last announcement (an announcement that the
                    // read did not confirm must not wake this wait again).
                    guard let listener,
                        let notified = await log.notifier.wait(
                            listener.id, after: Swift.max(nextRevision - 1, lastNotified))
                    else {
                        finish()
                        return nil
                    }
                    lastNotified = notified
                }
            }
        }

        /// Registers the listener, then measures the backlog.
        ///
        /// No gap and no duplicate between the backlog and live revisions, even when appends
        /// race with the catch-up, follow from the order of these steps and from reading by
        /// cursor:
        ///
        /// 1. The listener is registered before the backlog is measured. A revision committed
        ///    before that read transaction began is in the backlog. A revision committed after
        ///    it began is published to the notifier after the registration: by this instance's
        ///    writer once its transaction committed, or by the watcher, which the registration
        ///    started (or found running, or being started: it reads the log once it runs) and
        ///    which reads the log after every file event and poll. So a later wait sees it, and nothing falls between the two.
        /// 2. Revisions are never taken from notifications: a notification only says "something
        ///    up to revision *n* is committed", and the iterator then reads the log from its
        ///    cursor, ``nextRevision``, which advances past each record it delivers. A revision
        ///    that is both in the backlog and announced (committed between registration and the
        ///    backlog read) is read once; its announcement is then at or below the cursor and
        ///    does not wake a wait for a revision after the cursor. This is the "drop what was
        ///    already delivered" step, done by position rather than by filtering events.
        /// 3. Revisions are numbered without gaps and read by consecutive keys, so in-order,
        ///    gap-free delivery is what reading from the cursor gives; a revision missing under
        ///    the cursor (dropped by retention meanwhile) is an error, never skipped.
        private mutating func start() throws(ChangeLogError) {
            listener = Listener(notifier: log.notifier)
            let store = log.store
            let requested = startRevision
            let (first, latest) = try store.read(during: "subscribing to") { transaction in
                let first = try store.first(in: transaction)
                if let first, requested > 1, requested < first {
                    throw try store.missingRevision(requested, in: transaction)
                }
                return (first, try store.latest(in: transaction)?.revision ?? 0)
            }
            nextRevision = requested <= 1 ? first ?? 1 : requested
            phase = .catchingUp(end: latest)
        }

        /// Reads the records from the cursor on, at most ``batchSize`` of them and none after
        /// `end` (or after the latest stored revision when `end` is `nil`), in one read
        /// transaction.
        private mutating func readBatch(upTo end: UInt64?) throws(ChangeLogError) {
            let store = log.store
            let first = nextRevision
            let (candidate, overflow) = first.addingReportingOverflow(UInt64(batchSize - 1))
            let limit = Swift.min(overflow ? .max : candidate, end ?? .max)
            var loader = self.loader
            // A revision that cannot be read ends the batch; the ones before it are still
            // delivered, then its error is thrown.
            let (records, unreadable) = try store.read(during: "reading") {
                transaction -> (records: [RevisionRecord], failure: (any Error)?) in
                var last = limit
                if end == nil {
                    let latest = try store.latest(in: transaction)?.revision ?? 0
                    guard latest >= first else { return ([], nil) }
                    last = Swift.min(last, latest)
                }
                return store.records(first...last, loader: &loader, in: transaction)
            }
            self.loader = loader
            buffer = records
            bufferIndex = 0
            if let unreadable {
                let error = ChangeLogError.wrapping(unreadable, path: store.path, during: "reading")
                // With nothing to deliver first, fail now: a live subscription would otherwise
                // wait for the next commit before saying so.
                guard !records.isEmpty else { throw error }
                failure = error
            }
            if let last = records.last?.revision {
                guard last < .max else {
                    // UInt64.max revisions cannot happen in practice; end rather than wrap.
                    phase = .finished
                    return
                }
                nextRevision = last + 1
            }
        }

        /// Ends the subscription and frees its listener; buffered records, and the error that
        /// was to follow them, are discarded.
        private mutating func finish() {
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
    /// A registered listener, unregistered when its iterator drops it (or ends).
    final class Listener: Sendable {
        let notifier: CommitNotifier
        let id: CommitNotifier.ListenerID

        init(notifier: CommitNotifier) {
            self.notifier = notifier
            self.id = notifier.register()
        }

        func unregister() {
            notifier.unregister(id)
        }

        deinit {
            notifier.unregister(id)
        }
    }
}
