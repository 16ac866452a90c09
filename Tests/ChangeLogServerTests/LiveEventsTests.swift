import ChangeLog
import ChangeLogTestSupport
import ListAdapter
import Testing

@testable import ChangeLogServer

/// The streams of a router following the log's live feed, on a real log, without HTTP: streams
/// are ``SubscriberBuffer``s that the tests drain themselves, each following the log through
/// ``LiveEvents/follow(from:variant:as:into:)`` as an `/api/subscribe` stream does.
@Suite struct LiveEventsTests {
    /// One stream: a member of the log's feed that follows the log from `start` into its own
    /// buffer, and a task that drains the buffer until it holds revision `last` or ends.
    struct Follower {
        let id: LiveFeed.MemberID
        let buffer: SubscriberBuffer
        let start: UInt64
        let variant: EventVariant
        let received: Task<[EventStreamMessage], Never>

        init(
            _ events: LiveEvents, from start: UInt64, until last: UInt64, variant: EventVariant = .full,
            limit: Int = 64 << 20
        ) {
            let id = events.makeMemberID(variant)
            let buffer = SubscriberBuffer(limit: limit)
            self.id = id
            self.buffer = buffer
            self.start = start
            self.variant = variant
            received = Task {
                async let following: Void = events.follow(from: start, variant: variant, as: id, into: buffer)
                let messages = await LiveEventsTests.drain(buffer, until: last)
                await following
                return messages
            }
        }

        /// The messages received, once the last one arrived or the buffer ended; the member then
        /// leaves its feed, as a stream does when it ends.
        func messages(leaving events: LiveEvents) async -> [EventStreamMessage] {
            let messages = await received.value
            events.leave(id, variant)
            return messages
        }
    }

    /// The messages taken from `buffer` until the one of revision `last`, or until it ends.
    static func drain(_ buffer: SubscriberBuffer, until last: UInt64?) async -> [EventStreamMessage] {
        var messages: [EventStreamMessage] = []
        while let event = await buffer.next() {
            let message = EventStreamMessage.parse(body: String(buffer: event))
            messages += message
            if let last, message.contains(where: { $0.id == "\(last)" }) { break }
        }
        return messages
    }

    /// The revision ids of `messages`, as numbers.
    static func ids(_ messages: [EventStreamMessage]) -> [UInt64] {
        messages.compactMap { $0.id.flatMap(UInt64.init) }
    }

    @Test(.timeLimit(.minutes(5)))  // A guard against a hang, not a performance check.
    func streamsJoiningWhileAWriterAppendsGetEveryRevisionOnce() async throws {
        try await ServerFixtures.withLog { log in
            let events = LiveEvents(log: log)
            try await ServerFixtures.append(1...20, to: log)
            let last: UInt64 = 400
            var random = SplitMix64(seed: 22)
            var followers: [Follower] = []
            // Streams start every few appends, from anywhere between the oldest revision and two
            // after the latest, while the appends go on.
            for n in 21...Int(last) {
                _ = try await log.append(ServerFixtures.snapshot(n), meta: ["n": "\(n)"])
                if n % 9 == 0 {
                    let start = random.next() % (UInt64(n) + 2) + 1
                    let variant: EventVariant = random.next() % 2 == 0 ? .full : .changesOnly
                    followers.append(Follower(events, from: start, until: last, variant: variant))
                }
            }
            #expect(followers.count > 40)
            var lines: [EventVariant: [UInt64: String]] = [:]
            for revision in 1...last {
                let record = try log.record(at: revision)
                lines[.full, default: [:]][revision] = RevisionLines.line(record)
                lines[.changesOnly, default: [:]][revision] = RevisionLines.changesOnlyLine(record)
            }
            for follower in followers {
                let messages = await follower.messages(leaving: events)
                #expect(Self.ids(messages) == Array(follower.start...last), "from \(follower.start)")
                #expect(messages.allSatisfy { $0.event == "revision" })
                let linesMatch = messages.map(\.data) == Self.ids(messages).map { lines[follower.variant]![$0] }
                #expect(linesMatch, "from \(follower.start): the events' data are the \(follower.variant) lines")
            }
            // Full streams followed the feed of full records, changes-only ones the feed of changes.
            #expect(log.feed.memberCount == 0 && log.changesFeed.memberCount == 0)
            await log.feed.lastTask?.value
            await log.changesFeed.lastTask?.value
            #expect(!log.feed.isRunning && !log.changesFeed.isRunning)
            #expect(log.feed.publicationCount > 0 && log.changesFeed.publicationCount > 0)
        }
    }

