/// The state of a ``LogWriter`` as a value: the requests waiting for a transaction, what the
/// writer's thread is doing, and what the writer remembers of the last transaction. Each
/// transition returns what to do; the writer performs it, on its own queue or on the caller's
/// thread as each action says, after leaving the lock that guards this value.
///
/// Generic over the payload of a request (`Append`, `Drop`), which the state stores and hands
/// back without looking inside: it needs only an append's entry count and last snapshot.
///
/// ## Group commit
///
/// The writer takes all the appends pending at the front of the queue into one transaction;
/// requests that arrive while that transaction is being built join it, up to
/// ``joiningEntriesLimit`` entries, without the writer ever waiting for them inside it (the
/// transaction holds LMDB's write lock, shared with other processes). A drop runs alone, in a
/// transaction of its own, in its place in the queue.
///
/// The one wait, before a transaction begins (``nextStep(now:)``): after an append transaction
/// that served *g* > 1 requests, the writer waits until *g* appends are pending, or until as
/// long as that transaction's commit took has passed since the commit ended (``longestGroupWait``
/// at most), whichever comes first; then it begins the transaction with what is pending, or
/// gives its queue up when nothing is. Callers resumed together come back together, and one
/// flush for all of them costs less than one each (PostgreSQL's `commit_delay` rests on the
/// same idea). Why the commit's length: a group that begins without its late callers leaves
/// them a commit of their own, so a wait as long as a commit balances the cost of waiting
/// against the cost of splitting (the ski-rental rule); a full group ends the wait at once, so
/// the deadline only matters when a caller does not come back (Benchmarks/GROUP-COMMIT.md has
/// the measurements). A lone appender (*g* = 1), a drop at the front of the queue, and the
/// writer after a failed transaction never wait.
struct LogWriterState<Append, Drop> {
    /// A request waiting for its transaction.
    enum Request {
        case append(Append, entryCount: Int)
        case drop(Drop)
    }

    /// What the writer's thread is doing.
    enum Phase: Equatable {
        /// Not running: the next request starts it.
        case idle
        /// Running; it calls ``nextStep(now:)`` when it is free.
        case running
        /// Asleep until the group fills (a request then wakes it) or until `deadline`.
        case waiting(until: UInt64)
    }

    /// What the submitting caller does after ``submit(_:entryCount:endingAt:)`` or
    /// ``submit(drop:)``.
    enum SubmitAction: Equatable {
        case none
        /// Start the writer on its queue.
        case startWriter
        /// Wake the writer, asleep in a ``Step/wait(until:)``.
        case wakeWriter
    }

    /// What the writer does next, on its queue.
    enum Step {
        /// Begin a transaction with these appends, in order; more may join it (``join(room:)``).
        case write([Append])
        /// Run this drop in a transaction of its own.
        case drop(Drop)
        /// Sleep until woken or until the deadline, then ask again. A wake-up is only a hint:
        /// one may come late, from a wait that had already ended, and the next step decides.
        case wait(until: UInt64)
        /// Nothing to do: give the queue up.
        case stop
    }

    /// Requests that arrive while a transaction is being built join it, up to this many entries
    /// in all.
    static var joiningEntriesLimit: Int { 256 }
    /// The longest the writer waits for a group to fill, in nanoseconds: a bound for a disk that
    /// stalls, far above any commit of a healthy one.
    static var longestGroupWait: UInt64 { 10_000_000 }

    /// The requests waiting for a transaction, in order.
    private(set) var pending: [Request] = []
    private(set) var phase = Phase.idle
    /// The snapshot the next append request will follow if every request before it succeeds:
    /// the last entry of the last request submitted, or the latest stored snapshot when the
    /// writer is idle; `nil` when unknown.
    private(set) var tail: LogSnapshot?
    /// The latest revision as last stored by this writer; checked against the log before use.
    private(set) var latest: LatestRevision?
    /// How many write transactions committed.
    private(set) var commits = 0
    /// How many append requests the last append transaction served (0 after a failure).
    private(set) var lastGroupSize = 0
    /// Until when the writer waits for the group of the last append transaction to be back;
    /// `nil` when it does not wait.
    private(set) var groupDeadline: UInt64?

