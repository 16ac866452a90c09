import ChangeLog
import ChangeLogFile
import ChangeLogTestSupport
import Foundation
import Testing

/// Retention on a log file: dropping revisions compacts the file, and what is kept reads,
/// verifies and grows on, here and for a reader in another process.
@Suite struct FileLogRetentionTests {
    @Test func droppingRevisionsCompactsAndKeepsTheRestReadable() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log.changelog"
            let log = try ChangeLog(fileAt: path)
            var random = RandomSnapshots(seed: 41)
            let snapshots = random.take(40)
            for snapshot in snapshots { _ = try await log.append(snapshot) }
            let sizeBefore = try fileSize(path)
            let report = try await log.dropRevisions(before: 31)
            #expect(report.firstRevision == 31)
            #expect(report.droppedRevisions == 30)
            #expect(report.droppedChunks > 0)
            #expect(try fileSize(path) < sizeBefore, "the compacted file is smaller")
            #expect(!FileManager.default.fileExists(atPath: path + ".compact"))
            #expect(log.isStillAtPath, "the writer holds the compacted file")
            #expect(try log.firstRevision == 31)
            // The first kept revision reads whole, as every later one.
            for revision in UInt64(31)...40 {
                #expect(try log.snapshot(at: revision) == snapshots[Int(revision) - 1])
            }
            #expect(throws: ChangeLogError.self) { try log.snapshot(at: 30) }
            #expect(try await log.verify().isValid)
            let more = random.take(5)
            for snapshot in more { _ = try await log.append(snapshot) }
            #expect(try log.snapshot(at: 45) == more[4])
            // A second writer is refused on the compacted file; a reader opens it and verifies.
            #expect(throws: ChangeLogError.self) { try ChangeLog(fileAt: path) }
            let reader = try ChangeLog(fileAt: path, options: .init(readOnly: true))
            #expect(try reader.firstRevision == 31)
            #expect(try reader.latestRevision == 45)
            #expect(try await reader.verify().isValid)
        }
    }

    @Test func aReaderInThisProcessReopensTheCompactedFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log.changelog"
            let log = try ChangeLog(fileAt: path)
            var random = RandomSnapshots(seed: 42)
            let snapshots = random.take(20)
            for snapshot in snapshots { _ = try await log.append(snapshot) }
            let reader = try ChangeLog(fileAt: path, options: .init(readOnly: true))
            #expect(try reader.latestRevision == 20)
            _ = try await log.dropRevisions(before: 15)
            _ = try await log.append(random.take(1)[0])
            #expect(!reader.isStillAtPath, "the reader still has the replaced file open")
            #expect(try reader.firstRevision == 15)
            #expect(try reader.latestRevision == 21)
            #expect(try reader.snapshot(at: 15) == snapshots[14])
            #expect(try await reader.verify().isValid)
        }
    }

    @Test func aReaderInAnotherProcessFollowsAcrossACompaction() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log.changelog"
            let log = try ChangeLog(fileAt: path)
            var random = RandomSnapshots(seed: 43)
            for snapshot in random.take(10) { _ = try await log.append(snapshot) }
            let worker = try WorkerProcess([
                "subscribe", "--engine", "file", "--read-only", "yes", "--log", path, "--from", "1", "--count", "20",
            ])
            _ = try await worker.waitForLine { $0 == "10" }
            _ = try await log.dropRevisions(before: 8)
            for snapshot in random.take(10) { _ = try await log.append(snapshot) }
            let status = try await worker.waitForExit()
            #expect(status == 0, "\(worker.errors)")
            let revisions = worker.lines.map(\.text).filter { !$0.hasPrefix("caughtUp") }
            #expect(revisions == (1...20).map { "\($0)" }, "no gap, no duplicate: \(revisions)")
            #expect(try await log.verify().isValid)
        }
    }

    @Test func aCompactionCutShortLeavesTheOldFileWhole() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log.changelog"
            do {
                let log = try ChangeLog(fileAt: path)
                var random = RandomSnapshots(seed: 44)
                for snapshot in random.take(10) { _ = try await log.append(snapshot) }
            }
            // What a crash before the rename leaves: a partial new file beside the whole old one.
            try Data(repeating: 0x5A, count: 100).write(to: URL(fileURLWithPath: path + ".compact"))
            let log = try ChangeLog(fileAt: path)
            #expect(!FileManager.default.fileExists(atPath: path + ".compact"), "the writer's open removes it")
            #expect(try log.firstRevision == 1)
            #expect(try log.latestRevision == 10)
            #expect(try await log.verify().isValid)
        }
    }
}

/// The size budget of a log file: a long stream stays within it, and what is kept is the newest
/// history, readable and verifying.
@Suite struct FileLogBudgetTests {
    @Test func aLongStreamStaysWithinTheBudgetKeepingTheNewestHistory() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log.changelog"
            let budget = 64 << 10
            let log = try ChangeLog(fileAt: path, sizeBudget: budget)
            var random = RandomSnapshots(seed: 45)
            let snapshots = random.take(400)
            var compactions = 0
            var previousFirst: UInt64 = 1
            for snapshot in snapshots {
                _ = try await log.append(snapshot)
                #expect(try fileSize(path) <= budget, "after each append the file is within its budget")
                let first = try log.firstRevision
                if first != previousFirst { compactions += 1 }
                previousFirst = first
            }
            #expect(compactions > 1, "the stream went past the budget more than once")
            #expect(try log.latestRevision == 400)
            let first = try log.firstRevision
            #expect(first > 1)
            for revision in first...400 {
                #expect(try log.snapshot(at: revision) == snapshots[Int(revision) - 1])
            }
            #expect(try await log.verify().isValid)
            let reader = try ChangeLog(fileAt: path, options: .init(readOnly: true))
            #expect(try reader.firstRevision == first)
            #expect(try await reader.verify().isValid)
        }
    }

    @Test func aTinyBudgetIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            #expect(throws: ChangeLogError.self) {
                try ChangeLog(fileAt: directory + "/log.changelog", sizeBudget: 100)
            }
        }
    }
}
