import Foundation
import ListAdapter
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
            // at the first revision that is not there (this used to reserve room for 2^64 records).
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

    @Test("FORMAT.md's revision line, keys in order, decodes back")
    func jsonLine() async throws {
        let record = RevisionRecord(
            revision: 1, millisecondsSince1970: Timestamp.milliseconds(parsing: "2026-11-20T10:00:00.000Z")!,
            meta: ["z": "last", "commit": "3f2a9c"],
            snapshot: try snapshot([("Section One", ["item_a:Title A", "item_c"])]),
            changes: LogSnapshot().changes(to: try snapshot([("Section One", ["item_a:Title A", "item_c"])])))
        let line = record.jsonLine()
        #expect(
            line == #"{"revision":1,"time":"2026-11-20T10:00:00.000Z","meta":{"commit":"3f2a9c","z":"last"},"#
                + #""snapshot":{"sections":[{"title":"Section One","items":[{"id":"item_a","summary":"Title A"},"#
                + #"{"id":"item_c"}]}]},"changes":{"sections":{"deleted":[],"inserted":[{"index":0,"#
                + #""title":"Section One","items":[{"id":"item_a","summary":"Title A"},{"id":"item_c"}]}],"#
                + #""moved":[]},"items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}}}"#)
        let keys = ["\"revision\"", "\"time\"", "\"meta\"", "\"snapshot\"", "\"changes\""]
        let positions = keys.map { line.range(of: $0)!.lowerBound }
        #expect(positions == positions.sorted())
        #expect(!line.contains("\n"))
        #expect(try JSONDecoder().decode(RevisionRecord.self, from: Data(line.utf8)) == record)
        // Codable writes the same object (in the encoder's key order).
        #expect(try JSONDecoder().decode(RevisionRecord.self, from: JSONEncoder().encode(record)) == record)

        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await log.append(record.snapshot, meta: record.meta)
            _ = try await log.append(try snapshot([("Section One", ["item_c", "item_a:Title A2"])]))
            for revision: UInt64 in [1, 2] {
                let stored = try log.record(at: revision)
                let decoded = try JSONDecoder().decode(RevisionRecord.self, from: Data(stored.jsonLine().utf8))
                #expect(decoded == stored)
            }
        }
    }

    @Test("unknown keys of a revision line are ignored, at every level")
    func jsonLineUnknownKeys() throws {
        let line =
            #"{"revision":2,"v":1,"time":"2026-11-20T10:00:00.000Z","meta":{"k":"v"},"#
            + #""snapshot":{"sections":[{"title":"A","x":[],"items":[{"id":"a","y":{}}]}],"z":null},"#
            + #""changes":{"sections":{"deleted":[0],"inserted":[],"moved":[],"w":1},"items":{"deleted":[],"#
            + #""inserted":[{"at":[0,0],"id":"a","q":"r"}],"moved":[],"updated":[]},"u":[]},"trailer":"t"}"#
        let record = try JSONDecoder().decode(RevisionRecord.self, from: Data(line.utf8))
        #expect(
            record
                == RevisionRecord(
                    revision: 2, millisecondsSince1970: 1_795_168_800_000, meta: ["k": "v"],
                    snapshot: try snapshot([("A", ["a"])]),
                    changes: LogChanges(
                        deletedSections: [0],
                        insertedItems: [.init(at: .init(section: 0, item: 0), id: "a", summary: nil)])))
    }

    @Test("times are written and parsed exactly to the millisecond")
    func timestamps() {
        #expect(Timestamp.iso8601(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.iso8601(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp.iso8601(milliseconds: 951_782_400_123) == "2000-02-29T00:00:00.123Z")
        for milliseconds: Int64 in [0, 1, 999, 1_795_168_800_000, 4_102_444_799_999, 951_782_400_123] {
            #expect(Timestamp.milliseconds(parsing: Timestamp.iso8601(milliseconds: milliseconds)) == milliseconds)
        }
        #expect(Timestamp.milliseconds(parsing: "2026-11-20T10:00:00Z") == 1_795_168_800_000)
        #expect(Timestamp.milliseconds(parsing: "2026-11-20T10:00:00.5Z") == 1_795_168_800_500)
        #expect(Timestamp.milliseconds(parsing: "2026-11-20T10:00:00.123456Z") == 1_795_168_800_123)
        for bad in ["", "2026-11-20", "2026-11-20T10:00:00.000", "2026-13-20T10:00:00Z", "2026-11-20T10:00:00.Z"] {
            #expect(Timestamp.milliseconds(parsing: bad) == nil)
        }
        // Days a month does not have are refused like month 13, not moved into the next month.
        let missingDays = [
            "2026-02-29T00:00:00Z", "2026-02-31T10:00:00.000Z", "2026-04-31T00:00:00Z", "1900-02-29T00:00:00Z",
        ]
        for bad in missingDays {
            #expect(Timestamp.milliseconds(parsing: bad) == nil, "\(bad)")
        }
        #expect(Timestamp.milliseconds(parsing: "2024-02-29T00:00:00Z") == 1_709_164_800_000)
        #expect(Timestamp.milliseconds(parsing: "2000-02-29T00:00:00.123Z") == 951_782_400_123)
        #expect(Timestamp.milliseconds(parsing: "-0004-02-29T00:00:00Z") != nil)
        // Years outside 0...9999 take ISO 8601's expanded form, and every 64-bit time round-trips.
        #expect(Timestamp.iso8601(milliseconds: -62_167_219_200_001) == "-0001-12-31T23:59:59.999Z")
        #expect(Timestamp.iso8601(milliseconds: 253_402_300_800_000) == "+10000-01-01T00:00:00.000Z")
        for milliseconds: Int64 in [
            .min, .min + 1, -62_167_219_200_001, -62_167_219_200_000, 253_402_300_799_999, 253_402_300_800_000,
            .max - 1, .max,
        ] {
            let text = Timestamp.iso8601(milliseconds: milliseconds)
            #expect(Timestamp.milliseconds(parsing: text) == milliseconds, "\(text)")
        }
        for bad in ["+999-01-01T00:00:00Z", "-99999999999999999999-01-01T00:00:00Z", "+-2026-01-01T00:00:00Z"] {
            #expect(Timestamp.milliseconds(parsing: bad) == nil, "\(bad)")
        }
        let ancient = RevisionRecord(
            revision: 1, millisecondsSince1970: -62_167_219_200_001, meta: [:], snapshot: LogSnapshot(),
            changes: LogChanges())
        let decoded = try? JSONDecoder().decode(RevisionRecord.self, from: Data(ancient.jsonLine().utf8))
        #expect(decoded == ancient)
        let date = ISO8601DateFormatter().date(from: "2026-11-20T10:00:00Z")!
        #expect(Int64(date.timeIntervalSince1970 * 1000) == 1_795_168_800_000)
    }

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
