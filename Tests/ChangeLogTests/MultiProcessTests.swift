import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// Subscriptions, crashes and concurrent appends across processes, with `ChangeLogWorker`
/// (Tests/ChangeLogWorker) as the other process.
@Suite("Across processes", .serialized, .timeLimit(.minutes(10)))
struct MultiProcessTests {
    @Test("a subscriber in another process sees this process's appends once each, in order")
    func subscriberInAnotherProcess() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let log = try ChangeLog(path: path)
            try await appendRevisions(10, to: log)
            let pingPong = 50
            let burst = 150
            let total = 10 + pingPong + burst
            #if os(Linux)
                // A poll an hour away leaves delivery to file events (inotify): each ping-pong
                // round below waits for its revision, so a missed event fails the suite's time
                // limit. No speed is asserted (the latency is printed).
                let pollMilliseconds = 3_600_000
            #else
                let pollMilliseconds = 100
            #endif
            let worker = try WorkerProcess([
                "subscribe", "--log", path, "--from", "1", "--count", "\(total)", "--poll-ms", "\(pollMilliseconds)",
            ])
            _ = try await worker.waitForLine { $0 == "caughtUp 10" }

            // One at a time: how long after its commit does the other process have a revision?
            // The commit happens between the call and the return of `append`, so measure from both.
            var fromCall: [Duration] = []
            var fromReturn: [Duration] = []
            for step in 0..<pingPong {
                let called = ContinuousClock.now
                let appended = try await log.append(
                    try makeSnapshot(sections: 2, itemsPerSection: 3, version: 100 + step))
                let returned = ContinuousClock.now
                let line = try await worker.waitForLine(after: 10 + step) { $0 == "\(appended.revision)" }
                fromCall.append(line.time - called)
                fromReturn.append(max(.zero, line.time - returned))
            }
            // Then as fast as three concurrent appenders go.
            try await withThrowingTaskGroup { group in
                for appender in 0..<3 {
                    group.addTask {
                        for step in 0..<burst / 3 {
                            _ = try await log.append(
                                try makeSnapshot(sections: 2, itemsPerSection: 3, version: 1000 * appender + step))
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await worker.waitForExit() == 0, "\(worker.errors)")
            let expected = (1...10).map(String.init) + ["caughtUp 10"] + (11...total).map(String.init)
            #expect(worker.lines.map(\.text) == expected)
            fromCall.sort()
            fromReturn.sort()
            print(
                "cross-process subscription latency over \(pingPong) revisions, from the append's call: p50 "
                    + "\(fromCall[pingPong / 2]), max \(fromCall[pingPong - 1]); from its return: p50 "
                    + "\(fromReturn[pingPong / 2]), max \(fromReturn[pingPong - 1])")
        }
    }

    @Test("a subscriber in this process sees another process's appends once each, in order")
    func appenderInAnotherProcess() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let log = try ChangeLog(path: path)
            try await appendRevisions(5, to: log)
            var iterator = log.subscribe(from: 1).makeAsyncIterator()
            #expect(try await events(6, from: &iterator) == ["1", "2", "3", "4", "5", "caughtUp 5"])
            let count: UInt64 = 200
            let worker = try WorkerProcess(["append", "--log", path, "--count", "\(count)"])
            let received = try await records(Int(count), from: &iterator)
            #expect(received.map(\.revision) == Array(6...5 + count))
            var previous = try log.snapshot(at: 5)
            for record in received {
                #expect(try previous.applying(record.changes) == record.snapshot)
                previous = record.snapshot
            }
            #expect(try await worker.waitForExit() == 0, "\(worker.errors)")
            #expect(worker.lines.compactMap(committedRevision) == Array(6...5 + count))
        }
    }

    @Test("a child appending one revision per transaction, killed with SIGKILL 20 times, loses nothing")
    func crashSafety() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            _ = try ChangeLog(path: path)
            var generator = SeededGenerator(seed: 0x5EED_C4A5)
            var latest: UInt64 = 0
            var snapshot = LogSnapshot()
            var killedAfterCommits = 0
            for round in 0..<20 {
                let worker = try WorkerProcess([
                    "append", "--log", path, "--count", "1000000", "--items", "40", "--seed", "\(round + 1)",
                ])
                if round % 4 == 0 {
                    // Any moment from the start, opening the log included.
                    try await Task.sleep(for: .microseconds(Int.random(in: 0..<80_000, using: &generator)))
                } else {
                    _ = try await worker.waitForLine { $0.hasPrefix("committed ") }
                    try await Task.sleep(for: .microseconds(Int.random(in: 0..<80_000, using: &generator)))
                }
                worker.kill()
                #expect(try await worker.waitForExit() == SIGKILL, "round \(round): \(worker.errors)")

                let committed = worker.lines.compactMap(committedRevision)
                if !committed.isEmpty { killedAfterCommits += 1 }
                let before = latest
                (latest, snapshot) = try checkLog(at: path, from: before + 1, previous: snapshot)
                // Everything reported is stored, consecutively; at most one more commit may have
                // happened between the commit and its report.
                #expect(committed == Array((before + 1)..<(before + 1 + UInt64(committed.count))), "round \(round)")
                #expect(
                    latest == before + UInt64(committed.count) || latest == before + UInt64(committed.count) + 1,
                    "round \(round): \(committed.count) reported, the log went from \(before) to \(latest)")
            }
            #expect(killedAfterCommits >= 10)
            // The library's verifier agrees: checksums, FORMAT.md's rules and every snapshot.
            let report = try await ChangeLog(path: path, options: .init(createIfMissing: false)).verify()
            #expect(report.isValid, "\(report)")
            #expect(report.revisionsChecked == Int(latest))
            print("crash safety: 20 SIGKILLs, \(latest) revisions, every one verified")
        }
    }

    @Test("two processes appending to one log at once: every append stored, gap-free, each one applies")
    func twoAppenders() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            _ = try ChangeLog(path: path)
            let count = 200
            let workers = try [1, 2].map { seed in
                try WorkerProcess(["append", "--log", path, "--count", "\(count)", "--seed", "\(seed)"])
            }
            for worker in workers {
                #expect(try await worker.waitForExit() == 0, "\(worker.errors)")
            }
            let committed = workers.map { $0.lines.compactMap(committedRevision) }
            #expect(committed.map(\.count) == [count, count])
            #expect(committed.allSatisfy { $0 == $0.sorted() })
            #expect(Set(committed.joined()) == Set(1...UInt64(2 * count)))
            let (latest, _) = try checkLog(at: path, from: 1, previous: LogSnapshot())
            #expect(latest == UInt64(2 * count))
            let log = try ChangeLog(path: path)
            for (worker, revisions) in zip(["1", "2"], committed) {
                for revision in revisions.prefix(20) {
                    #expect(try log.record(at: revision).meta["worker"] == worker)
                }
            }
            let owners = (1...UInt64(2 * count)).map { committed[0].contains($0) }
            let switches = zip(owners, owners.dropFirst()).count { $0 != $1 }
            print("two appenders: \(2 * count) revisions, the writer changed \(switches) times")
        }
    }

    /// Opens the log at `path` (as after a crash) and checks it: revisions 1 to the latest are all
    /// stored, and each revision from `from` on takes the previous snapshot (`previous` for `from`)
    /// to its own. Returns the latest revision and its snapshot.
    private func checkLog(at path: String, from: UInt64, previous: LogSnapshot) throws -> (UInt64, LogSnapshot) {
        let log = try ChangeLog(path: path, options: .init(createIfMissing: false))
        let latest = try log.latestRevision
        let stored = try log.store.lmdb.readLMDB(during: "checking") { transaction in
            try transaction.statistics(of: log.store.revisions).entries
        }
        let first = try log.firstRevision
        #expect(latest == 0 || first == 1)
        #expect(stored == Int(latest), "revisions 1 to \(latest) but \(stored) records: a gap")
        var snapshot = previous
        if latest >= from {
            var iterator = log.records(in: from...latest).makeAsyncIterator()
            while let record = try iterator.next() {
                #expect(try snapshot.applying(record.changes) == record.snapshot, "revision \(record.revision)")
                snapshot = record.snapshot
            }
        }
        return (latest, snapshot)
    }

    /// LMDB frees the reader slots of dead processes only when asked (`mdb_reader_check`): at
    /// open, and, for a process that stays open, when the table is full.
    @Test("reader slots of a process killed while reading are freed once the table is full")
    func staleReaderSlots() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(maxReaders: 8))
            let snapshot = try makeSnapshot(sections: 2, itemsPerSection: 3)
            _ = try await log.append(snapshot)
            // The log stays open here while the reader dies: opening cannot be what frees its slots.
            let worker = try WorkerProcess(["hold-readers", "--log", path, "--count", "8"])
            _ = try await worker.waitForLine { $0 == "holding 8" }
            worker.kill()
            try await worker.waitForExit()
            #expect(try log.latestRevision == 1)
            #expect(try log.snapshot(at: 1) == snapshot)
            _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 1))
            #expect(try await log.verify().isValid)
        }
    }
}

/// R from a worker's `committed R` line.
private func committedRevision(_ line: WorkerProcess.Line) -> UInt64? {
    guard line.text.hasPrefix("committed ") else { return nil }
    return UInt64(line.text.dropFirst("committed ".count))
}
