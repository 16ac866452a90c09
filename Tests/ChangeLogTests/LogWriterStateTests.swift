import ListAdapter
import Testing

@testable import ChangeLog

/// The writer's state machine on its own, without LMDB or threads: requests are strings, a group
/// is the list of the requests prepared into it, time is a number of nanoseconds the tests choose.
@Suite("Log writer state")
struct LogWriterStateTests {
    /// The group is the list of the appends prepared into it, in order.
    typealias State = LogWriterState<String, String, [String]>

    /// A one-section snapshot with one item named `tag`.
    static func snapshot(_ tag: String) throws -> LogSnapshot {
        try LogSnapshot(sections: [.init(title: "S", items: [.init(id: tag)])])
    }

    /// The end of an empty log.
    static let emptyEnd = LogEnd(latest: nil, nextChunkID: 1)

    /// A running writer whose last append transaction served `groupSize` requests and whose
    /// commit took `commit` nanoseconds.
    static func afterGroup(_ groupSize: Int, commit: UInt64 = 400_000) -> State {
        var state = State()
        let previous = (0..<groupSize).map { "previous \($0)" }
        for append in previous {
            _ = state.submit(append, entryCount: 1, endingAt: nil)
        }
        _ = state.nextStep(now: 0)
        _ = state.prepared(previous, now: 0)
        state.committedAppends(end: emptyEnd, commitNanoseconds: commit)
        return state
    }

    @Test("the first request starts the writer; requests while it runs only queue")
    func startsOnce() {
        var state = State()
        #expect(state.phase == .idle)
        #expect(state.submit("a", entryCount: 1, endingAt: nil) == .startWriter)
        #expect(state.phase == .running)
        #expect(state.submit("b", entryCount: 1, endingAt: nil) == .none)
        #expect(state.submit(drop: "d") == .none)
        #expect(state.pending.count == 3)
    }

    @Test("a group takes every append before the first drop; the drop runs alone, then the rest")
    func stepsInOrder() {
        var state = State()
        _ = state.submit("a", entryCount: 1, endingAt: nil)
        _ = state.submit("b", entryCount: 300, endingAt: nil)
        _ = state.submit(drop: "d")
        _ = state.submit("c", entryCount: 1, endingAt: nil)
        #expect(state.nextStep(now: 0) == .startGroup(["a", "b"], after: nil))
        #expect(state.gatheredSize == .init(requests: 2, entries: 301))
        #expect(state.prepared(["a", "b"], now: 0) == .write(["a", "b"]), "the drop ends the group before it")
        #expect(state.gatheredSize == .init())
        state.committedAppends(end: Self.emptyEnd, commitNanoseconds: 0)
        #expect(state.nextStep(now: 0) == .drop("d"))
        state.committedDrop()
        #expect(state.nextStep(now: 0) == .startGroup(["c"], after: Self.emptyEnd))
        #expect(state.prepared(["c"], now: 0) == .write(["c"]))
        state.committedAppends(end: Self.emptyEnd, commitNanoseconds: 0)
        #expect(state.nextStep(now: 0) == .stop)
        #expect(state.phase == .idle)
        #expect(state.pending.isEmpty)
        #expect(state.submit("e", entryCount: 1, endingAt: nil) == .startWriter)
    }

