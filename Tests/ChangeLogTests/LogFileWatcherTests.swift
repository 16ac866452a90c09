import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ChangeLog

@Suite("Log file watcher", .timeLimit(.minutes(10)))
struct LogFileWatcherTests {
    @Test("polling alone calls the check periodically, and nothing after stop")
    func polling() async throws {
        let checks = Counter()
        let watcher = LogFileWatcher(dataFile: "/nonexistent", pollInterval: .milliseconds(5), watchesFile: false) {
            checks.increment()
        }
        watcher.start()
        #expect(!watcher.usesFileEvents)
        try await waitUntil { checks.value >= 3 }
        watcher.stop()
        let stopped = checks.value
        try await Task.sleep(for: .milliseconds(30))
        // A check already running when stop() was called may still finish.
        #expect(checks.value <= stopped + 1)
        watcher.start()
        try await Task.sleep(for: .milliseconds(20))
        #expect(checks.value <= stopped + 1)
    }

    /// The file's watch is refused (there is no file): polling alone notices commits.
    @Test("a file that cannot be watched leaves polling alone")
    func unwatchableFile() async throws {
        let checks = Counter()
        let watcher = LogFileWatcher(dataFile: "/nonexistent/data.mdb", pollInterval: .milliseconds(5)) {
            checks.increment()
        }
        watcher.start()
        #expect(!watcher.usesFileEvents)
        try await waitUntil { checks.value >= 2 }
        watcher.stop()
        let stopped = checks.value
        try await Task.sleep(for: .milliseconds(30))
        // A check already running when stop() was called may still finish.
        #expect(checks.value <= stopped + 1)
    }

    #if os(Linux)
        @Test("a change to the file calls the check at once and then a few follow-ups; stop removes the watch")
        func fileEvents() async throws {
            try await withTemporaryDirectory { directory in
                let path = directory + "/data.mdb"
                _ = FileManager.default.createFile(atPath: path, contents: Data())
                let checks = Counter()
                let watcher = LogFileWatcher(dataFile: path, pollInterval: .seconds(60)) { checks.increment() }
                watcher.start()
                #expect(watcher.usesFileEvents)
                let file = try #require(FileHandle(forWritingAtPath: path))
                try file.write(contentsOf: Data("x".utf8))
                try await waitUntil { checks.value >= 1 }
                try await waitUntil { checks.value == 1 + LogFileWatcher.followUpDelays.count }
                watcher.stop()
                #expect(!watcher.usesFileEvents)
                let stopped = checks.value
                try file.write(contentsOf: Data("y".utf8))
                try file.close()
                try await Task.sleep(for: .milliseconds(50))
                #expect(checks.value == stopped)
            }
        }
    #endif

    #if os(Linux)
        @Test("watches of one file share the hub's kernel watch; removing one leaves the other's events")
        func sharedWatches() async throws {
            let hub = try #require(FileEventHub.shared)
            try await withTemporaryDirectory { directory in
                let path = directory + "/data.mdb"
                _ = FileManager.default.createFile(atPath: path, contents: Data())
                #expect(hub.watch(directory + "/missing", onModify: {}) == nil)
                let first = Counter()
                let second = Counter()
                let firstWatch = try #require(hub.watch(path) { first.increment() })
                // Through another spelling of the same file: the kernel gives the same watch.
                let secondWatch = try #require(hub.watch(directory + "/./data.mdb") { second.increment() })
                let file = try #require(FileHandle(forWritingAtPath: path))
                defer { try? file.close() }
                try file.write(contentsOf: Data("x".utf8))
                try await waitUntil { first.value >= 1 && second.value >= 1 }
                hub.remove(firstWatch)
                hub.remove(firstWatch)
                let firstCount = first.value
                let secondCount = second.value
                try file.write(contentsOf: Data("y".utf8))
                try await waitUntil { second.value > secondCount }
                #expect(first.value == firstCount)
                hub.remove(secondWatch)
                #expect(!hub.holds(secondWatch))
                try file.write(contentsOf: Data("z".utf8))
                let afterRemoval = second.value
                try await Task.sleep(for: .milliseconds(50))
                #expect(second.value == afterRemoval)
            }
        }

        @Test("the watch of a file that is deleted and freed is forgotten")
        func deletedFile() async throws {
            let hub = try #require(FileEventHub.shared)
            try await withTemporaryDirectory { directory in
                let path = directory + "/data.mdb"
                _ = FileManager.default.createFile(atPath: path, contents: Data())
                let watch = try #require(hub.watch(path) {})
                #expect(hub.holds(watch))
                try FileManager.default.removeItem(atPath: path)
                try await waitUntil { !hub.holds(watch) }
                hub.remove(watch)
            }
        }
    #endif

    @Test("polling alone carries another instance's appends to a notifier")
    func pollingNotifier() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let other = try ChangeLog(path: path)
            let notifier = CommitNotifier.watching(log.store, pollInterval: .milliseconds(10), watchesFile: false)
            let listener = notifier.register()
            #expect(notifier.isWatching)
            try await appendRevisions(2, to: other)
            #expect(await notifier.wait(listener, after: 1) == 2)
            notifier.unregister(listener)
            #expect(!notifier.isWatching)
        }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let count = Atomic(0)

    var value: Int { count.load(ordering: .relaxed) }

    func increment() {
        count.add(1, ordering: .relaxed)
    }
}

extension LogFileWatcherTests {
    /// The first listener makes and starts the watcher after it registered, outside the
    /// notifier's lock. A second listener registering meanwhile finds the watcher on its way,
    /// measures its backlog and waits; a commit made before the watcher's file watch is in place
    /// raises no event the watcher sees, and with an hour's poll nothing else would tell.
    @Test("a listener registered while the watcher is being started hears of a commit made meanwhile")
    func registrationDuringWatcherStart() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let other = try ChangeLog(path: path)
            try await appendRevisions(1, to: other)
            let starting = DispatchSemaphore(value: 0)
            let notifier = CommitNotifier { notifier in
                starting.wait()
                return CommitNotifier.watcher(of: log.store, for: notifier, pollInterval: .seconds(3_600))
            }
            let first = Task.detached { notifier.register() }
            try await waitUntil { notifier.listenerCount == 1 }
            let second = notifier.register()
            #expect(!notifier.isWatching)
            // The second listener's backlog: revision 1. Then revision 2 is committed elsewhere,
            // before the watcher's file watch exists.
            #expect(try log.latestRevision == 1)
            let waiting = Task { await notifier.wait(second, after: 1) }
            try await waitUntil { notifier.waitingCount == 1 }
            try await appendRevisions(1, to: other, startingAt: 1)
            starting.signal()
            let firstID = await first.value
            #expect(notifier.isWatching)
            try await waitUntil { notifier.latest >= 2 }
            notifier.unregister(second)
            notifier.unregister(firstID)
            #expect(await waiting.value == 2)
        }
    }
}
