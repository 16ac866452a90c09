import ChangeLogTestSupport
import Foundation
import ListAdapter
import ListFormat
import Testing

@testable import ChangeLog

@Suite("Reading changes without snapshots")
struct ChangesOnlyReadingTests {
    /// A log holding `count` revisions of the random history seeded with `seed`, with meta.
    private func makeLog(at path: String, seed: UInt64, count: Int) async throws -> ChangeLog {
        let log = try ChangeLog(path: path)
        for (offset, snapshot) in RandomHistory.snapshots(seed: seed, count: count).enumerated() {
            _ = try await log.append(snapshot, meta: offset % 3 == 0 ? [:] : ["step": "\(offset)", "é": "ü"])
        }
        return log
    }

    @Test("changes(in:) gives exactly the full records without their snapshots", arguments: [1, 7, 42] as [UInt64])
    func sameAsFullRecords(seed: UInt64) async throws {
        try await withTemporaryDirectory { path in
            let log = try await makeLog(at: path, seed: seed, count: 150)
            var full: [RevisionChanges] = []
            var lines: [String] = []
            for try await record in log.records(in: 1...150, batchSize: 7) {
                full.append(RevisionChanges(record))
                var bytes: [UInt8] = []
                RevisionLine.appendChangesOnlyLine(
                    revision: record.revision, millisecondsSince1970: record.millisecondsSince1970,
                    meta: record.meta, changes: record.changes, to: &bytes)
                lines.append(String(decoding: bytes, as: UTF8.self))
            }
            for batchSize in [1, 5, 256] {
                var read: [RevisionChanges] = []
                for try await revision in log.changes(in: 1...150, batchSize: batchSize) { read.append(revision) }
                #expect(read == full)
                #expect(read.map { $0.jsonLine() } == lines)
            }
            var open: [RevisionChanges] = []
            for try await revision in log.changes(from: 0, batchSize: 9) { open.append(revision) }
            #expect(open == full)
            // Synchronously, as a caller off any task iterates.
            func readSynchronously() throws -> [RevisionChanges] {
                var iterator = log.changes(in: 40...44).makeAsyncIterator()
                var some: [RevisionChanges] = []
                while let revision = try iterator.next() { some.append(revision) }
                return some
            }
            #expect(try readSynchronously() == Array(full[39...43]))
            #expect(try log.changes(at: 99) == full[98])
        }
    }

    @Test("statistics read from the changes equal those added up from the full records")
    func statisticsFromChanges() async throws {
        try await withTemporaryDirectory { path in
            let log = try await makeLog(at: path, seed: 3, count: 90)
            var operations = LogChanges.Counts()
            var largest: ChangeLog.SnapshotSize?
            for try await record in log.records(in: 1...90) {
                operations += record.changes.counts
                if record.snapshot.itemCount > largest?.items ?? -1 {
                    largest = ChangeLog.SnapshotSize(
                        revision: record.revision, items: record.snapshot.itemCount,
                        sections: record.snapshot.sectionCount)
                }
            }
            let statistics = try await log.statistics()
            #expect(statistics.revisionCount == 90)
            #expect(statistics.operations == operations)
            #expect(statistics.largestSnapshot == largest)
        }
    }

    @Test("a damaged record stops the changes where it stops the full records, naming it")
    func damagedRecord() async throws {
        try await withTemporaryDirectory { path in
            let log = try await makeLog(at: path, seed: 5, count: 20)
            try tamperRecord(of: 12, in: log) { $0[$0.count / 2] ^= 0x10 }
            for batchSize in [1, 4, 64] {
                var read: [UInt64] = []
                let error = await #expect(throws: ChangeLogError.self) {
                    for try await revision in log.changes(in: 1...20, batchSize: batchSize) {
                        read.append(revision.revision)
                    }
                }
                #expect(read == Array(1...11))
                #expect(error?.code == .checksumMismatch)
                #expect(error?.revision == 12)
            }
            let error = #expect(throws: ChangeLogError.self) { try log.changes(at: 12) }
            #expect(error?.code == .checksumMismatch)
        }
    }

    @Test("a range outside the log fails as records(in:) does")
    func missingRevisions() async throws {
        try await withTemporaryDirectory { path in
            let log = try await makeLog(at: path, seed: 9, count: 5)
            var read: [UInt64] = []
            let error = await #expect(throws: ChangeLogError.self) {
                for try await revision in log.changes(in: 3...8) { read.append(revision.revision) }
            }
            #expect(read == [3, 4, 5])
            #expect(error?.code == .revisionNotFound)
            #expect(error?.revision == 6)
            #expect(throws: ChangeLogError.self) { try log.changes(at: 6) }
        }
    }
}