    @Test("a group takes more appends while its entries fit, and is written when the next does not")
    func groupEntriesLimit() {
        var state = State()
        _ = state.submit("a", entryCount: 4, endingAt: nil)
        #expect(state.nextStep(now: 0) == .startGroup(["a"], after: nil))
        _ = state.submit("b", entryCount: 4, endingAt: nil)
        _ = state.submit("c", entryCount: 4, endingAt: nil)
        _ = state.submit("d", entryCount: State.groupEntriesLimit, endingAt: nil)
        #expect(state.prepared(["a"], now: 0) == .prepare(["b", "c"], into: ["a"]))
        #expect(state.prepared(["a", "b", "c"], now: 0) == .write(["a", "b", "c"]), "d does not fit")
        state.committedAppends(end: Self.emptyEnd, commitNanoseconds: 0)
        #expect(
            state.nextStep(now: 0) == .startGroup(["d"], after: Self.emptyEnd), "a new group takes it, however large")
        #expect(state.prepared(["d"], now: 0) == .write(["d"]))
    }

    @Test("the tail follows the last entry submitted, and the stored snapshot once the writer stops")
    func tail() throws {
        let (a, b, stored) = (try Self.snapshot("a"), try Self.snapshot("b"), try Self.snapshot("stored"))
        var state = State()
        #expect(state.tail == nil)
        _ = state.submit("1", entryCount: 1, endingAt: a)
        #expect(state.tail == a)
        _ = state.submit("2", entryCount: 2, endingAt: b)
        #expect(state.tail == b)
        _ = state.submit("empty", entryCount: 0, endingAt: nil)
        #expect(state.tail == b, "an append of no entries leaves the tail")
        #expect(state.nextStep(now: 0) == .startGroup(["1", "2", "empty"], after: nil))
        #expect(state.prepared(["1", "2", "empty"], now: 0) == .write(["1", "2", "empty"]))
        let latest = LatestRevision(
            revision: 7, checksum: 0, stored: StoredSnapshot(snapshot: stored, sections: [], runs: []))
        state.committedAppends(end: LogEnd(latest: latest, nextChunkID: 9), commitNanoseconds: 0)
        #expect(state.tail == b, "the tail stays while the writer runs")
        #expect(state.nextStep(now: 2) == .stop)
        #expect(state.tail == stored)
        #expect(state.memory.end?.latest?.revision == 7)
        #expect(state.memory.end?.nextChunkID == 9)
    }

    @Test("after a group, each request wakes the writer to be prepared until as many are gathered")
    func gathersTheGroup() {
        var state = Self.afterGroup(3, commit: 400_000)
        let deadline: UInt64 = 1_000_000 + 400_000
        #expect(state.nextStep(now: 1_000_000) == .wait(until: deadline), "the group's first request")
        #expect(state.phase == .waiting(until: deadline))
        #expect(state.submit("a", entryCount: 1, endingAt: nil) == .wakeWriter)
        #expect(state.phase == .running)
        #expect(state.nextStep(now: 1_010_000) == .startGroup(["a"], after: Self.emptyEnd))
        #expect(state.prepared(["a"], now: 1_020_000) == .wait(until: deadline), "the same deadline")
        #expect(state.submit("b", entryCount: 1, endingAt: nil) == .wakeWriter)
        #expect(state.submit("c", entryCount: 1, endingAt: nil) == .none, "the writer is already awake")
        #expect(state.nextStep(now: 1_030_000) == .prepare(["b", "c"], into: ["a"]), "the group was in the state")
        #expect(state.prepared(["a", "b", "c"], now: 1_040_000) == .write(["a", "b", "c"]), "the group is full")
        #expect(state.gathering?.deadline == nil)
    }

    @Test("an early wake-up waits again until the same deadline; at the deadline, the group is written")
    func deadline() {
        var state = Self.afterGroup(8, commit: 50_000)
        _ = state.submit("a", entryCount: 1, endingAt: nil)
        #expect(state.nextStep(now: 10_000) == .startGroup(["a"], after: Self.emptyEnd))
        #expect(state.prepared(["a"], now: 10_000) == .wait(until: 60_000))
        // A late signal from an earlier wait ends this one early: the state says to wait again.
        #expect(state.nextStep(now: 20_000) == .wait(until: 60_000))
        _ = state.submit("b", entryCount: 1, endingAt: nil)
        #expect(state.nextStep(now: 30_000) == .prepare(["b"], into: ["a"]))
        #expect(state.prepared(["a", "b"], now: 60_000) == .write(["a", "b"]))
        #expect(state.submit("c", entryCount: 1, endingAt: nil) == .none, "the writer is running")
    }

    @Test("with nothing gathered at the deadline the writer stops; started again, it waits for the group again")
    func stopsAtTheDeadline() {
        var state = Self.afterGroup(2, commit: 10_000)
        #expect(state.nextStep(now: 100) == .wait(until: 10_100))
        #expect(state.nextStep(now: 10_100) == .stop)
        #expect(state.phase == .idle)
        #expect(state.gathering?.deadline == nil)
        #expect(state.submit("late", entryCount: 1, endingAt: nil) == .startWriter)
        #expect(state.nextStep(now: 50_000) == .startGroup(["late"], after: Self.emptyEnd))
        #expect(state.prepared(["late"], now: 50_000) == .wait(until: 60_000))
        #expect(state.nextStep(now: 60_000) == .write(["late"]))
        state.committedAppends(end: Self.emptyEnd, commitNanoseconds: 10_000)
        _ = state.submit("alone", entryCount: 1, endingAt: nil)
        #expect(state.nextStep(now: 70_000) == .startGroup(["alone"], after: Self.emptyEnd))
        #expect(state.prepared(["alone"], now: 70_000) == .write(["alone"]), "a group of one does not wait")
    }

    @Test("the wait lasts as long as the commit took, never more than the longest group wait")
    func waitIsBounded() {
        var slow = Self.afterGroup(4, commit: 20_000_000)
        #expect(slow.memory.groupWait == State.longestGroupWait)
        #expect(slow.nextStep(now: 5) == .wait(until: 5 + State.longestGroupWait))
        var fast = Self.afterGroup(4, commit: 1_000)
        #expect(fast.nextStep(now: 5) == .wait(until: 5 + 1_000))
    }

    @Test("a lone appender, a failed transaction and a full group's entries never wait")
    func noWait() {
        var alone = Self.afterGroup(1)
        #expect(alone.memory.groupWait == nil)
        #expect(alone.nextStep(now: 1_000_000) == .stop)

        var failed = Self.afterGroup(8)
        let eight = (0..<8).map { "x\($0)" }
        for append in eight {
            _ = failed.submit(append, entryCount: 1, endingAt: nil)
        }
        _ = failed.nextStep(now: 0)
        #expect(failed.prepared(eight, now: 0) == .write(eight))
        failed.failedAppends()
        #expect(failed.memory.groupWait == nil)
        #expect(failed.memory.lastGroupSize == 0)
        #expect(failed.memory.end == nil)
        _ = failed.submit("a", entryCount: 1, endingAt: nil)
        #expect(failed.nextStep(now: 1_000_000) == .startGroup(["a"], after: nil))
        #expect(failed.prepared(["a"], now: 1_000_000) == .write(["a"]))

        var full = Self.afterGroup(8)
        _ = full.submit("batch", entryCount: State.groupEntriesLimit, endingAt: nil)
        #expect(full.nextStep(now: 1_000_000) == .startGroup(["batch"], after: Self.emptyEnd))
        #expect(full.prepared(["batch"], now: 1_000_000) == .write(["batch"]))
    }

    @Test("a drop submitted while the writer waits for a group wakes it and ends the group")
    func dropWakes() {
        var state = Self.afterGroup(8)
        _ = state.submit("a", entryCount: 1, endingAt: nil)
        #expect(state.nextStep(now: 1_000_000) == .startGroup(["a"], after: Self.emptyEnd))
        guard case .wait = state.prepared(["a"], now: 1_000_000) else {
            Issue.record("expected a wait")
            return
        }
        #expect(state.submit(drop: "d") == .wakeWriter)
        #expect(state.nextStep(now: 1_000_001) == .write(["a"]))
        state.committedAppends(end: Self.emptyEnd, commitNanoseconds: 0)
        #expect(state.nextStep(now: 1_000_002) == .drop("d"))
    }

    @Test("commits count append and drop transactions; the group size is the last append transaction's")
    func counts() {
        var state = Self.afterGroup(5, commit: 1)
        _ = state.submit(drop: "d")
        #expect(state.nextStep(now: 0) == .drop("d"))
        state.committedDrop()
        for append in ["a", "b"] {
            _ = state.submit(append, entryCount: 1, endingAt: nil)
        }
        _ = state.nextStep(now: 1)
        #expect(state.prepared(["a", "b"], now: 2) == .write(["a", "b"]), "the deadline has passed")
        state.committedAppends(end: Self.emptyEnd, commitNanoseconds: 1)
        #expect(state.memory.commits == 3)
        #expect(state.memory.lastGroupSize == 2)
        for append in ["c", "d"] {
            _ = state.submit(append, entryCount: 1, endingAt: nil)
        }
        _ = state.nextStep(now: 10)
        #expect(state.prepared(["c", "d"], now: 11) == .write(["c", "d"]))
        state.failedAppends()
        #expect(state.memory.commits == 3)
    }

    @Test("a drop that fails counts no commit and leaves the writer running")
    func failedDrop() {
        var state = State()
        _ = state.submit(drop: "d")
        _ = state.submit("a", entryCount: 1, endingAt: nil)
        #expect(state.nextStep(now: 0) == .drop("d"))
        state.failedDrop()
        #expect(state.memory.commits == 0)
        #expect(state.phase == .running)
        #expect(state.nextStep(now: 0) == .startGroup(["a"], after: nil))
    }

    @Test(
        "an event the state cannot take is a precondition failure",
        arguments: [
            "a step while preparing", "a group back while running", "a commit while idle", "a drop while writing",
        ])
    func impossibleTransitions(_ event: String) async {
        await #expect(processExitsWith: .failure) { [event] in
            var state = State()
            switch event {
            case "a step while preparing":
                _ = state.submit("a", entryCount: 1, endingAt: nil)
                _ = state.nextStep(now: 0)
                _ = state.nextStep(now: 0)
            case "a group back while running":
                _ = state.submit("a", entryCount: 1, endingAt: nil)
                _ = state.prepared(["a"], now: 0)
            case "a commit while idle":
                state.committedAppends(end: Self.emptyEnd, commitNanoseconds: 0)
            default:
                _ = state.submit("a", entryCount: 1, endingAt: nil)
                _ = state.nextStep(now: 0)
                _ = state.prepared(["a"], now: 0)
                state.committedDrop()
            }
        }
    }
}
