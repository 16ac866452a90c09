import ListAdapter
import Testing

@testable import ChangeLog

/// Appending a snapshot edited in place from the log's latest one: the changes stored are the
/// full diff's, and only the chunks the edits touched are written.
@Suite("Appending edited snapshots")
struct EditedAppendTests {
    /// The number of chunks stored in `log`.
    func chunkCount(_ log: ChangeLog) throws -> Int {
        try log.store.lmdb.readLMDB(during: "counting chunks") { transaction in
            try transaction.statistics(of: log.store.chunks).entries
        }
    }

    @Test("five edits of a 10,000-item list store the diff's changes and write a handful of chunks")
    func smallEditWritesTouchedChunks() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync))
            let first = try makeSnapshot(sections: 1, itemsPerSection: 10_000)
            _ = try await log.append(first)
            let before = try chunkCount(log)

            var edited = first
            try edited.insertItems([.init(id: "new-1", summary: "n")], afterItem: "item-3000")
            try edited.insertItems([.init(id: "new-2")], beforeItem: "item-6000")
            try edited.deleteItems(["item-5000"])
            try edited.updateItem("item-2500", summary: "changed")
            try edited.moveItem("item-1000", afterItem: "item-9000")
            let appended = try await log.append(edited)
            let written = try chunkCount(log) - before

            #expect(appended.changes == first.changes(to: edited))
            #expect(appended.changes.operationCount == 5)
            #expect(try log.snapshot(at: appended.revision) == edited)
            // About 2,500 item chunks hold the list; the edits touch at most two chunks each
            // (a cut can move by one), and the section and its run are new.
            #expect(before > 2_000)
            #expect(written <= 5 * 2 + 2, "\(written) chunks written of \(before)")
        }
    }

    @Test("a snapshot edited from another than the latest is diffed in full, with the same result")
    func otherBaseIsDiffed() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync))
            let first = try makeSnapshot(sections: 2, itemsPerSection: 50)
            _ = try await log.append(first)
            var edited = try makeSnapshot(sections: 2, itemsPerSection: 50, version: 1)
            try edited.moveItem("item-3", afterItem: "item-70")
            #expect(edited.changes(editedFrom: first) == nil)
            let appended = try await log.append(edited)
            #expect(appended.changes == first.changes(to: edited))
            #expect(try log.snapshot(at: appended.revision) == edited)
        }
    }
}
