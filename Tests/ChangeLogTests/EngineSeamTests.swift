import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// The log's core over a second storage engine (``MemoryLogStorage``): what the engine seam
/// promises is that the writer, reading, subscriptions, verification and retention need nothing
/// of LMDB, and that the records and chunks are the same bytes on every engine.
@Suite("The storage engine seam")
struct EngineSeamTests {
    /// Six revisions of three sections, each changing a few items.
    static func entries() throws -> [ChangeLog.AppendEntry] {
        try (0..<6).map { version in
            var entry = ChangeLog.AppendEntry(
                try makeSnapshot(sections: 3, itemsPerSection: 10 + version, version: version),
                meta: ["version": "\(version)"])
            entry.millisecondsSince1970 = 1_700_000_000_000 + Int64(version)
            return entry
        }
    }

    @Test("appends, conflicts, reads, verification and retention run over another engine")
    func coreOverAnotherEngine() async throws {
        let storage = MemoryLogStorage(path: "memory:seam")
        let log = try ChangeLog(storage: storage, options: .init())
        let entries = try Self.entries()
        for entry in entries {
            _ = try await log.append(contentsOf: [entry])
        }
        #expect(try log.latestRevision == 6)
        #expect(try log.firstRevision == 1)
        #expect(storage.commits == 6)
        for (index, entry) in entries.enumerated() {
            let record = try log.record(at: UInt64(index + 1))
            #expect(record.snapshot == entry.snapshot)
            #expect(record.meta == entry.meta)
            #expect(record.millisecondsSince1970 == entry.millisecondsSince1970)
        }
        let conflict = await #expect(throws: ChangeLogError.self) {
            _ = try await log.append(contentsOf: [entries[0]], expectedLatest: 2)
        }
        #expect(conflict?.code == .conflict)
        #expect(try log.latestRevision == 6)
        #expect(try await log.verify().isValid)

        let chunksBefore = storage.contents.chunks.count
        let report = try await log.dropRevisions(before: 4)
        #expect(report.firstRevision == 4)
        #expect(report.droppedRevisions == 3)
        #expect(storage.contents.chunks.count == chunksBefore - report.droppedChunks)
        let dropped = #expect(throws: ChangeLogError.self) { _ = try log.record(at: 2) }
        #expect(dropped?.code == .revisionDropped)
        #expect(try log.snapshot(at: 4) == entries[3].snapshot)
        let verified = try await log.verify()
        #expect(verified.isValid)
        #expect(verified.revisionsChecked == 3)
    }

    @Test("a subscription catches up, then follows appends, over another engine")
    func subscriptionOverAnotherEngine() async throws {
        let log = try ChangeLog(storage: MemoryLogStorage(path: "memory:subscription"), options: .init())
        let entries = try Self.entries()
        _ = try await log.append(contentsOf: Array(entries.prefix(3)))
        var iterator = log.subscribe(from: 1).makeAsyncIterator()
        var stored: [UInt64] = []
        while case .revision(let record)? = try await iterator.next() {
            stored.append(record.revision)
        }
        #expect(stored == [1, 2, 3])
        _ = try await log.append(contentsOf: Array(entries.suffix(3)))
        var live: [LogSnapshot] = []
        while live.count < 3, case .revision(let record)? = try await iterator.next() {
            live.append(record.snapshot)
        }
        #expect(live == entries.suffix(3).map(\.snapshot))
    }

    @Test("records and chunks are the same bytes on LMDB and on another engine")
    func sameBytesOnEveryEngine() async throws {
        try await withTemporaryDirectory { path in
            let entries = try Self.entries()
            let lmdb = try ChangeLog(path: path)
            let storage = MemoryLogStorage(path: "memory:bytes")
            let memory = try ChangeLog(storage: storage, options: .init())
            _ = try await lmdb.append(contentsOf: entries)
            _ = try await memory.append(contentsOf: entries)
            let stored = storage.contents
            #expect(stored.records.count == 6)
            let (records, chunks) = try lmdb.store.lmdb.readLMDB(during: "comparing") { transaction in
                (
                    try (1...6).map {
                        try transaction.value(forKey: UInt64($0).bigEndianKey, in: lmdb.store.revisions)
                    },
                    try stored.chunks.keys.sorted().map {
                        try transaction.value(forKey: $0.bigEndianKey, in: lmdb.store.chunks)
                    }
                )
            }
            #expect(records == (1...6).map { stored.records[UInt64($0)] })
            #expect(chunks == stored.chunks.keys.sorted().map { stored.chunks[$0] })
            #expect(
                try lmdb.store.lmdb.readLMDB(during: "counting") { try $0.statistics(of: lmdb.store.chunks) }.entries
                    == stored.chunks.count)
        }
    }
}
