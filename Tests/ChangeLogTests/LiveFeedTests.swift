import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// The log's shared live feed on real logs: subscriptions handing over to it while a writer
/// appends, each revision read once for all of them, a subscriber that falls behind, and where
/// the reading runs for a subscriber on the main actor.
@Suite("Live feed", .timeLimit(.minutes(10)))
struct LiveFeedTests {
    /// Subscribes from `start` and collects the revisions up to `last`, checking the caught-up
    /// marker on the way.
    static func follow(_ log: ChangeLog, from start: UInt64, until last: UInt64, batchSize: Int) -> Task<
        [UInt64], any Error
    > {
        Task.detached {
            var revisions: [UInt64] = []
            var markers = 0
            for try await event in log.subscribe(from: start, batchSize: batchSize) {
                switch event {
                case .revision(let record):
                    revisions.append(record.revision)
                    if record.revision >= last { return revisions }
                case .caughtUp:
                    markers += 1
                    #expect(markers == 1)
                }
            }
            return revisions
        }
    }

    @Test(
        "subscriptions joining at random starts while a writer appends each get start…latest once, in order",
        arguments: [1, 3, 64])
    func randomStartsWhileAppending(batchSize: Int) async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync))
            _ = try await appendRevisions(10, to: log)
            let last: UInt64 = 300
            var random = SeededGenerator(seed: UInt64(batchSize))
            var subscribers: [(start: UInt64, task: Task<[UInt64], any Error>)] = []
            for n in 11...last {
                _ = try await appendRevisions(1, to: log, startingAt: Int(n) - 1)
                if n % 5 == 0 {
                    // From anywhere between the oldest revision and two after the latest.
                    let start = random.next() % (n + 2) + 1
                    subscribers.append((start, Self.follow(log, from: start, until: last, batchSize: batchSize)))
                }
            }
            #expect(subscribers.count > 50)
            for (start, task) in subscribers {
                #expect(try await task.value == Array(start...last), "from \(start)")
            }
            // Every subscription left: the feed stopped, and with it the watcher.
            #expect(log.feed.memberCount == 0)
            await log.feed.lastTask?.value
            #expect(!log.feed.isRunning)
            #expect(log.notifier.listenerCount == 0)
        }
    }

    @Test("a live revision is read and decoded once, however many subscriptions follow it")
    func oneReadForEverySubscriber() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync))
            _ = try await appendRevisions(2, to: log)
            let subscribers = (0..<40).map { _ in Self.follow(log, from: 3, until: 22, batchSize: 64) }
            // Once every subscription follows the feed, nothing is read but by the feed.
            try await waitUntil { log.feed.memberCount == subscribers.count }
            let before = log.feed.publicationCount
            _ = try await appendRevisions(20, to: log, startingAt: 2)
            for subscriber in subscribers {
                #expect(try await subscriber.value == Array(3...22))
            }
            #expect(log.feed.publicationCount - before == 20)
        }
    }

    @Test("a subscriber that does not keep up leaves the feed, reads the log itself, and still gets every revision")
    func slowSubscriberFallsBehindAndRecovers() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync))
            _ = try await appendRevisions(1, to: log)
            var slow = log.subscribe(from: 1, batchSize: 4).makeAsyncIterator()
            #expect(try await events(2, from: &slow) == ["1", "caughtUp 1"])
            let fast = Self.follow(log, from: 2, until: 101, batchSize: 4)
            // The slow one joins the feed while it waits for revision 2, then stops reading.
            let appending = Task {
                try await waitUntil { log.feed.memberCount == 2 }
                _ = try await appendRevisions(1, to: log, startingAt: 1)
            }
            #expect(try await records(1, from: &slow).map(\.revision) == [2])
            try await appending.value
            _ = try await appendRevisions(99, to: log, startingAt: 2)
            #expect(try await fast.value == Array(2...101))
            // Its queue of 4 overflowed long ago: the feed dropped it and went on for the other.
            #expect(log.feed.memberCount == 0)
            #expect(try await records(99, from: &slow).map(\.revision) == Array(3...101))
        }
    }

    /// A `@MainActor` subscriber receives records on the main actor, but they are read and
    /// decoded elsewhere: by the subscription on the cooperative pool while it catches up, by
    /// the feed's task when live. The probe records the threads of the reads, the loop body
    /// the main actor's; reading directly on the main actor shows that the probe sees it.
    @MainActor
    @Test("a subscriber on the main actor never reads or decodes on the main actor's thread")
    func mainActorSubscriberDecodesOffTheMainActor() async throws {
        // Not `withTemporaryDirectory`, whose body would leave the main actor.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ChangeLogTests-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try ChangeLog(path: path, options: .init(durability: .noSync))
        _ = try await appendRevisions(150, to: log)
        ReadingProbe.start()
        var control = RevisionCursor(store: log.store, next: 1, batchSize: 8)
        _ = try control.read(upTo: nil)
        #expect(ReadingProbe.stop().contains(ReadingProbe.currentThread))

        var mainActorThreads: Set<UInt> = []
        var revisions: [UInt64] = []
        var appending: Task<Void, any Error>?
        ReadingProbe.start()
        // `for try await` on the main actor: `next(isolation:)` with the main actor.
        for try await event in log.subscribe(from: 1, batchSize: 16) {
            MainActor.assertIsolated()
            mainActorThreads.insert(ReadingProbe.currentThread)
            switch event {
            case .revision(let record):
                revisions.append(record.revision)
            case .caughtUp(let latest):
                #expect(latest == 150)
                appending = Task.detached {
                    try await waitUntil { log.feed.memberCount == 1 }
                    _ = try await appendRevisions(30, to: log, startingAt: 150)
                }
            }
            if revisions.last == 180 { break }
        }
        let readThreads = ReadingProbe.stop()
        try await appending?.value
        #expect(revisions == Array(1...180))
        #expect(!readThreads.isEmpty)
        #expect(
            readThreads.isDisjoint(with: mainActorThreads), "reads on \(readThreads), main actor on \(mainActorThreads)"
        )
    }
}