    @Test func aMemberThatOverflowsIsClosedWhileTheOthersReceiveEveryRevision() async throws {
        try await ServerFixtures.withLog { log in
            let events = LiveEvents(log: log)
            let feed = log.feed
            try await ServerFixtures.append(1...1, to: log)
            // The slow member holds at most about two events and is never drained while live.
            let slowID = feed.makeMemberID()
            let slow = SubscriberBuffer(limit: 1200)
            await events.follow(from: 2, variant: .full, as: slowID, into: slow)
            let fast = (0..<3).map { _ in Follower(events, from: 1, until: 30) }
            try await ServerFixtures.append(2...30, to: log, itemsPerSection: 8)
            for follower in fast {
                #expect(Self.ids(await follower.messages(leaving: events)) == Array(1...30))
            }
            let slowMessages = await Self.drain(slow, until: nil)
            feed.leave(slowID)
            #expect(slowMessages == [EventStreamMessage(comment: Self.overflowComment(limit: 1200))])
            await feed.lastTask?.value
            #expect(!feed.isRunning)
        }
    }

    static func overflowComment(limit: Int) -> String {
        "closed: this subscriber reads too slowly; more than \(limit) bytes of events were waiting for it; "
            + "reconnect with Last-Event-ID to resume after the last revision received"
    }

    @Test func theFeedStopsWhenTheLastMemberLeavesAndANewMemberMissesNothing() async throws {
        try await ServerFixtures.withLog { log in
            let events = LiveEvents(log: log)
            let feed = log.feed
            try await ServerFixtures.append(1...2, to: log)
            let first = [Follower(events, from: 1, until: 5), Follower(events, from: 3, until: 5)]
            try await ServerFixtures.append(3...5, to: log)
            #expect(Self.ids(await first[0].messages(leaving: events)) == [1, 2, 3, 4, 5])
            #expect(Self.ids(await first[1].messages(leaving: events)) == [3, 4, 5])
            let stopped = try #require(feed.lastTask)
            await stopped.value
            #expect(!feed.isRunning)
            // Appended while nobody follows, then live for a new member of a new run.
            try await ServerFixtures.append(6...8, to: log)
            let second = Follower(events, from: 4, until: 11)
            try await ServerFixtures.append(9...11, to: log)
            #expect(Self.ids(await second.messages(leaving: events)) == Array(4...11))
            #expect(feed.lastTask != stopped)
            await feed.lastTask?.value
            #expect(!feed.isRunning)
        }
    }

    @Test func aReadErrorOfTheFeedEndsEveryMembersStream() async throws {
        try await ServerFixtures.withLog { log in
            let events = LiveEvents(log: log)
            let feed = log.feed
            try await ServerFixtures.append(1...8, to: log)
            _ = try await log.dropRevisions(before: 6)
            // Members that sent up to revision 2 before retention dropped 3 to 5: the feed's
            // reading from revision 3 fails.
            let members = (0..<3).map { _ in (feed.makeMemberID(), SubscriberBuffer(limit: 1 << 20)) }
            for (id, buffer) in members {
                _ = feed.join(id, events.member(after: 2, into: buffer), latestStored: 2)
            }
            for (id, buffer) in members {
                let messages = await Self.drain(buffer, until: nil)
                feed.leave(id)
                #expect(messages.count == 1)
                let comment = try #require(messages.last?.comment)
                #expect(comment.hasPrefix("closed: the log could not be read: "), "\(comment)")
                #expect(comment.contains("3"), "\(comment)")
            }
            await feed.lastTask?.value
            #expect(!feed.isRunning)
            #expect(feed.memberCount == 0)
        }
    }
}