    /// Queues an append of `entryCount` entries, the last of them `last`: the tail becomes
    /// `last` (it stays when there are no entries).
    mutating func submit(_ append: Append, entryCount: Int, endingAt last: LogSnapshot?) -> SubmitAction {
        if entryCount > 0 {
            tail = last
        }
        return enqueue(.append(append, entryCount: entryCount))
    }

    /// Queues a drop.
    mutating func submit(drop: Drop) -> SubmitAction {
        enqueue(.drop(drop))
    }

    private mutating func enqueue(_ request: Request) -> SubmitAction {
        pending.append(request)
        switch phase {
        case .idle:
            phase = .running
            return .startWriter
        case .running:
            return .none
        case .waiting:
            guard !waitsForGroup else { return .none }
            phase = .running
            return .wakeWriter
        }
    }

    /// The number of appends at the front of the queue, before any drop.
    private var leadingAppends: Int {
        pending.firstIndex { if case .drop = $0 { true } else { false } } ?? pending.count
    }

    /// Whether the group of the last transaction is still incomplete: fewer appends pending than
    /// it served, and no drop at the front. Ignores the deadline.
    private var waitsForGroup: Bool {
        groupDeadline != nil && pending.count == leadingAppends && pending.count < lastGroupSize
    }

    /// What the writer does now that it is free: at its start, after a transaction, after a
    /// wait. Applies the group commit policy of the type's documentation.
    mutating func nextStep(now: UInt64) -> Step {
        if let deadline = groupDeadline, waitsForGroup, now < deadline {
            phase = .waiting(until: deadline)
            return .wait(until: deadline)
        }
        phase = .running
        groupDeadline = nil
        guard let first = pending.first else {
            phase = .idle
            tail = latest?.stored.snapshot
            return .stop
        }
        if case .drop(let drop) = first {
            pending.removeFirst()
            return .drop(drop)
        }
        return .write(takeLeadingAppends(limit: .max))
    }

    /// The appends pending at the front of the queue that fit in `room` entries, to join the
    /// transaction being built (empty when none is pending), or `nil` when the transaction is
    /// full or the next request does not fit (a drop, or an append too large).
    mutating func join(room: Int) -> [Append]? {
        guard room > 0 else { return nil }
        guard let first = pending.first else { return [] }
        guard case .append(_, let entryCount) = first, entryCount <= room else { return nil }
        return takeLeadingAppends(limit: room)
    }

    /// Removes and returns the appends at the front of the queue, up to the first drop, taking
    /// requests while their entries stay within `limit` (at least one request).
    private mutating func takeLeadingAppends(limit: Int) -> [Append] {
        var taken: [Append] = []
        var entries = 0
        for request in pending {
            guard case .append(let append, let entryCount) = request else { break }
            if !taken.isEmpty, entries + entryCount > limit { break }
            taken.append(append)
            entries += entryCount
        }
        pending.removeFirst(taken.count)
        return taken
    }

    /// Records an append transaction of `groupSize` requests that committed, leaving `latest`
    /// stored, its commit having taken `commitNanoseconds` and ended at `now`.
    mutating func committedAppends(
        groupSize: Int, latest: LatestRevision?, commitNanoseconds: UInt64, now: UInt64
    ) {
        self.latest = latest
        commits += 1
        lastGroupSize = groupSize
        groupDeadline = groupSize > 1 ? now + min(commitNanoseconds, Self.longestGroupWait) : nil
    }

    /// Records an append transaction that failed: nothing of it is stored, and what the writer
    /// knew of the log may be wrong.
    mutating func failedAppends() {
        latest = nil
        lastGroupSize = 0
        groupDeadline = nil
    }

    /// Records a drop's transaction that committed.
    mutating func committedDrop() {
        commits += 1
    }
}

extension LogWriterState.Request: Sendable where Append: Sendable, Drop: Sendable {}
extension LogWriterState: Sendable where Append: Sendable, Drop: Sendable {}
