import ListAdapter

/// The state of a ``LogWriter`` as a value: the requests waiting for the writer, the group of
/// appends it is gathering for its next transaction, what its thread is doing, and what it
/// remembers of the last transaction. Each transition returns what to do; the writer performs
/// it after leaving the lock that guards this value: a submitting caller on its own thread
/// (``SubmitAction``), the writer on its queue (``Step``).
///
/// Generic over the payload of a request (`Append`, `Drop`), which the state stores and hands
/// back without looking inside: it needs only an append's entry count and last snapshot.
///
/// ## Group commit
///
/// The writer gathers appends into a group, one transaction's worth, and prepares each as soon
/// as it takes it (``Step/prepare(_:)``): its chunks cut against the snapshot before it, its
/// changes taken or diffed, its records encoded, all outside any transaction. The transaction
/// (``Step/write``) only checks that the log still ends where the group was prepared after and
/// puts the prepared bytes, so LMDB's write lock, which other processes share, is held for as
/// short a time as it can be. A group takes every append pending when it starts, then more
/// while its entries stay within ``groupEntriesLimit``; a drop ends the group before it and
/// runs alone, in a transaction of its own, in its place in the queue.
///
/// The one wait, before the transaction (``nextStep(now:)``): after an append transaction that
/// served *g* > 1 requests, the writer gathers its next group until it holds *g* requests, or
/// until as long as that transaction's commit took (``longestGroupWait`` at most) has passed
/// since it was free to start it, whichever comes first; then it writes what it gathered, or
/// gives its queue up when it gathered nothing. Each request that arrives meanwhile wakes it to
/// be prepared, so that when the group's last caller is back only that caller's request is
/// left to prepare. Callers resumed together come back together, and one flush for all of them
/// costs less than one each (PostgreSQL's `commit_delay` rests on the same idea). Why the
/// commit's length: a group written without its late callers leaves them a commit of their
/// own, so a wait as long as a commit balances the cost of waiting against the cost of
/// splitting (the ski-rental rule); a full group ends the wait at once, so the bound only
/// matters when a caller does not come back. A lone appender (*g* = 1) and the writer after a
/// failed transaction never wait.
struct LogWriterState<Append, Drop> {
    /// A request waiting for the writer.
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
        /// Asleep until a request wakes it or until `deadline`.
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
        /// Add these appends, in order, to the group and prepare them now, outside any
        /// transaction.
        case prepare([Append])
        /// Write the group, every append prepared since the last write, in one transaction.
        case write
        /// Run this drop in a transaction of its own.
        case drop(Drop)
        /// Sleep until woken or until the deadline, then ask again. A wake-up is only a hint:
        /// one may come late, from a wait that had already ended, and the next step decides.
        case wait(until: UInt64)
        /// Nothing to do: give the queue up.
        case stop
    }

    /// The size of the group being gathered.
    struct GroupSize: Equatable {
        var requests = 0
        var entries = 0
    }

    /// A group takes more appends only while its entries stay within this many (it always takes
    /// every append pending when it starts, however many entries they hold).
    static var groupEntriesLimit: Int { 256 }
    /// The longest the writer waits for a group to fill, in nanoseconds: a bound for a disk that
    /// stalls, far above any commit of a healthy one.
    static var longestGroupWait: UInt64 { 10_000_000 }

    /// The requests waiting for the writer, in order.
    private(set) var pending: [Request] = []
    private(set) var phase = Phase.idle
    /// The group being gathered: taken from ``pending`` and prepared, not yet written.
    private(set) var group = GroupSize()
    /// The snapshot the next append request will follow if every request before it succeeds:
    /// the last entry of the last request submitted, or the latest stored snapshot when the
    /// writer is idle; `nil` when unknown.
    private(set) var tail: LogSnapshot?
    /// The end of the log as this writer last stored it; `nil` when unknown. Checked against
    /// the log before it is built upon.
    private(set) var end: LogEnd?
    /// How many write transactions committed.
    private(set) var commits = 0
    /// How many append requests the last append transaction served (0 after a failure).
    private(set) var lastGroupSize = 0
    /// How long the next group may wait to fill; `nil` when it does not wait.
    private(set) var groupWait: UInt64?
    /// Until when the group being gathered waits to fill; set once the writer is free to
    /// gather it.
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
            // Every request wakes the writer: an append to be prepared now, or a drop that ends
            // the group.
            phase = .running
            return .wakeWriter
        }
    }

    /// What the writer does now that it is free: at its start, after a step, after a wait.
    /// Applies the group commit policy of the type's documentation.
    mutating func nextStep(now: UInt64) -> Step {
        phase = .running
        if group.requests == 0, groupDeadline == nil, let groupWait {
            groupDeadline = now + groupWait
        }
        switch pending.first {
        case .drop(let drop):
            guard group.requests == 0 else { return write() }
            pending.removeFirst()
            return .drop(drop)
        case .append(_, let entryCount):
            if group.requests == 0 {
                return .prepare(take(limit: .max))
            }
            let room = Self.groupEntriesLimit - group.entries
            guard entryCount <= room else { return write() }
            return .prepare(take(limit: room))
        case nil:
            break
        }
        if let groupDeadline, now < groupDeadline, group.requests < lastGroupSize,
            group.entries < Self.groupEntriesLimit
        {
            phase = .waiting(until: groupDeadline)
            return .wait(until: groupDeadline)
        }
        guard group.requests == 0 else { return write() }
        groupDeadline = nil
        phase = .idle
        tail = end?.latest?.stored.snapshot
        return .stop
    }

    /// Ends the group being gathered: the writer writes it.
    private mutating func write() -> Step {
        group = GroupSize()
        groupDeadline = nil
        return .write
    }

    /// Removes the appends at the front of the queue, up to the first drop, taking requests
    /// while their entries stay within `limit` (at least one request), and adds them to the
    /// group.
    private mutating func take(limit: Int) -> [Append] {
        var taken: [Append] = []
        var entries = 0
        for request in pending {
            guard case .append(let append, let entryCount) = request else { break }
            if !taken.isEmpty, entries + entryCount > limit { break }
            taken.append(append)
            entries += entryCount
        }
        pending.removeFirst(taken.count)
        group.requests += taken.count
        group.entries += entries
        return taken
    }

    /// Records an append transaction of `groupSize` requests that committed, leaving the log
    /// ending at `end`, its commit having taken `commitNanoseconds`.
    mutating func committedAppends(groupSize: Int, end: LogEnd, commitNanoseconds: UInt64) {
        self.end = end
        commits += 1
        lastGroupSize = groupSize
        groupWait = groupSize > 1 ? min(commitNanoseconds, Self.longestGroupWait) : nil
    }

    /// Records an append transaction that failed: nothing of it is stored, and what the writer
    /// knew of the log may be wrong.
    mutating func failedAppends() {
        end = nil
        lastGroupSize = 0
        groupWait = nil
    }

    /// Records a drop's transaction that committed.
    mutating func committedDrop() {
        commits += 1
    }
}

extension LogWriterState.Request: Sendable where Append: Sendable, Drop: Sendable {}
extension LogWriterState: Sendable where Append: Sendable, Drop: Sendable {}
extension LogWriterState.Step: Equatable where Append: Equatable, Drop: Equatable {}
