import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// `subscribeChanges(from:batchSize:)` on real logs: what it delivers is the full subscription's
/// records without their snapshots, with the same handover, across processes, and it reads no
/// snapshot chunk, stored or live.
@Suite("Changes subscriptions", .timeLimit(.minutes(10)))
struct ChangesSubscriptionTests {
    /// A log holding `count` revisions of the random history seeded with `seed`, some with meta.
    static func makeLog(at path: String, seed: UInt64, count: Int) async throws -> (ChangeLog, [LogSnapshot]) {
        let log = try ChangeLog(path: path, options: .init(durability: .noSync))
        let snapshots = RandomHistory.snapshots(seed: seed, count: count)
        try await appendWithMeta(snapshots[..<(count / 2)], to: log, from: 0)
        return (log, snapshots)
    }

    /// Appends `snapshots`, every third without meta, numbering the meta from `offset`.
    static func appendWithMeta(_ snapshots: ArraySlice<LogSnapshot>, to log: ChangeLog, from offset: Int) async throws {
        for (step, snapshot) in snapshots.enumerated() {
            let n = offset + step
            _ = try await log.append(snapshot, meta: n % 3 == 0 ? [:] : ["step": "\(n)", "é": "ü"])
        }
    }

    /// The next `count` events of a full subscription, as the changes subscription should give them.
    static func expected(_ count: Int, from iterator: inout LogSubscription.Iterator) async throws
        -> [ChangesSubscription.Event]
    {
        var events: [ChangesSubscription.Event] = []
        for _ in 0..<count {
            switch try await iterator.next() {
            case .revision(let record): events.append(.revision(RevisionChanges(record)))
            case .caughtUp(let latest): events.append(.caughtUp(latest: latest))
            case nil: return events
            }
        }
        return events
    }

    /// The next `count` events of a changes subscription.
    static func take(_ count: Int, from iterator: inout ChangesSubscription.Iterator) async throws
        -> [ChangesSubscription.Event]
    {
        var events: [ChangesSubscription.Event] = []
        for _ in 0..<count {
            guard let event = try await iterator.next() else { break }
            events.append(event)
        }
        return events
    }

    @Test(
        "a changes subscription delivers the full subscription's records without their snapshots, stored then live",
        arguments: [(1, 1), (7, 3), (64, 40)] as [(Int, UInt64)])
    func sameAsFullSubscription(batchSize: Int, start: UInt64) async throws {
        try await withTemporaryDirectory { path in
            let (log, snapshots) = try await Self.makeLog(at: path, seed: UInt64(batchSize), count: 120)
            var full = log.subscribe(from: start, batchSize: batchSize).makeAsyncIterator()
            var changes = log.subscribeChanges(from: start, batchSize: batchSize).makeAsyncIterator()
            // The backlog and the marker.
            let stored = Int(60 - start + 2)
            let expectedStored = try await Self.expected(stored, from: &full)
            #expect(expectedStored.last == .caughtUp(latest: 60))
            #expect(try await Self.take(stored, from: &changes) == expectedStored)
            // Live: appended once both follow their feeds, which read them.
            let live = Task { [changes] in
                var changes = changes
                return try await Self.take(60, from: &changes)
            }
            let expectedLive = Task { [full] in
                var full = full
                return try await Self.expected(60, from: &full)
            }
            try await waitUntil { log.changesFeed.memberCount == 1 && log.feed.memberCount == 1 }
            try await Self.appendWithMeta(snapshots[60...], to: log, from: 60)
            #expect(try await expectedLive.value.count == 60)
            #expect(try await live.value == expectedLive.value)
            #expect(log.changesFeed.publicationCount > 0)
        }
    }

