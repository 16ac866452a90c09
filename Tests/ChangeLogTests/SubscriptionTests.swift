import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

@Suite("Subscriptions", .timeLimit(.minutes(10)))
struct SubscriptionTests {
    @Test("from the start: the backlog, one caughtUp, then live revisions")
    func fromStart() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let appended = try await appendRevisions(3, to: log)
            var iterator = log.subscribe(from: 1).makeAsyncIterator()
            #expect(try await events(4, from: &iterator) == ["1", "2", "3", "caughtUp 3"])
            _ = try await appendRevisions(2, to: log, startingAt: 3)
            let live = try await records(2, from: &iterator)
            #expect(live.map(\.revision) == [4, 5])
            for record in live {
                #expect(record == (try log.record(at: record.revision)))
            }
            var fromZero = log.subscribe(from: 0).makeAsyncIterator()
            let first = try await records(1, from: &fromZero)[0]
            #expect(first.snapshot == appended[0])
            #expect(first.changes == LogSnapshot().changes(to: appended[0]))
        }
    }

    @Test("from an empty log: caughtUp at once, then the first revision")
    func fromEmpty() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            var fromZero = log.subscribe(from: 0).makeAsyncIterator()
            var fromOne = log.subscribe(from: 1).makeAsyncIterator()
            #expect(try await events(1, from: &fromZero) == ["caughtUp 0"])
            #expect(try await events(1, from: &fromOne) == ["caughtUp 0"])
            _ = try await appendRevisions(1, to: log)
            #expect(try await events(1, from: &fromZero) == ["1"])
            #expect(try await events(1, from: &fromOne) == ["1"])
        }
    }

    @Test("from the middle and from the end")
    func fromMiddleAndEnd() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await appendRevisions(5, to: log)
            var middle = log.subscribe(from: 3, batchSize: 2).makeAsyncIterator()
            #expect(try await events(4, from: &middle) == ["3", "4", "5", "caughtUp 5"])
            var end = log.subscribe(from: 6).makeAsyncIterator()
            #expect(try await events(1, from: &end) == ["caughtUp 5"])
            _ = try await appendRevisions(1, to: log, startingAt: 5)
            #expect(try await events(1, from: &middle) == ["6"])
            #expect(try await events(1, from: &end) == ["6"])
        }
    }

    @Test("from beyond the end: caughtUp, then waits until that revision is appended")
    func beyondTheEnd() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await appendRevisions(3, to: log)
            let subscriber = Task {
                var iterator = log.subscribe(from: 6).makeAsyncIterator()
                return try await events(2, from: &iterator)
            }
            try await waitUntil { log.notifier.waitingCount == 1 }
            _ = try await appendRevisions(2, to: log, startingAt: 3)
            // Revisions 4 and 5 do not wake it for good: it still waits for 6.
            try await Task.sleep(for: .milliseconds(50))
            try await waitUntil { log.notifier.waitingCount == 1 }
            _ = try await appendRevisions(1, to: log, startingAt: 5)
            #expect(try await subscriber.value == ["caughtUp 3", "6"])
            #expect(log.notifier.listenerCount == 0)
        }
    }

    @Test(
        "while appenders race with the catch-up, every revision arrives exactly once and in order",
        arguments: [1, 7, 64])
    func racingAppends(batchSize: Int) async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
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
            // Subscribers join at different moments: before, during, and near the end of the appends.
            var subscribers: [Task<[LogSubscription.Event], any Error>] = []
            for joinAt: UInt64 in [0, 40, 250] {
                try await waitUntil { ((try? log.latestRevision) ?? 0) >= joinAt }
                subscribers.append(
                    Task {
                        var events: [LogSubscription.Event] = []
                        for try await event in log.subscribe(from: 1, batchSize: batchSize) {
                            events.append(event)
                            if case .revision(let record) = event, record.revision == total { break }
                        }
                        return events
                    })
            }
            try await appending.value
            for subscriber in subscribers {
                let events = try await subscriber.value
                let revisions = events.compactMap(\.record)
                #expect(revisions.map(\.revision) == Array(1...total))
                let caughtUp = events.enumerated().compactMap { offset, event in
                    if case .caughtUp(let latest) = event { (offset, latest) } else { nil }
                }
                #expect(caughtUp.count == 1)
                if let (offset, latest) = caughtUp.first {
                    // Everything stored when the subscription started comes before the marker.
                    #expect(offset == Int(latest))
                }
                var previous = LogSnapshot()
                for record in revisions {
                    #expect(try previous.applying(record.changes) == record.snapshot)
                    previous = record.snapshot
                }
            }
            #expect(log.notifier.listenerCount == 0)
        }
    }

    // The poll is an hour away, so only file events can wake the subscriber. It is waiting when
    // each append commits (the next append waits for the previous delivery), except when it is
    // still reading; either way every revision must arrive. The time limit turns a watcher that
    // missed an event into a failure instead of a hang; no speed is asserted.
    @Test(
        "appends by another instance of the same path reach subscribers through the watcher",
        .timeLimit(.minutes(10)))
    func anotherInstance() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(subscriptionPollInterval: .seconds(3_600)))
            let other = try ChangeLog(path: path)
            let (arrivals, arrived) = AsyncStream.makeStream(of: UInt64.self)
            let subscriber = Task {
                var iterator = log.subscribe(from: 1).makeAsyncIterator()
                #expect(try await events(1, from: &iterator) == ["caughtUp 0"])
                arrived.yield(0)  // caught up: now waiting for revision 1
                for _ in 0..<20 {
                    guard let record = try await records(1, from: &iterator).first else { break }
                    arrived.yield(record.revision)
                }
                arrived.finish()
            }
            var delivered = arrivals.makeAsyncIterator()
            #expect(await delivered.next() == 0)
            for step in 0..<20 {
                _ = try await other.append(try makeSnapshot(sections: 2, itemsPerSection: 3, version: step))
                #expect(await delivered.next() == UInt64(step + 1))
                if step < 19 {
                    // The subscription waits for more: its watcher runs.
                    #expect(log.notifier.isWatching)
                }
            }
            try await subscriber.value
        }
    }

    @Test("a subscriber that does not read never blocks the writer, and then reads everything")
    func slowSubscriber() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await appendRevisions(1, to: log)
            var iterator = log.subscribe(from: 1, batchSize: 8).makeAsyncIterator()
            #expect(try await events(2, from: &iterator) == ["1", "caughtUp 1"])
            _ = try await appendRevisions(200, to: log, startingAt: 1)
            #expect(try await records(200, from: &iterator).map(\.revision) == Array(2...201))
        }
    }

    @Test("cancelling the iterating task ends the subscription and frees its listener and watcher")
    func cancellation() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await appendRevisions(3, to: log)
            let subscriber = Task {
                var count = 0
                for try await _ in log.subscribe(from: 1) {
                    count += 1
                }
                return count
            }
            try await waitUntil { log.notifier.waitingCount == 1 }
            #expect(log.notifier.isWatching)
            subscriber.cancel()
            #expect(try await subscriber.value == 4)
            #expect(log.notifier.listenerCount == 0)
            #expect(!log.notifier.isWatching)

            // Cancelled before it starts: ends at once, registers nothing that stays.
            let early = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                var iterator = log.subscribe(from: 1).makeAsyncIterator()
                return try await iterator.next()
            }
            #expect(try await early.value == nil)
            #expect(log.notifier.listenerCount == 0)
        }
    }

    @Test("dropping the iterator, or leaving the loop, unregisters the listener")
    func droppingTheIterator() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await appendRevisions(3, to: log)
            do {
                var iterator = log.subscribe(from: 1).makeAsyncIterator()
                _ = try await iterator.next()
                #expect(log.notifier.listenerCount == 1)
            }
            #expect(log.notifier.listenerCount == 0)
            for try await event in log.subscribe(from: 2) {
                #expect(event.record?.revision == 2)
                break
            }
            #expect(log.notifier.listenerCount == 0)
            #expect(!log.notifier.isWatching)
        }
    }

    /// In a process of its own (`ChangeLogWorker resubscribe`), so that other tests' descriptors
    /// and threads do not count. Each first listener starts a watcher. Watchers share the
    /// process's one inotify instance (closing an instance of its own would hold a thread for the
    /// kernel's grace period) and run their checks on one queue (Dispatch would give a queue of
    /// its own per watcher just stopped a thread of its own), so the rounds hold a few more
    /// descriptors and threads at most, on a loaded machine too.
    @Test("subscribing and breaking off 2,000 times in a row holds neither descriptors nor threads")
    func resubscribing() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            _ = try await appendRevisions(3, to: try ChangeLog(path: path))
            let worker = try WorkerProcess(["resubscribe", "--log", path, "--count", "2000"])
            #expect(try await worker.waitForExit() == 0, "\(worker.errors)")
            let counts = Dictionary(
                uniqueKeysWithValues: worker.lines.map { line in
                    let fields = line.text.split(separator: " ")
                    return (String(fields[0]), (before: Int(fields[1]) ?? -1, peak: Int(fields[2]) ?? -1))
                })
            let descriptors = try #require(counts["descriptors"])
            let threads = try #require(counts["threads"])
            // The process's one inotify descriptor, opened by the first watcher, and the few
            // that Dispatch opens for its timers.
            #expect(descriptors.before > 0 && descriptors.peak <= descriptors.before + 8, "\(descriptors)")
            #expect(threads.before > 0 && threads.peak <= threads.before + 8, "\(threads)")
        }
    }

    @Test("subscribing from a dropped revision is an error; from 0 or 1 starts at the oldest")
    func droppedRevisions() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await appendRevisions(10, to: log)
            _ = try await log.dropRevisions(before: 5)
            var dropped = log.subscribe(from: 3).makeAsyncIterator()
            let error = await #expect(throws: ChangeLogError.self) { _ = try await dropped.next() }
            #expect(error?.code == .revisionDropped)
            #expect(error?.revision == 3)
            #expect(try await dropped.next() == nil)
            #expect(log.notifier.listenerCount == 0)
            for start: UInt64 in [0, 1, 5] {
                var iterator = log.subscribe(from: start).makeAsyncIterator()
                #expect(try await events(1, from: &iterator) == ["5"])
            }
        }
    }

    @Test("a subscriber whose next revision is dropped by retention gets revisionDropped")
    func droppedUnderTheCursor() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await appendRevisions(10, to: log)
            var iterator = log.subscribe(from: 1, batchSize: 2).makeAsyncIterator()
            #expect(try await events(2, from: &iterator) == ["1", "2"])
            _ = try await log.dropRevisions(before: 8)
            let error = await #expect(throws: ChangeLogError.self) { _ = try await iterator.next() }
            #expect(error?.code == .revisionDropped)
            #expect(error?.revision == 3)
            #expect(log.notifier.listenerCount == 0)
        }
    }

    /// Live, the subscriber reads after each commit; a revision dropped under its cursor must
    /// fail the read at once, not after the next commit (which may never come).
    @Test("a live subscriber whose next revision is dropped gets revisionDropped without another append")
    func droppedUnderTheCursorWhileLive() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await appendRevisions(3, to: log)
            var iterator = log.subscribe(from: 1, batchSize: 1).makeAsyncIterator()
            #expect(try await events(4, from: &iterator) == ["1", "2", "3", "caughtUp 3"])
            let snapshots = try (0..<3).map { try makeSnapshot(sections: 1, itemsPerSection: 2, version: 10 + $0) }
            // Revisions 4 to 6 in one commit, while the subscriber waits: it wakes knowing of 6.
            let appending = Task {
                while log.notifier.waitingCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
                _ = try await log.append(contentsOf: snapshots.map { ChangeLog.AppendEntry($0) })
            }
            #expect(try await events(1, from: &iterator) == ["4"])
            try await appending.value
            _ = try await log.dropRevisions(before: 6)
            let error = await #expect(throws: ChangeLogError.self) { _ = try await iterator.next() }
            #expect(error?.code == .revisionDropped)
            #expect(error?.revision == 5)
            #expect(try await iterator.next() == nil)
        }
    }

    @Test("the notifier coalesces: a waiter wakes with the latest revision, stale numbers are ignored")
    func notifierCoalesces() async throws {
        let notifier = CommitNotifier()
        let id = notifier.register()
        notifier.publish(3)
        #expect(await notifier.wait(id, after: 1) == 3)
        let waiter = Task { await notifier.wait(id, after: 3) }
        try await waitUntil { notifier.waitingCount == 1 }
        notifier.publish(2)
        notifier.publish(3)
        #expect(notifier.waitingCount == 1)
        notifier.publish(9)
        #expect(await waiter.value == 9)
        notifier.unregister(id)
        notifier.unregister(id)
        #expect(notifier.listenerCount == 0)
        #expect(await notifier.wait(id, after: 0) == nil)
    }
}

