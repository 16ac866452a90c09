import ListAdapter

/// The state of a ``LogWriter`` as one value: the requests waiting for the writer, the group of
/// appends it is gathering for its next transaction, what its thread is doing, and what it
/// remembers of the last transaction. An event (a caller's submission, the writer free for its
/// next step, a transaction's outcome) returns what to do; the writer performs it after leaving
/// the lock that guards this value: a submitting caller on its own thread (``SubmitAction``),
/// the writer on its queue (``Step``). An event that cannot happen in the current state (the
/// writer asking for a step while it prepares, reporting a commit it did not make) is a
/// programming error: a precondition failure, never a step silently skipped.
///
/// Generic over the payload of a request (`Append`, `Drop`) and over the group the appends are
/// prepared into (`Group`), which the state stores and hands back without looking inside: it
/// needs only an append's entry count and last snapshot. The group lives in the state between
/// steps; while the writer prepares appends into it or writes it, the writer holds it, and the
/// state knows it is out (``Step/prepare(_:into:)``, ``Step/write(_:)``).
///
/// ## Group commit
///
/// The writer gathers appends into a group, one transaction's worth, and prepares each as soon
/// as it takes it (``Step/startGroup(_:after:)``, ``Step/prepare(_:into:)``): its chunks cut
/// against the snapshot before it, its changes taken or diffed, its records encoded, all
/// outside any transaction. The transaction (``Step/write(_:)``) only checks that the log still
/// ends where the group was prepared after and puts the prepared bytes, so LMDB's write lock,
/// which other processes share, is held for as short a time as it can be. A group takes every
/// append pending when it starts, then more while its entries stay within
/// ``groupEntriesLimit``; a drop ends the group before it and runs alone, in a transaction of
/// its own, in its place in the queue.
///
/// The one wait, before the transaction (``nextStep(now:)``): after an append transaction that
/// served *g* > 1 requests, the writer gathers its next group until it holds *g* requests, or
/// until as long as that transaction's commit took (``longestGroupWait`` at most) has passed
/// since it was free to start it, whichever comes first; then it writes what it gathered, or
/// gives its queue up when it gathered nothing. Each request that arrives meanwhile wakes it to
/// be prepared, so that when the group's last caller is back only that caller's request is
/// left to prepare. A lone appender (*g* = 1) and the writer after a failed transaction never
/// wait. Benchmarks/GROUP-COMMIT.md says why.
struct LogWriterState<Append, Drop, Group> {
    /// A request waiting for the writer.
    enum Request {
        case append(Append, entryCount: Int)
        case drop(Drop)
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

    /// What the writer does next, on its queue, and what it reports once done.
    enum Step {
        /// Start a group with these appends and prepare them now, outside any transaction,
        /// after `end` (the end of the log the writer last stored; `nil` when unknown, then the
        /// writer reads it); then hand the group back: ``prepared(_:now:)``.
        case startGroup([Append], after: LogEnd?)
        /// Add these appends, in order, to `group` and prepare them now, outside any
        /// transaction; then hand the group back: ``prepared(_:now:)``.
        case prepare([Append], into: Group)
        /// Write `group`, every append prepared into it, in one transaction; then report
        /// ``committedAppends(end:commitNanoseconds:)`` or ``failedAppends()``.
        case write(Group)
        /// Run this drop in a transaction of its own; then report ``committedDrop()`` or
        /// ``failedDrop()``.
        case drop(Drop)
        /// Sleep until woken or until the deadline, then ask again (``nextStep(now:)``). A
        /// wake-up is only a hint: one may come late, from a wait that had already ended, and
        /// the next step decides.
        case wait(until: UInt64)
        /// Nothing to do: give the queue up.
        case stop
    }

    /// The size of a group.
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

    /// What the writer remembers of the log and of its transactions, in every state.
    struct Memory {
        /// The end of the log as this writer last stored it; `nil` when unknown. Checked
        /// against the log before it is built upon.
        var end: LogEnd?
        /// How many write transactions committed.
        var commits = 0
        /// How many append requests the last append transaction served (0 after a failure).
        var lastGroupSize = 0
        /// How long the next group may wait to fill; `nil` when it does not wait.
        var groupWait: UInt64?
    }

    /// The requests a running writer has yet to take.
    struct Queue {
        /// The requests waiting for the writer, in order.
        var pending: [Request] = []
        /// The snapshot the next append request will follow if every request before it
        /// succeeds: the last entry of the last request submitted; `nil` when unknown.
        var tail: LogSnapshot?
    }