    @Test(
        "while appenders race with the catch-up, every revision's changes arrive exactly once and in order",
        arguments: [1, 7, 64])
    func racingAppends(batchSize: Int) async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync))
            let appenders = 4
            let perAppender = 100
            let total = UInt64(appenders * perAppender)
            let appending = Task {
                try await withThrowingTaskGroup { group in
                    for appender in 0..<appenders {
                        group.addTask {
                            for step in 0..<perAppender {
                                let snapshot = try makeSnapshot(
                                    sections: 2, itemsPerSection: 3, version: appender * perAppender + step)
                                _ = try await log.append(snapshot)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            var subscribers: [Task<[ChangesSubscription.Event], any Error>] = []
            for joinAt: UInt64 in [0, 40, 250] {
                try await waitUntil { ((try? log.latestRevision) ?? 0) >= joinAt }
                subscribers.append(
                    Task {
                        var events: [ChangesSubscription.Event] = []
                        for try await event in log.subscribeChanges(from: 1, batchSize: batchSize) {
                            events.append(event)
                            if case .revision(let revision) = event, revision.revision == total { break }
                        }
                        return events
                    })
            }
            try await appending.value
            var expected: [RevisionChanges] = []
            for try await revision in log.changes(in: 1...total) { expected.append(revision) }
            for subscriber in subscribers {
                let events = try await subscriber.value
                let revisions = events.compactMap { event in
                    if case .revision(let revision) = event { revision } else { nil }
                }
                #expect(revisions == expected)
                let caughtUp = events.enumerated().compactMap { offset, event in
                    if case .caughtUp(let latest) = event { (offset, latest) } else { nil }
                }
                #expect(caughtUp.count == 1)
                if let (offset, latest) = caughtUp.first {
                    #expect(offset == Int(latest))
                }
                // The changes alone rebuild every snapshot.
                var snapshot = LogSnapshot()
                for revision in revisions {
                    snapshot = try snapshot.applying(revision.changes)
                }
                #expect(snapshot == (try log.snapshot(at: total)))
            }
            #expect(log.notifier.listenerCount == 0)
            #expect(log.changesFeed.memberCount == 0)
            await log.changesFeed.lastTask?.value
            #expect(!log.changesFeed.isRunning)
        }
    }

    @Test("appends by another process reach a changes subscription, each revision's changes once and in order")
    func anotherProcess() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let log = try ChangeLog(path: path)
            try await appendRevisions(5, to: log)
            var iterator = log.subscribeChanges(from: 3).makeAsyncIterator()
            let stored = try await Self.take(4, from: &iterator)
            #expect(stored.last == .caughtUp(latest: 5))
            let count = 150
            let worker = try WorkerProcess(["append", "--log", path, "--count", "\(count)"])
            let live = try await Self.take(count, from: &iterator)
            #expect(try await worker.waitForExit() == 0, "\(worker.errors)")
            var expected: [ChangesSubscription.Event] = []
            for try await revision in log.changes(in: 3...155) { expected.append(.revision(revision)) }
            expected.insert(.caughtUp(latest: 5), at: 3)
            #expect(stored + live == expected)
        }
    }

    @Test(
        "a changes subscriber that does not keep up leaves the feed, reads the log itself, and still gets every revision"
    )
    func slowSubscriber() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync))
            _ = try await appendRevisions(1, to: log)
            do {
                var slow = log.subscribeChanges(from: 1, batchSize: 4).makeAsyncIterator()
                #expect(try await Self.take(2, from: &slow).count == 2)
                // It joins the feed while it waits for revision 2, then stops reading.
                let appending = Task {
                    try await waitUntil { log.changesFeed.memberCount == 1 }
                    _ = try await appendRevisions(1, to: log, startingAt: 1)
                }
                let taken = try await Self.take(1, from: &slow)
                try await appending.value
                _ = try await appendRevisions(99, to: log, startingAt: 2)
                // Its queue of 4 overflowed: the feed dropped it.
                try await waitUntil { log.changesFeed.memberCount == 0 }
                let rest = try await Self.take(99, from: &slow)
                var expected: [ChangesSubscription.Event] = []
                for try await revision in log.changes(in: 2...101) { expected.append(.revision(revision)) }
                #expect(taken + rest == expected)
            }
            // Dropped: it left the feed and freed its listener.
            #expect(log.notifier.listenerCount == 0)

            // Cancelling the iterating task ends the subscription and frees its listener.
            let waiting = Task {
                var iterator = log.subscribeChanges(from: 102).makeAsyncIterator()
                #expect(try await iterator.next() == .caughtUp(latest: 101))
                return try await iterator.next()
            }
            try await waitUntil { log.changesFeed.memberCount == 1 }
            waiting.cancel()
            #expect(try await waiting.value == nil)
            #expect(log.changesFeed.memberCount == 0)
            #expect(log.notifier.listenerCount == 0)
        }
    }

    /// A snapshot of three sections of 40 items where only the last section's first item
    /// changes with `version`: a revision to the next shares the other sections' chunks.
    static func sharedSnapshot(version: Int) throws -> LogSnapshot {
        try LogSnapshot(
            sections: (0..<3).map { section in
                LogSnapshot.Section(
                    title: "Section \(section)",
                    items: (0..<40).map { item in
                        let changes = section == 2 && item == 0
                        return LogSnapshot.Item(
                            id: "item-\(section)-\(item)", summary: changes ? "version \(version)" : "fixed \(item)")
                    })
            })
    }

    /// Flips a byte in every snapshot chunk stored in `log`; returns how many there are.
    static func damageEveryChunk(of log: ChangeLog) throws -> Int {
        try log.store.environment.write { transaction in
            let chunks = try transaction.withCursor(in: log.store.chunks) { cursor in
                var chunks: [(key: [UInt8], value: [UInt8])] = []
                var more = try cursor.move(to: .first)
                while more {
                    chunks.append(try cursor.current())
                    more = try cursor.move(to: .next)
                }
                return chunks
            }
            for var chunk in chunks {
                chunk.value[chunk.value.count / 2] ^= 0x20
                try transaction.put(chunk.value, forKey: chunk.key, in: log.store.chunks)
            }
            return chunks.count
        }
    }

    // The live revisions share the damaged chunks of the sections they leave unchanged, so
    // whatever decodes a live snapshot fails, as the full subscription shows.
    @Test(
        "a changes subscription follows a log whose snapshot chunks are damaged: it decodes no snapshot, live or stored"
    )
    func decodesNoSnapshot() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync))
            for version in 0..<5 { _ = try await log.append(try Self.sharedSnapshot(version: version)) }
            #expect(try Self.damageEveryChunk(of: log) > 0)
            #expect(throws: ChangeLogError.self) { try log.record(at: 5) }

            // Its queue holds the 20 live revisions: the feed gives it every one.
            var changes = log.subscribeChanges(from: 1, batchSize: 32).makeAsyncIterator()
            let stored = try await Self.take(6, from: &changes)
            #expect(stored.last == .caughtUp(latest: 5))
            var full = log.subscribe(from: 6).makeAsyncIterator()
            #expect(try await full.next() == .caughtUp(latest: 5))
            let fullEnd = Task { [full] in
                var full = full
                // The full subscription's first live record decodes the damaged chunks.
                await #expect(throws: ChangeLogError.self) { _ = try await full.next() }
            }
            let live = Task { [changes] in
                var changes = changes
                return try await Self.take(20, from: &changes)
            }
            try await waitUntil { log.changesFeed.memberCount == 1 && log.feed.memberCount == 1 }
            for version in 5..<25 { _ = try await log.append(try Self.sharedSnapshot(version: version)) }
            await fullEnd.value
            var expected: [ChangesSubscription.Event] = []
            for try await revision in log.changes(in: 6...25) { expected.append(.revision(revision)) }
            #expect(try await live.value == expected)
            #expect(log.changesFeed.publicationCount == 20)
        }
    }
}
