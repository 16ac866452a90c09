import ChangeLog
import ChangeLogPostgres
import ChangeLogTestSupport
import Foundation
import Testing

/// A writer process killed with SIGKILL in the middle of its appends to a PostgreSQL log: what
/// it reported committed is there, with its content, the log has no gap and verifies (through
/// the `replay` tool as well), and another writer appends after it at once (the dead process's
/// lock on the log went with its connection).
@Suite struct KilledWriterTests {
    @Test func whatAKilledWriterReportedIsThereAndTheLogVerifies() async throws {
        guard let url = TestServer.url else { return }
        let logURL = TestServer.freshLogURL(url)
        let items = 60
        let writer = try WorkerProcess([
            "write", "--log", logURL, "--engine", "postgres", "--content-seed", "17", "--items", "\(items)",
            "--batch", "3", "--writer", "killed",
        ])
        // It prints each revision after its append returned; kill it while it appends on.
        _ = try await writer.waitForLine { line in
            line.hasPrefix("committed ") && (UInt64(line.split(separator: " ").last ?? "") ?? 0) >= 30
        }
        writer.kill()
        #expect(try await writer.waitForExit() == SIGKILL)
        let reported = writer.committedRevisions
        let lastReported = try #require(reported.last)
        #expect(reported == Array(1...lastReported))

        let log = try await offThePool { try ChangeLog(url: logURL) }
        let latest = try await offThePool { try log.latestRevision }
        // The append under way when it died committed entirely or not at all.
        #expect(latest == lastReported || latest == lastReported + 3, "reported \(lastReported), stored \(latest)")
        let stored = try await offThePool { try (1...latest).map { try log.record(at: $0) } }
        for record in stored {
            let expected = try CrashContent.snapshot(seed: 17, revision: record.revision, items: items)
            #expect(record.snapshot == expected, "revision \(record.revision)")
            #expect(record.meta == CrashContent.meta(revision: record.revision, writer: "killed"))
        }
        let verified = try await ToolProcess.replay(["verify", "--log", logURL])
        #expect(verified.status == 0, "\(verified)")
        #expect(try await log.verify().revisionsChecked == latest)

        // Nothing of the dead writer holds the log: the next append after it commits.
        let next = try CrashContent.snapshot(seed: 17, revision: latest + 1, items: items)
        #expect(try await log.append(next, expectedLatest: latest).revision == latest + 1)
    }
}
