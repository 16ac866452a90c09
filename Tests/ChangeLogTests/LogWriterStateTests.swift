import ListAdapter
import Testing

@testable import ChangeLog

/// The writer's state machine on its own, without LMDB or threads: requests are strings, time is
/// a number of nanoseconds the tests choose.
@Suite("Log writer state")
struct LogWriterStateTests {
    typealias State = LogWriterState<String, String>

    /// A one-section snapshot with one item named `tag`.
    static func snapshot(_ tag: String) throws -> LogSnapshot {
        try LogSnapshot(sections: [.init(title: "S", items: [.init(id: tag)])])
    }

    /// `state` after a committed append transaction of `groupSize` requests whose commit took
    /// `commit` nanoseconds and ended at `end`.
    static func afterGroup(_ groupSize: Int, commit: UInt64 = 400_000, end: UInt64 = 1_000_000) -> State {
        var state = State()
        _ = state.submit("previous", entryCount: 1, endingAt: nil)
        _ = state.nextStep(now: 0)
        state.committedAppends(groupSize: groupSize, latest: nil, commitNanoseconds: commit, now: end)
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

    @Test("a step takes every append before the first drop; the drop runs alone, then the rest")
    func stepsInOrder() throws {
        var state = State()
        _ = state.submit("a", entryCount: 1, endingAt: nil)
        _ = state.submit("b", entryCount: 300, endingAt: nil)
        _ = state.submit(drop: "d")
        _ = state.submit("c", entryCount: 1, endingAt: nil)
        guard case .write(let first) = state.nextStep(now: 0) else { Issue.record("expected a write"); return }
        #expect(first == ["a", "b"])
        guard case .drop(let drop) = state.nextStep(now: 0) else { Issue.record("expected a drop"); return }
        #expect(drop == "d")
        guard case .write(let last) = state.nextStep(now: 0) else { Issue.record("expected a write"); return }
        #expect(last == ["c"])
        guard case .stop = state.nextStep(now: 0) else { Issue.record("expected to stop"); return }
        #expect(state.phase == .idle)
        #expect(state.pending.isEmpty)
        #expect(state.submit("e", entryCount: 1, endingAt: nil) == .startWriter)
    }

    @Test("requests join a transaction being built while they fit, never past a drop")
    func joining() {
        var state = State()
        _ = state.submit("a", entryCount: 1, endingAt: nil)
        _ = state.nextStep(now: 0)
        #expect(state.join(room: 10) == [])
        _ = state.submit("b", entryCount: 4, endingAt: nil)
        _ = state.submit("c", entryCount: 4, endingAt: nil)
        _ = state.submit("d", entryCount: 4, endingAt: nil)
        #expect(state.join(room: 3) == nil, "the next request does not fit")
        #expect(state.join(room: 0) == nil, "the transaction is full")
        #expect(state.join(room: 9) == ["b", "c"])
        _ = state.submit(drop: "x")
        #expect(state.join(room: 100) == ["d"])
        #expect(state.join(room: 100) == nil, "a drop never joins")
        #expect(state.phase == .running)
        guard case .drop("x") = state.nextStep(now: 0) else { Issue.record("expected the drop"); return }
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
        _ = state.nextStep(now: 0)
        let latest = LatestRevision(
            revision: 7, checksum: 0, stored: StoredSnapshot(snapshot: stored, sections: [], runs: []))
        state.committedAppends(groupSize: 1, latest: latest, commitNanoseconds: 1, now: 1)
        #expect(state.tail == b, "the tail stays while the writer runs")
        guard case .stop = state.nextStep(now: 2) else { Issue.record("expected to stop"); return }
        #expect(state.tail == stored)
        #expect(state.latest?.revision == 7)
    }

    @Test("after a group, the writer waits before the transaction until as many requests are pending")
    func waitsForTheGroup() {
        var state = Self.afterGroup(3, commit: 400_000, end: 1_000_000)
        let deadline: UInt64 = 1_000_000 + 400_000
        #expect(state.groupDeadline == deadline)
        guard case .wait(until: deadline) = state.nextStep(now: 1_000_000) else {
            Issue.record("expected a wait for the group's first request")
            return
        }
        #expect(state.submit("a", entryCount: 1, endingAt: nil) == .none)
        #expect(state.submit("b", entryCount: 1, endingAt: nil) == .none)
        #expect(state.phase == .waiting(until: deadline))
        #expect(state.submit("c", entryCount: 1, endingAt: nil) == .wakeWriter)
        #expect(state.phase == .running)
        guard case .write(let group) = state.nextStep(now: 1_030_000) else { Issue.record("expected a write"); return }
        #expect(group == ["a", "b", "c"])
        #expect(state.groupDeadline == nil)
    }

    @Test("an early wake-up waits again until the same deadline; at the deadline, what is pending is written")
    func deadline() {
        var state = Self.afterGroup(8, commit: 50_000, end: 0)
        _ = state.submit("a", entryCount: 1, endingAt: nil)
        guard case .wait(until: 50_000) = state.nextStep(now: 10_000) else { Issue.record("expected a wait"); return }
        // A late signal from an earlier wait ends this one early: the state says to wait again.
        guard case .wait(until: 50_000) = state.nextStep(now: 20_000) else { Issue.record("expected a wait"); return }
        _ = state.submit("b", entryCount: 1, endingAt: nil)
        guard case .write(let group) = state.nextStep(now: 50_000) else { Issue.record("expected a write"); return }
        #expect(group == ["a", "b"])
        #expect(state.submit("c", entryCount: 1, endingAt: nil) == .none, "the writer is running")
    }

    @Test("with nothing pending at the deadline, the writer gives its queue up")
    func stopsAtTheDeadline() {
        var state = Self.afterGroup(2, commit: 10_000, end: 100)
        guard case .wait(until: 10_100) = state.nextStep(now: 100) else { Issue.record("expected a wait"); return }
        guard case .stop = state.nextStep(now: 10_100) else { Issue.record("expected to stop"); return }
        #expect(state.phase == .idle)
        #expect(state.submit("late", entryCount: 1, endingAt: nil) == .startWriter)
        guard case .write(["late"]) = state.nextStep(now: 10_200) else { Issue.record("expected a write"); return }
    }

    @Test("the wait lasts as long as the commit took, never more than the longest group wait")
    func waitIsBounded() {
        let slow = Self.afterGroup(4, commit: 20_000_000, end: 5)
        #expect(slow.groupDeadline == 5 + State.longestGroupWait)
        let fast = Self.afterGroup(4, commit: 1_000, end: 5)
        #expect(fast.groupDeadline == 5 + 1_000)
    }

    @Test("a lone appender, a failed transaction and a drop at the front never wait")
    func noWait() {
        var alone = Self.afterGroup(1)
        #expect(alone.groupDeadline == nil)
        guard case .stop = alone.nextStep(now: 1_000_000) else { Issue.record("expected to stop"); return }

        var failed = Self.afterGroup(8)
        failed.failedAppends()
        #expect(failed.groupDeadline == nil)
        #expect(failed.lastGroupSize == 0)
        _ = failed.submit("a", entryCount: 1, endingAt: nil)
        guard case .write(["a"]) = failed.nextStep(now: 1_000_000) else { Issue.record("expected a write"); return }

        var dropping = Self.afterGroup(8)
        _ = dropping.submit(drop: "d")
        guard case .drop("d") = dropping.nextStep(now: 1_000_000) else { Issue.record("expected the drop"); return }
    }

    @Test("a drop submitted while the writer waits for a group wakes it")
    func dropWakes() {
        var state = Self.afterGroup(8)
        _ = state.submit("a", entryCount: 1, endingAt: nil)
        guard case .wait = state.nextStep(now: 1_000_000) else { Issue.record("expected a wait"); return }
        #expect(state.submit(drop: "d") == .wakeWriter)
        guard case .write(["a"]) = state.nextStep(now: 1_000_001) else { Issue.record("expected a write"); return }
        guard case .drop("d") = state.nextStep(now: 1_000_002) else { Issue.record("expected the drop"); return }
    }

    @Test("commits count append and drop transactions; the group size is the last append transaction's")
    func counts() {
        var state = State()
        state.committedAppends(groupSize: 5, latest: nil, commitNanoseconds: 1, now: 1)
        state.committedDrop()
        state.committedAppends(groupSize: 2, latest: nil, commitNanoseconds: 1, now: 2)
        #expect(state.commits == 3)
        #expect(state.lastGroupSize == 2)
        state.failedAppends()
        #expect(state.commits == 3)
    }
}
