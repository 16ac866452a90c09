import ChangeLog
import ChangeLogPostgres
import ChangeLogTestSupport
import Foundation
import Testing

/// The connection of an append cut at its commit (through ``CommitCutProxy``): the append
/// commits entirely or not at all, the caller is told which, and the next append works on a
/// new connection.
@Suite struct ConnectionCutTests {
    /// A cut after the server committed and before its reply arrived: the append resolves the
    /// outcome on a new connection and returns its revision, as for any committed append.
    @Test func anAppendWhoseCommitReplyIsLostIsFoundCommitted() async throws {
        guard let (log, proxy) = try await logBehindProxy() else { return }
        let first = try CrashContent.snapshot(seed: 9, revision: 1, items: 30)
        #expect(try await log.append(first, expectedLatest: 0).revision == 1)
        proxy.arm(.afterCommit)
        let second = try CrashContent.snapshot(seed: 9, revision: 2, items: 30)
        let appended = try await log.append(second, meta: ["cut": "after"], expectedLatest: 1)
        #expect(proxy.cutCount == 1)
        #expect(appended.revision == 2)
        let stored = try await offThePool { try log.record(at: 2) }
        #expect(stored.snapshot == second && stored.meta == ["cut": "after"])
        // The next append works, after exactly what was committed.
        let third = try CrashContent.snapshot(seed: 9, revision: 3, items: 30)
        #expect(try await log.append(third, expectedLatest: 2).revision == 3)
        #expect(try await log.verify().revisionsChecked == 3)
    }

    /// A cut before the `COMMIT` reached the server: the append throws, saying it was not
    /// committed, and nothing of it is stored.
    @Test func anAppendWhoseCommitNeverArrivedIsReportedNotCommitted() async throws {
        guard let (log, proxy) = try await logBehindProxy() else { return }
        let first = try CrashContent.snapshot(seed: 10, revision: 1, items: 30)
        #expect(try await log.append(first, expectedLatest: 0).revision == 1)
        proxy.arm(.beforeCommit)
        let second = try CrashContent.snapshot(seed: 10, revision: 2, items: 30)
        let error = await #expect(throws: ChangeLogError.self) {
            _ = try await log.append(second, expectedLatest: 1)
        }
        #expect(proxy.cutCount == 1)
        #expect(error?.message.contains("it was not committed") == true, "\(error?.message ?? "")")
        #expect(!(error?.message.contains("\n") ?? true))
        #expect(try await offThePool { try log.latestRevision } == 1)
        #expect(try await log.append(second, expectedLatest: 1).revision == 2)
        #expect(try await log.verify().revisionsChecked == 2)
    }

    /// A new log reached through a ``CommitCutProxy`` in front of the test server.
    private func logBehindProxy() async throws -> (ChangeLog, CommitCutProxy)? {
        guard let url = TestServer.url, var components = URLComponents(string: TestServer.freshLogURL(url)),
            let port = components.port
        else { return nil }
        let proxy = try CommitCutProxy(upstream: port)
        components.port = proxy.port
        let proxied = components.string!
        return (try await offThePool { try ChangeLog(url: proxied) }, proxy)
    }
}
