import Testing

@testable import ChangeLog

/// The live feed's state machine on its own, without a log or tasks that do anything: members
/// take nothing, revisions are numbers the tests choose.
@Suite("Live feed state")
struct LiveFeedStateTests {
    typealias State = RecordFeed.StateMachine

    static func member(after: UInt64) -> RecordFeed.Member {
        RecordFeed.Member(after: after, receive: { _ in true }, end: { _ in })
    }

    /// The ids of the members a publication pushes to, sorted.
    static func pushed(_ action: State.PublishAction) -> [UInt64]? {
        if case .push(let members) = action { members.keys.sorted() } else { nil }
    }

    /// Starts `state`'s feed by member 1 after revision `after` with `latest` stored, installs
    /// its task, and returns its generation.
    static func start(_ state: inout State, after: UInt64, latest: UInt64) -> UInt64 {
        guard case .start(let generation, _) = state.join(1, member(after: after), latestStored: latest) else {
            Issue.record("the first join did not start the feed")
            return 0
        }
        let installed = state.install(Task {}, generation: generation)
        #expect(installed)
        return generation
    }

    @Test("the first join starts the feed after the member's last revision, or after the latest stored when earlier")
    func firstJoinStarts() {
        var state = State()
        #expect(state.published == nil)
        let started = state.join(1, Self.member(after: 5), latestStored: 5)
        #expect(started == .start(generation: 1, from: 6))
        #expect(state.published == 5)
        #expect(state.members.count == 1)

        // A start after the latest revision: the feed reads from the log's end, the member skips.
        var ahead = State()
        let aheadJoin = ahead.join(1, Self.member(after: 99), latestStored: 7)
        #expect(aheadJoin == .start(generation: 1, from: 8))
        #expect(ahead.published == 7)
        // A member that sent less than what is stored now: the feed reads the rest for it.
        var behind = State()
        let behindJoin = behind.join(1, Self.member(after: 3), latestStored: 7)
        #expect(behindJoin == .start(generation: 1, from: 4))
    }

    @Test("a member joins a running feed only when it has sent every revision published")
    func joinsOnlyWhenCaughtUp() {
        var state = State()
        let generation = Self.start(&state, after: 5, latest: 5)
        let push6 = state.publish(6, generation: generation)
        #expect(Self.pushed(push6) == [1])
        let push7 = state.publish(7, generation: generation)
        #expect(Self.pushed(push7) == [1])
        let earlyJoin = state.join(2, Self.member(after: 6), latestStored: 7)
        #expect(earlyJoin == .behind(published: 7))
        #expect(state.members.count == 1)
        let caughtUpJoin = state.join(2, Self.member(after: 7), latestStored: 7)
        #expect(caughtUpJoin == .joined)
        // Ahead of the feed (its task has not read what the member read): joins, and skips.
        let aheadJoin = state.join(3, Self.member(after: 9), latestStored: 9)
        #expect(aheadJoin == .joined)
        guard case .push(let members) = state.publish(8, generation: generation) else {
            Issue.record("revision 8 was not pushed")
            return
        }
        #expect(members.keys.sorted() == [1, 2, 3])
        #expect(members.values.filter { $0.after < 8 }.count == 2)
        #expect(state.published == 8)
    }

    @Test("revisions are published one after another; a gap stops the feed and ends every member")
    func gapStops() {
        var state = State()
        let generation = Self.start(&state, after: 3, latest: 3)
        _ = state.join(2, Self.member(after: 3), latestStored: 3)
        let push4 = state.publish(4, generation: generation)
        #expect(Self.pushed(push4) == [1, 2])
        guard case .gap(let expected, let members) = state.publish(6, generation: generation) else {
            Issue.record("a gap was published")
            return
        }
        #expect(expected == 5)
        #expect(members.keys.sorted() == [1, 2])
        #expect(state.published == nil)
        #expect(state.members.isEmpty)
    }

    @Test("a feed that started from revision 1 publishes whichever revision is the oldest first")
    func oldestFirst() {
        var state = State()
        let generation = Self.start(&state, after: 0, latest: 0)
        let push40 = state.publish(40, generation: generation)
        #expect(Self.pushed(push40) == [1])
        let push41 = state.publish(41, generation: generation)
        #expect(Self.pushed(push41) == [1])
        if case .gap = state.publish(43, generation: generation) {
        } else {
            Issue.record("revision 43 after 41 was published")
        }
    }

    @Test("the last member to leave stops the feed and gets its task to cancel; others leave quietly")
    func lastLeaveStops() {
        var state = State()
        _ = Self.start(&state, after: 2, latest: 2)
        _ = state.join(2, Self.member(after: 2), latestStored: 2)
        let firstLeave = state.leave(1)
        #expect(firstLeave == nil)
        let secondLeave = state.leave(1)
        #expect(secondLeave == nil)
        let strangerLeave = state.leave(7)
        #expect(strangerLeave == nil)
        #expect(state.published == 2)
        let lastLeave = state.leave(2)
        #expect(lastLeave != nil)
        #expect(state.published == nil)
        #expect(state.members.isEmpty)
        #expect(state.lastTask != nil)
    }

    @Test("a task whose members all left before it was installed is refused, to be cancelled")
    func installAfterEveryoneLeft() {
        var state = State()
        guard case .start(let generation, _) = state.join(1, Self.member(after: 0), latestStored: 0) else {
            Issue.record("the first join did not start the feed")
            return
        }
        let lastLeave = state.leave(1)
        #expect(lastLeave == nil)
        let installed = state.install(Task {}, generation: generation)
        #expect(!installed)
        #expect(state.lastTask == nil)
    }

    @Test("a restarted feed is a new generation: the old task's publications and failure change nothing")
    func restartIsANewGeneration() {
        var state = State()
        let first = Self.start(&state, after: 4, latest: 4)
        let lastLeave = state.leave(1)
        #expect(lastLeave != nil)
        guard case .start(let second, let start) = state.join(2, Self.member(after: 9), latestStored: 9) else {
            Issue.record("the join after the last leave did not start the feed")
            return
        }
        #expect(second != first)
        #expect(start == 10)
        guard case .stale = state.publish(5, generation: first) else {
            Issue.record("the stopped generation published")
            return
        }
        let oldFailure = state.fail(generation: first)
        #expect(oldFailure.members.isEmpty)
        #expect(oldFailure.run == nil)
        let oldInstalled = state.install(Task {}, generation: first)
        #expect(!oldInstalled)
        let newInstalled = state.install(Task {}, generation: second)
        #expect(newInstalled)
        #expect(state.published == 9)
        let push10 = state.publish(10, generation: second)
        #expect(Self.pushed(push10) == [2])
    }

    @Test("a failure stops the feed and returns every member, whose streams end")
    func failureEndsEveryMember() {
        var state = State()
        let generation = Self.start(&state, after: 1, latest: 1)
        _ = state.join(2, Self.member(after: 1), latestStored: 1)
        _ = state.join(3, Self.member(after: 5), latestStored: 5)
        let failed = state.fail(generation: generation)
        #expect(failed.members.keys.sorted() == [1, 2, 3])
        #expect(failed.run != nil)
        #expect(state.published == nil)
        #expect(state.members.isEmpty)
        // The next join starts a new feed.
        let restarted = state.join(4, Self.member(after: 1), latestStored: 1)
        #expect(restarted == .start(generation: generation + 1, from: 2))
    }
}