    /// How far the group being gathered has come, apart from the group itself.
    struct Gathering {
        var size = GroupSize()
        /// Until when the group waits to fill; set once the writer is free to gather it, `nil`
        /// until then and when it does not wait.
        var deadline: UInt64?
    }

    /// The state proper: one case per thing the writer can be doing, each with its data.
    enum State {
        /// Not running, nothing pending: the next request starts it. The tail is the latest
        /// stored snapshot.
        case idle(Memory)
        /// Running, free for its next step (``nextStep(now:)``) or about to be: started, woken,
        /// or back from a transaction. `group` holds the appends prepared so far (`nil` before
        /// the first).
        case running(Memory, Queue, group: Group?, Gathering)
        /// Asleep in a ``Step/wait(until:)`` until `gathering.deadline`, the group in the
        /// state.
        case waiting(Memory, Queue, group: Group?, Gathering)
        /// Preparing appends into the group, which the writer holds until
        /// ``prepared(_:now:)``.
        case preparing(Memory, Queue, Gathering)
        /// Writing a group of `groupSize` requests, which the writer holds.
        case writing(Memory, Queue, groupSize: Int)
        /// Running a drop.
        case dropping(Memory, Queue)
        /// Only while a transition runs, so that the queue it changes is not shared with the
        /// state it came from (no copy on write).
        case modifying
    }

    private(set) var state = State.idle(Memory())

    // MARK: Callers' events

    /// Queues an append of `entryCount` entries, the last of them `last`: the tail becomes
    /// `last` (it stays when there are no entries).
    mutating func submit(_ append: Append, entryCount: Int, endingAt last: LogSnapshot?) -> SubmitAction {
        enqueue(.append(append, entryCount: entryCount), endingAt: entryCount > 0 ? last : nil)
    }

    /// Queues a drop.
    mutating func submit(drop: Drop) -> SubmitAction {
        enqueue(.drop(drop), endingAt: nil)
    }

    /// Queues `request`; `last`, when given, becomes the tail.
    private mutating func enqueue(_ request: Request, endingAt last: LogSnapshot?) -> SubmitAction {
        func added(_ queue: inout Queue) {
            queue.pending.append(request)
            if let last { queue.tail = last }
        }
        switch state {
        case .idle(let memory):
            var queue = Queue(tail: memory.end?.latest?.stored.snapshot)
            added(&queue)
            state = .running(memory, queue, group: nil, Gathering())
            return .startWriter
        case .running(let memory, var queue, let group, let gathering):
            state = .modifying
            added(&queue)
            state = .running(memory, queue, group: group, gathering)
            return .none
        case .waiting(let memory, var queue, let group, let gathering):
            // Every request wakes the writer: an append to be prepared now, or a drop that ends
            // the group.
            state = .modifying
            added(&queue)
            state = .running(memory, queue, group: group, gathering)
            return .wakeWriter
        case .preparing(let memory, var queue, let gathering):
            state = .modifying
            added(&queue)
            state = .preparing(memory, queue, gathering)
            return .none
        case .writing(let memory, var queue, let groupSize):
            state = .modifying
            added(&queue)
            state = .writing(memory, queue, groupSize: groupSize)
            return .none
        case .dropping(let memory, var queue):
            state = .modifying
            added(&queue)
            state = .dropping(memory, queue)
            return .none
        case .modifying:
            preconditionFailure("LogWriterState submitted to in the middle of a transition")
        }
    }

    // MARK: The writer's events

    /// What the writer does now that it is free and holds nothing: at its start, after a wait,
    /// after a transaction it reported.
    mutating func nextStep(now: UInt64) -> Step {
        switch state {
        case .running(let memory, let queue, let group, let gathering),
            .waiting(let memory, let queue, let group, let gathering):
            state = .modifying
            return step(memory, queue, group, gathering, now: now)
        case .idle, .preparing, .writing, .dropping, .modifying:
            preconditionFailure("the log writer asked for its next step while \(description)")
        }
    }

    /// What the writer does now that it prepared the appends of its last step into `group`,
    /// which it hands back.
    mutating func prepared(_ group: Group, now: UInt64) -> Step {
        guard case .preparing(let memory, let queue, let gathering) = state else {
            preconditionFailure("the log writer handed a group back while \(description)")
        }
        state = .modifying
        return step(memory, queue, group, gathering, now: now)
    }

    /// Records that the append transaction of the group the writer holds committed, leaving the
    /// log ending at `end`, its commit having taken `commitNanoseconds`.
    mutating func committedAppends(end: LogEnd, commitNanoseconds: UInt64) {
        guard case .writing(var memory, let queue, let groupSize) = state else {
            preconditionFailure("the log writer reported an append transaction while \(description)")
        }
        state = .modifying
        memory.end = end
        memory.commits += 1
        memory.lastGroupSize = groupSize
        memory.groupWait = groupSize > 1 ? min(commitNanoseconds, Self.longestGroupWait) : nil
        state = .running(memory, queue, group: nil, Gathering())
    }

