import ChangeLog
import ChangeLogPostgres
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

/// Async code reads a PostgreSQL log on the engine's own threads, never on Swift's cooperative
/// pool: `ChangeLog.reading`, iterated ranges and `verify` move their waits there.
@Suite struct PostgresReadingThreadsTests {
    /// Whether the calling thread is one of `log`'s engine's read threads.
    private static func onReadThreads(_ log: ChangeLog) -> Bool {
        (log.storage.readExecutor as? BlockingThreads)?.runsCurrentThread ?? false
    }

    @Test func readingFromAsyncCodeRunsOnTheEnginesThreads() async throws {
        _ = try await withFreshPostgresLog { log, _ in
            _ = try await log.append(
                try LogSnapshot(sections: [.init(title: "a", items: [.init(id: "x", summary: "")])]))
            #expect(log.storage.readExecutor is BlockingThreads)
            let (latest, onReadThreads) = try await log.reading { () throws(ChangeLogError) in
                (try log.latestRevision, Self.onReadThreads(log))
            }
            #expect(latest == 1)
            #expect(onReadThreads)
            var revisions: [UInt64] = []
            for try await record in log.records(in: 1...1) { revisions.append(record.revision) }
            #expect(revisions == [1])
            #expect(try await log.verify().failure == nil)
        }
    }

    @Test func readingAnEmbeddedLogRunsInPlace() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reading-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try ChangeLog(path: directory.path)
        #expect(log.storage.readExecutor == nil)
        #expect(await log.reading { 42 } == 42)
    }
}
