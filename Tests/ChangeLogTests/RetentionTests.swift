import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

@Suite("Retention")
struct RetentionTests {
    @Test("dropping revisions keeps the first kept revision's full snapshot and frees unused chunks")
    func dropBefore() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            var snapshots: [LogSnapshot] = []
            for version in 0..<10 {
                let next = try makeSnapshot(sections: 4, itemsPerSection: 20 + version, version: version)
                snapshots.append(next)
                _ = try await log.append(next)
            }
            let chunksBefore = try log.store.environment.read { try $0.statistics(of: log.store.chunks).entries }

            let report = try await log.dropRevisions(before: 6)
            #expect(report.firstRevision == 6)
            #expect(report.droppedRevisions == 5)
            #expect(report.droppedChunks > 0)
            let chunksAfter = try log.store.environment.read { try $0.statistics(of: log.store.chunks).entries }
            #expect(chunksAfter == chunksBefore - report.droppedChunks)
            #expect(try log.firstRevision == 6)
            #expect(try log.latestRevision == 10)

            let error = #expect(throws: ChangeLogError.self) { _ = try log.record(at: 5) }
            #expect(error?.code == .revisionDropped)
            #expect(error?.revision == 5)
            #expect(error?.message.contains("revisions 6 to 10") == true)
            let rangeError = await #expect(throws: ChangeLogError.self) {
                for try await _ in log.records(from: 2) {}
            }
            #expect(rangeError?.code == .revisionDropped)
            #expect(rangeError?.revision == 2)
            // 0 and 1 mean the oldest revision stored, as for subscriptions.
            for start: UInt64 in [0, 1] {
                var fromOldest: [UInt64] = []
                for try await record in log.records(from: start, batchSize: 2) {
                    fromOldest.append(record.revision)
                }
                #expect(fromOldest == [6, 7, 8, 9, 10], "from \(start)")
            }

            var kept: [UInt64] = []
            for try await record in log.records(from: 6) {
                kept.append(record.revision)
                #expect(record.snapshot == snapshots[Int(record.revision) - 1])
            }
            #expect(kept == [6, 7, 8, 9, 10])

            let noOp = try await log.dropRevisions(before: 3)
            #expect(noOp == RetentionReport(firstRevision: 6, droppedRevisions: 0, droppedChunks: 0))
            let tooFar = await #expect(throws: ChangeLogError.self) { _ = try await log.dropRevisions(before: 11) }
            #expect(tooFar?.code == .invalidArgument)

            let appended = try await log.append(snapshots[0])
            #expect(appended.revision == 11)
            #expect(appended.changes == snapshots[9].changes(to: snapshots[0]))
            _ = try await log.dropRevisions(before: 11)
            #expect(try log.snapshot(at: 11) == snapshots[0])
            let storedChunks = try log.store.environment.read { try $0.statistics(of: log.store.chunks).entries }
            var planner = ChunkPlanner(nextID: 1)
            _ = planner.store(snapshots[0], reusing: .empty)
            #expect(storedChunks == planner.newChunks.count)
        }
    }

    @Test("statistics count the pages retention freed, and bytes per revision only the pages holding data")
    func statisticsAfterRetention() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            for version in 0..<40 {
                _ = try await log.append(try makeSnapshot(sections: 8, itemsPerSection: 50, version: version))
            }
            let before = try await log.statistics()
            #expect(before.bytesFree < before.bytesInUse / 4, "\(before)")
            _ = try await log.dropRevisions(before: 40)
            let after = try await log.statistics()
            #expect(after.revisionCount == 1)
            // The file keeps its extent; most of it is now free for later appends.
            #expect(after.bytesInUse >= before.bytesInUse)
            #expect(after.bytesFree > before.bytesInUse / 2, "\(after)")
            #expect(after.bytesPerRevision == after.bytesInUse - after.bytesFree)
            #expect(after.bytesPerRevision < before.bytesPerRevision * 40 / 2)
        }
    }

    @Test("dropping from an empty log is an error")
    func emptyLog() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let error = await #expect(throws: ChangeLogError.self) { _ = try await log.dropRevisions(before: 1) }
            #expect(error?.code == .invalidArgument)
        }
    }
}