    /// Records that the append transaction of the group the writer holds failed: nothing of it
    /// is stored, and what the writer knew of the log may be wrong.
    mutating func failedAppends() {
        guard case .writing(var memory, let queue, _) = state else {
            preconditionFailure("the log writer reported an append transaction while \(description)")
        }
        state = .modifying
        memory.end = nil
        memory.lastGroupSize = 0
        memory.groupWait = nil
        state = .running(memory, queue, group: nil, Gathering())
    }

    /// Records that the drop's transaction committed.
    mutating func committedDrop() {
        guard case .dropping(var memory, let queue) = state else {
            preconditionFailure("the log writer reported a drop while \(description)")
        }
        state = .modifying
        memory.commits += 1
        state = .running(memory, queue, group: nil, Gathering())
    }

    /// Records that the drop's transaction failed: nothing of it is stored.
    mutating func failedDrop() {
        guard case .dropping(let memory, let queue) = state else {
            preconditionFailure("the log writer reported a drop while \(description)")
        }
        state = .modifying
        state = .running(memory, queue, group: nil, Gathering())
    }

    /// Applies the group commit policy of the type's documentation to a writer that is free,
    /// `group` back in the state; sets the state the step leads to.
    private mutating func step(
        _ memory: Memory, _ queue: consuming Queue, _ group: Group?, _ gathering: Gathering, now: UInt64
    ) -> Step {
        var queue = queue
        var gathering = gathering
        if gathering.size.requests == 0, gathering.deadline == nil, let wait = memory.groupWait {
            gathering.deadline = now + wait
        }
        switch queue.pending.first {
        case .drop(let drop):
            if let group { return write(group, memory, queue, gathering) }
            queue.pending.removeFirst()
            state = .dropping(memory, queue)
            return .drop(drop)
        case .append(_, let entryCount):
            guard let group else {
                let taken = Self.take(from: &queue, limit: .max, into: &gathering)
                state = .preparing(memory, queue, gathering)
                return .startGroup(taken, after: memory.end)
            }
            let room = Self.groupEntriesLimit - gathering.size.entries
            guard entryCount <= room else { return write(group, memory, queue, gathering) }
            let taken = Self.take(from: &queue, limit: room, into: &gathering)
            state = .preparing(memory, queue, gathering)
            return .prepare(taken, into: group)
        case nil:
            break
        }
        if let deadline = gathering.deadline, now < deadline, gathering.size.requests < memory.lastGroupSize,
            gathering.size.entries < Self.groupEntriesLimit
        {
            state = .waiting(memory, queue, group: group, gathering)
            return .wait(until: deadline)
        }
        if let group { return write(group, memory, queue, gathering) }
        state = .idle(memory)
        return .stop
    }

    /// Ends the group being gathered: the writer writes it.
    private mutating func write(_ group: Group, _ memory: Memory, _ queue: consuming Queue, _ gathering: Gathering)
        -> Step
    {
        state = .writing(memory, queue, groupSize: gathering.size.requests)
        return .write(group)
    }

    /// Removes the appends at the front of `queue`, up to the first drop, taking requests while
    /// their entries stay within `limit` (at least one request), and counts them in `gathering`.
    private static func take(from queue: inout Queue, limit: Int, into gathering: inout Gathering) -> [Append] {
        var taken: [Append] = []
        var entries = 0
        for request in queue.pending {
            guard case .append(let append, let entryCount) = request else { break }
            if !taken.isEmpty, entries + entryCount > limit { break }
            taken.append(append)
            entries += entryCount
        }
        queue.pending.removeFirst(taken.count)
        gathering.size.requests += taken.count
        gathering.size.entries += entries
        return taken
    }
}

extension LogWriterState.Request: Sendable where Append: Sendable, Drop: Sendable {}
extension LogWriterState.Step: Sendable where Append: Sendable, Drop: Sendable, Group: Sendable {}
extension LogWriterState.State: Sendable where Append: Sendable, Drop: Sendable, Group: Sendable {}
extension LogWriterState: Sendable where Append: Sendable, Drop: Sendable, Group: Sendable {}
extension LogWriterState.Memory: Sendable {}
extension LogWriterState.Queue: Sendable where Append: Sendable, Drop: Sendable {}
extension LogWriterState.Gathering: Sendable {}
