import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

@Suite("ChangeLog: appending")
struct ChangeLogWritingTests {
    @Test("expectedLatest detects another writer")
    func conflicts() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let a = try snapshot([("A", ["a"])])
            let b = try snapshot([("A", ["a", "b"])])
            #expect(try await log.append(a, expectedLatest: 0).revision == 1)
            let error = await #expect(throws: ChangeLogError.self) {
                _ = try await log.append(b, expectedLatest: 0)
            }
            #expect(error?.code == .conflict)
            #expect(error?.revision == 1)
            #expect(error?.message.contains("another writer appended first") == true)
            let ahead = await #expect(throws: ChangeLogError.self) { _ = try await log.append(b, expectedLatest: 5) }
            #expect(ahead?.code == .conflict)
            #expect(ahead?.message.contains("revision 5 does not exist yet") == true, "\(String(describing: ahead))")
            #expect(try log.latestRevision == 1)
            #expect(try await log.append(b, expectedLatest: 1).revision == 2)

            // A second instance on the same path is another writer.
            let other = try ChangeLog(path: path)
            let c = try snapshot([("C", ["c"])])
            #expect(try await other.append(c, expectedLatest: 2).revision == 3)
            let stale = await #expect(throws: ChangeLogError.self) {
                _ = try await log.append(a, expectedLatest: 2)
            }
            #expect(stale?.code == .conflict)
            // Without expectedLatest, the first instance diffs against what the other wrote.
            let appended = try await log.append(a)
            #expect(appended.revision == 4)
            #expect(appended.changes == c.changes(to: a))
        }
    }

    @Test("a batch appends all of its entries or none")
    func batches() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let snapshots = try (0..<4).map { try makeSnapshot(sections: 2, itemsPerSection: 3 + $0, version: $0) }
            _ = try await log.append(snapshots[0])

            let invalid = await #expect(throws: ChangeLogError.self) {
                _ = try await log.append(contentsOf: [
                    .init(snapshots[1], meta: ["n": "1"]),
                    .init(snapshots[2], changes: LogChanges(deletedSections: [9]), verifiesChanges: true),
                    .init(snapshots[3]),
                ])
            }
            #expect(invalid?.code == .invalidChanges)
            #expect(invalid?.revision == 3)
            #expect(try log.latestRevision == 1)

            let conflict = await #expect(throws: ChangeLogError.self) {
                _ = try await log.append(contentsOf: [.init(snapshots[1])], expectedLatest: 0)
            }
            #expect(conflict?.code == .conflict)
            #expect(try log.latestRevision == 1)

            let appended = try await log.append(
                contentsOf: [
                    .init(snapshots[1], meta: ["n": "1"]), .init(snapshots[2]),
                    .init(snapshots[3], changes: snapshots[2].changes(to: snapshots[3]), verifiesChanges: true),
                ],
                expectedLatest: 1)
            #expect(appended.map(\.revision) == [2, 3, 4])
            for (offset, revision) in appended.enumerated() {
                let record = try log.record(at: revision.revision)
                #expect(record.snapshot == snapshots[offset + 1])
                #expect(record.changes == snapshots[offset].changes(to: snapshots[offset + 1]))
            }
            #expect(try log.record(at: 2).meta == ["n": "1"])
            #expect(try await log.append(contentsOf: [], expectedLatest: 4).isEmpty)
        }
    }

    @Test("concurrent appenders are group-committed, each getting its own revision")
    func groupCommit() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let tasks = 8
            let appendsPerTask = 25
            let results = try await withThrowingTaskGroup(of: [(UInt64, LogSnapshot)].self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var mine: [(UInt64, LogSnapshot)] = []
                        for index in 0..<appendsPerTask {
                            let snapshot = try snapshot([("task \(task)", ["item \(index):from \(task)"])])
                            mine.append((try await log.append(snapshot, meta: ["task": "\(task)"]).revision, snapshot))
                        }
                        return mine
                    }
                }
                var all: [(UInt64, LogSnapshot)] = []
                for try await mine in group {
                    #expect(mine.map(\.0) == mine.map(\.0).sorted())
                    all += mine
                }
                return all
            }
            #expect(results.map(\.0).sorted() == Array(1...UInt64(tasks * appendsPerTask)))
            for (revision, snapshot) in results {
                #expect(try log.snapshot(at: revision) == snapshot)
            }
            try await expectEachRevisionDiffsItsPredecessor(log)
            let commits = log.writeTransactionCount
            print("group commit: \(tasks * appendsPerTask) appends in \(commits) transactions")
            #expect(commits < tasks * appendsPerTask)
        }
    }

    @Test("a reopened log continues where it stopped")
    func reopen() async throws {
        try await withTemporaryDirectory { path in
            let first = try makeSnapshot(sections: 4, itemsPerSection: 30, version: 1)
            let second = try makeSnapshot(sections: 5, itemsPerSection: 30, version: 2)
            do {
                let log = try ChangeLog(path: path)
                _ = try await log.append(first)
            }
            let log = try ChangeLog(path: path, options: .init(createIfMissing: false))
            #expect(try log.latestRevision == 1)
            let appended = try await log.append(second)
            #expect(appended.revision == 2)
            #expect(appended.changes == first.changes(to: second))
            #expect(try log.snapshot(at: 2) == second)
        }
    }

    @Test("isStillAtPath turns false once the log is deleted, or replaced by another log")
    func stillAtPath() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let log = try ChangeLog(path: path)
            try await appendRevisions(1, to: log)
            #expect(log.isStillAtPath)
            // Another log moved into its place: the path now names another data.mdb.
            let other = directory + "/other"
            try await appendRevisions(1, to: try ChangeLog(path: other))
            try FileManager.default.removeItem(atPath: path + "/data.mdb")
            try FileManager.default.moveItem(atPath: other + "/data.mdb", toPath: path + "/data.mdb")
            #expect(!log.isStillAtPath)
            // The instance still works on the file it opened.
            #expect(try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 1, version: 9)).revision == 2)
            try FileManager.default.removeItem(atPath: path)
            #expect(!log.isStillAtPath)
        }
    }

    @Test("relaxed durability is opt-in, flushes on request, and cannot be mixed in one process")
    func durability() async throws {
        try await withTemporaryDirectory { path in
            do {
                let log = try ChangeLog(path: path, options: .init(durability: .noSync))
                #expect(log.options.durability == .noSync)
                _ = try await log.append(try snapshot([("A", ["a"])]))
                try log.flush()
                let error = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
                #expect(error?.code == .incompatibleOptions)
                #expect(error?.message.contains("noSync") == true)
                let same = try ChangeLog(path: path, options: .init(durability: .noSync))
                #expect(try same.latestRevision == 1)
            }
            let log = try ChangeLog(path: path, options: .init(durability: .noMetaSync))
            _ = try await log.append(try snapshot([("B", ["b"])]))
            try log.flush()
            #expect(try log.latestRevision == 2)
        }
    }

    @Test("the map grows past a tiny initial size")
    func growth() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(initialMapSize: 64 << 10))
            let initial = log.store.environment.info().mapSize
            var snapshots: [LogSnapshot] = []
            for version in 0..<8 {
                let next = try makeSnapshot(sections: 20, itemsPerSection: 100, version: version)
                snapshots.append(next)
                _ = try await log.append(next)
            }
            _ = try await log.append(
                contentsOf: (8..<12).map { .init(try! makeSnapshot(sections: 20, itemsPerSection: 100, version: $0)) })
            #expect(log.store.environment.info().mapSize > initial)
            #expect(try log.latestRevision == 12)
            for (offset, snapshot) in snapshots.enumerated() {
                #expect(try log.snapshot(at: UInt64(offset + 1)) == snapshot)
            }
        }
    }
}
