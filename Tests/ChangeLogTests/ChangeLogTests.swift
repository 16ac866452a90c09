import Foundation
import ListAdapter
import ListFormat
import Testing

@testable import ChangeLog

@Suite("ChangeLog")
struct ChangeLogTests {
    /// The process keeps one LMDB environment per log; after the files were deleted or replaced
    /// behind it, handing that environment out again would append to a file no longer there.
    @Test(
        "a log deleted or replaced while open is refused until its instances are released",
        arguments: [false, true])
    func replacedWhileOpen(restoreAnotherLog: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let other = directory + "/other"
            do {
                let backup = try ChangeLog(path: other)
                _ = try await backup.append(try makeSnapshot(sections: 1, itemsPerSection: 2, version: 9))
                try backup.flush()
            }
            do {
                let open = try ChangeLog(path: path)
                _ = try await open.append(try makeSnapshot(sections: 1, itemsPerSection: 3))
                try FileManager.default.removeItem(atPath: path)
                if restoreAnotherLog {
                    try FileManager.default.copyItem(atPath: other, toPath: path)
                }
                let error = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
                #expect(error?.code == .cannotOpen)
                #expect(error?.message.contains("was deleted or replaced while this process still has it open") == true)
                #expect(try open.latestRevision == 1)
            }
            // Released: the path opens as what it now holds.
            let reopened = try ChangeLog(path: path)
            #expect(try reopened.latestRevision == (restoreAnotherLog ? 1 : 0))
            _ = try await reopened.append(try makeSnapshot(sections: 2, itemsPerSection: 1))
            #expect(try reopened.latestRevision == (restoreAnotherLog ? 2 : 1))
            #expect(try await reopened.verify().isValid)
        }
    }

    @Test("opening a missing path without createIfMissing names the path")
    func missingPath() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/missing/log"
            let error = #expect(throws: ChangeLogError.self) {
                _ = try ChangeLog(path: path, options: .init(createIfMissing: false))
            }
            #expect(error?.code == .logNotFound)
            #expect(error?.path == path)
            #expect(error?.message.contains(path) == true)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("opening a file is an error that names it")
    func fileInsteadOfDirectory() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/file"
            _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
            let error = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
            #expect(error?.code == .cannotOpen)
            #expect(error?.message.contains(path) == true)
        }
    }

    @Test("appends store time, meta, snapshot and changes; reads return them")
    func appendAndRead() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path + "/log")
            #expect(try log.latestRevision == 0)
            #expect(try log.firstRevision == 0)
            let first = try snapshot([("One", ["a:Title A", "c"]), ("Two", ["b:Title B"])])
            let second = try snapshot([("Two", ["b:Title B2", "d"]), ("One", ["c", "a:Title A"]), ("", [])])
            let third = try snapshot([("Ünïcödé ✓", ["é:\"quoted\"\n"])])
            let before = Timestamp.now()
            let r1 = try await log.append(first, meta: ["commit": "3f2a9c"])
            let r2 = try await log.append(second)
            let r3 = try await log.append(third, meta: ["reason": "reset", "a": ""])
            let after = Timestamp.now()
            #expect([r1.revision, r2.revision, r3.revision] == [1, 2, 3])
            #expect(r1.changes == LogSnapshot().changes(to: first))
            #expect(r1.changes.insertedSections.count == 2)
            #expect(r2.changes == first.changes(to: second))
            #expect(r3.changes == second.changes(to: third))
            #expect(try log.latestRevision == 3)
            #expect(try log.firstRevision == 1)

            let record = try log.record(at: 2)
            #expect(record.revision == 2)
            #expect(record.snapshot == second)
            #expect(record.changes == r2.changes)
            #expect(record.meta == [:])
            #expect(record.millisecondsSince1970 == r2.millisecondsSince1970)
            #expect((before...after).contains(record.millisecondsSince1970))
            #expect(abs(record.time.timeIntervalSince1970 * 1000 - Double(record.millisecondsSince1970)) < 1)
            #expect(try log.record(at: 1).meta == ["commit": "3f2a9c"])
            #expect(try log.record(at: 3).meta == ["reason": "reset", "a": ""])
            #expect(try log.snapshot(at: 1) == first)
            #expect(try log.snapshot(at: 3) == third)
        }
    }

    @Test("asking for a revision that does not exist is a clear error")
    func missingRevisions() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            for revision: UInt64 in [0, 1] {
                let error = #expect(throws: ChangeLogError.self) { _ = try log.record(at: revision) }
                #expect(error?.code == .revisionNotFound)
                #expect(error?.revision == revision)
            }
            _ = try await log.append(try snapshot([("A", ["a"])]))
            let error = #expect(throws: ChangeLogError.self) { _ = try log.snapshot(at: 2) }
            #expect(error?.code == .revisionNotFound)
            #expect(error?.message.contains("revisions 1 to 1") == true)
        }
    }

    @Test("empty snapshots, empty sections and empty titles round-trip")
    func edgeSnapshots() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let snapshots = [
                LogSnapshot(),
                try snapshot([("", [])]),
                try snapshot([("", ["x"]), ("empty", []), ("s", ["y:", "z:summary"])]),
                LogSnapshot(),
            ]
            for snapshot in snapshots {
                _ = try await log.append(snapshot)
            }
            for (offset, snapshot) in snapshots.enumerated() {
                #expect(try log.snapshot(at: UInt64(offset + 1)) == snapshot)
            }
            #expect(try log.record(at: 4).changes == snapshots[2].changes(to: snapshots[3]))
        }
    }

    @Test("precomputed changes are stored exactly as given, or verified on request")
    func precomputedChanges() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let first = try snapshot([("A", ["a", "b"])])
            let second = try snapshot([("A", ["b", "a"])])
            _ = try await log.append(first)
            let bogus = LogChanges(
                deletedSections: [-5, 7],
                movedItems: [.init(from: .init(section: 0, item: -1), to: .init(section: 9, item: 1 << 40))])
            let stored = try await log.append(second, changes: bogus, meta: ["source": "adapter"])
            #expect(stored.revision == 2)
            #expect(try log.record(at: 2).changes == bogus)
            #expect(try log.snapshot(at: 2) == second)

            let error = await #expect(throws: ChangeLogError.self) {
                _ = try await log.append(first, changes: bogus, verifiesChanges: true)
            }
            #expect(error?.code == .invalidChanges)
            #expect(error?.revision == 3)
            #expect(try log.latestRevision == 2)
            let verified = try await log.append(first, changes: second.changes(to: first), verifiesChanges: true)
            #expect(verified.revision == 3)
        }
    }

    @Test("ranges read lazily, in batches, and fail on missing revisions")
    func ranges() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            var snapshots: [LogSnapshot] = []
            for version in 0..<10 {
                let next = try makeSnapshot(sections: 3, itemsPerSection: 4 + version, version: version)
                snapshots.append(next)
                _ = try await log.append(next, meta: ["version": "\(version)"])
            }
            var seen: [UInt64] = []
            for try await record in log.records(in: 3...7, batchSize: 2) {
                seen.append(record.revision)
                #expect(record.snapshot == snapshots[Int(record.revision) - 1])
                #expect(record.meta["version"] == "\(record.revision - 1)")
                #expect(record == (try log.record(at: record.revision)))
            }
            #expect(seen == [3, 4, 5, 6, 7])

            #expect(try synchronousRevisions(log.records(from: 8, batchSize: 2)) == [8, 9, 10])

            var beyond: [UInt64] = []
            let error = await #expect(throws: ChangeLogError.self) {
                for try await record in log.records(in: 9...12) {
                    beyond.append(record.revision)
                }
            }
            #expect(error?.code == .revisionNotFound)
            #expect(error?.revision == 11)
            // A range and a batch that reach to the end of UInt64 read what there is, then stop
            // at the first revision that is not there, without reserving room for 2^64 records.
            for batchSize in [.max, 64] {
                var reached: [UInt64] = []
                let farError = await #expect(throws: ChangeLogError.self) {
                    for try await record in log.records(in: 8...UInt64.max, batchSize: batchSize) {
                        reached.append(record.revision)
                    }
                }
                #expect(reached == [8, 9, 10], "batch size \(batchSize)")
                #expect(farError?.revision == 11)
            }
            #expect(try synchronousRevisions(log.records(from: 11)) == [])
            var all: [UInt64] = []
            for try await record in log.records(from: 1, batchSize: 3) {
                all.append(record.revision)
            }
            #expect(all == Array(1...10))
            // 0 means the oldest revision, as for subscriptions.
            #expect(try synchronousRevisions(log.records(from: 0, batchSize: 4)) == Array(1...10))
            let empty = try ChangeLog(path: path + "/empty")
            #expect(try synchronousRevisions(empty.records(from: 0)) == [])
            #expect(try synchronousRevisions(empty.records(from: 1)) == [])
        }
    }

    /// Reads `records` with the synchronous iterator, then checks it stays finished.
    private func synchronousRevisions(_ records: RevisionRecords) throws -> [UInt64] {
        var iterator = records.makeAsyncIterator()
        var revisions: [UInt64] = []
        while let record = try iterator.next() {
            revisions.append(record.revision)
        }
        #expect(try iterator.next() == nil)
        return revisions
    }
}
