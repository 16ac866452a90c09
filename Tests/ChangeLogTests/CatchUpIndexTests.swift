import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

@_spi(Benchmarks) @testable import ChangeLog

@Suite("Catching up with snapshots indexed from kept hashes")
struct CatchUpIndexTests {
    /// Every identifier of `snapshot` leads to its own path, and none that it lacks leads anywhere.
    private func expectIndexed(_ snapshot: LogSnapshot, revision: UInt64) {
        for (sectionOffset, section) in snapshot.sections.enumerated() {
            for (itemOffset, item) in section.items.enumerated() {
                let path = ItemPath(section: sectionOffset, item: itemOffset)
                #expect(snapshot.path(of: item.id) == path, "revision \(revision), \(item.id)")
            }
        }
        #expect(snapshot.path(of: "not an identifier of the history") == nil)
    }

    @Test(
        "records(in:) hands out the stored snapshots, indexed as if built from their sections",
        arguments: [1, 7, 42] as [UInt64])
    func sameAsRehashing(seed: UInt64) async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let snapshots = RandomHistory.snapshots(seed: seed, count: 120)
            for snapshot in snapshots { _ = try await log.append(snapshot) }
            for batchSize in [1, 7, 64] {
                var read: [RevisionRecord] = []
                for try await record in log.records(in: 1...120, batchSize: batchSize) { read.append(record) }
                var rehashed: [RevisionRecord] = []
                for try await record in log.baselineRecords(in: 1...120, batchSize: batchSize) {
                    rehashed.append(record)
                }
                #expect(read == rehashed)
                #expect(read.map(\.snapshot) == snapshots)
                for (record, before) in zip(read.dropFirst(), read) {
                    expectIndexed(record.snapshot, revision: record.revision)
                    // The diff reads the index's hashes: it must give the stored changes.
                    #expect(before.snapshot.changes(to: record.snapshot) == record.changes)
                }
            }
        }
    }

    @Test("an item chunk named by two sections of one revision is a duplicate, caught while catching up")
    func duplicateAcrossSections() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let snapshots = try (0..<3).map { try makeSnapshot(sections: 3, itemsPerSection: 10, version: $0) }
            for snapshot in snapshots { _ = try await log.append(snapshot) }
            // Revision 2's second section also names the first item chunk of its first section,
            // a chunk the loader has decoded (and hashed) just before: the record and the section
            // chunk are rewritten with totals that agree, so only the duplicate is wrong.
            let body = try log.store.read(during: "reading") { try log.store.body(at: 2, in: $0) }
            let (sections, chunkItems) = try log.store.read(during: "reading") { transaction in
                let run = try transaction.chunk(body.sectionRuns[0]).chunk
                guard case .sections(let ids) = run else { throw ChunkFailure(kind: .inconsistent("not a run")) }
                let sections = try ids.prefix(2).map { try transaction.chunk($0).chunk }
                guard case .section(_, _, _, let firstChunks) = sections[0],
                    case .items(let items) = try transaction.chunk(firstChunks[0]).chunk
                else { throw ChunkFailure(kind: .inconsistent("not a section of items")) }
                return (Array(zip(ids.prefix(2), sections)), items.count)
            }
            guard case .section(_, _, _, let firstChunks) = sections[0].1,
                case .section(let title, let summary, let itemCount, let itemChunks) = sections[1].1
            else {
                Issue.record("revision 2's first chunks are not sections")
                return
            }
            try log.store.environment.write { transaction in
                let forged = Chunk.section(
                    title: title, summary: summary, itemCount: itemCount + chunkItems,
                    itemChunks: itemChunks + [firstChunks[0]])
                try transaction.put(
                    Chunk.sealed(forged.content, id: sections[1].0), forKey: sections[1].0.bigEndianKey,
                    in: log.store.chunks)
                let record = RevisionRecordBody(
                    version: body.version, timestamp: body.timestamp, meta: body.meta,
                    sectionCount: body.sectionCount, itemCount: body.itemCount + chunkItems,
                    sectionRuns: body.sectionRuns, changes: body.changes)
                try transaction.put(
                    record.encoded(revision: 2), forKey: UInt64(2).bigEndianKey, in: log.store.revisions)
            }
            for reads in [log.records(in: 1...3), log.baselineRecords(in: 1...3)] {
                var read: [UInt64] = []
                let error = await #expect(throws: ChangeLogError.self) {
                    for try await record in reads { read.append(record.revision) }
                }
                #expect(read == [1])
                #expect(error?.code == .malformedRecord)
                #expect(error?.revision == 2)
                #expect(error?.message.contains("duplicate") == true, "\(error?.message ?? "")")
            }
            #expect(try log.snapshot(at: 3) == snapshots[2])
        }
    }
}
