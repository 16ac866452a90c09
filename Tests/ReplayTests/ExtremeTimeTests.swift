import Foundation
import Testing

@testable import ChangeLog

/// Times are whatever a record holds: a faulty writer, or another implementation of the
/// format, may store any 64-bit millisecond count. Reading commands must print them, not trap.
@Suite("replay with extreme revision times")
struct ExtremeTimeTests {
    @Test("stats, log, show and export print the earliest and latest representable times")
    func extremeTimes() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        do {
            let opened = try ChangeLog(path: log, options: .init(createIfMissing: false))
            let latest = try opened.latestRevision
            for (revision, time) in [(UInt64(1), Int64.min), (latest, Int64.max)] {
                try opened.store.environment.write { transaction in
                    let body = try opened.store.lmdb.withLogTransaction(transaction) { view in
                        try opened.store.body(at: revision, in: view)
                    }
                    let moved = RevisionRecordBody(
                        version: body.version, timestamp: time, meta: body.meta, sectionCount: body.sectionCount,
                        itemCount: body.itemCount,
                        sectionRuns: body.sectionRuns, changes: body.changes)
                    try transaction.put(
                        moved.encoded(revision: revision), forKey: revision.bigEndianKey, in: opened.store.revisions)
                }
            }
        }
        for command in [["stats"], ["log"], ["show", "1"], ["export"], ["verify"]] {
            let result = try await ToolRunner.run(command + ["--log", log])
            #expect(result.status == 0, "\(command): \(result)")
            #expect(result.stderr == "", "\(command)")
        }
        let stats = try await ToolRunner.run(["stats", "--log", log])
        #expect(stats.stdout.contains("time span"), "\(stats)")
    }
}