extension LogSubscription.Event {
    /// The record of a ``revision(_:)`` event.
    var record: RevisionRecord? {
        if case .revision(let record) = self { record } else { nil }
    }

    /// `"r"` for revision r, `"caughtUp L"` for the marker.
    var summary: String {
        switch self {
        case .revision(let record): "\(record.revision)"
        case .caughtUp(let latest): "caughtUp \(latest)"
        }
    }
}

/// The summaries of the next `count` events.
func events(_ count: Int, from iterator: inout LogSubscription.Iterator) async throws -> [String] {
    var events: [String] = []
    for _ in 0..<count {
        guard let event = try await iterator.next() else { break }
        events.append(event.summary)
    }
    return events
}

/// The next `count` events, which must all be revisions.
func records(_ count: Int, from iterator: inout LogSubscription.Iterator) async throws -> [RevisionRecord] {
    var records: [RevisionRecord] = []
    for _ in 0..<count {
        let event = try await iterator.next()
        guard let record = event?.record else {
            Issue.record("expected a revision, got \(event?.summary ?? "the end")")
            break
        }
        records.append(record)
    }
    return records
}

/// Appends `count` small snapshots, one per transaction, and returns them.
@discardableResult
func appendRevisions(_ count: Int, to log: ChangeLog, startingAt version: Int = 0) async throws -> [LogSnapshot] {
    var snapshots: [LogSnapshot] = []
    for step in 0..<count {
        let snapshot = try makeSnapshot(sections: 2, itemsPerSection: 3, version: version + step)
        _ = try await log.append(snapshot)
        snapshots.append(snapshot)
    }
    return snapshots
}

/// Waits until `condition` holds, checking every millisecond; fails after `timeout`, a hang
/// guard generous enough for a sanitizer build on a loaded machine.
func waitUntil(
    timeout: Duration = .seconds(300), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within \(timeout)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(1))
    }
}
