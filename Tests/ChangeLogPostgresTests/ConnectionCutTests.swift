import ChangeLog
import ChangeLogPostgres
import ChangeLogTestSupport
import Foundation
import Testing

/// The connection of an append cut at its commit (through ``CommitCutProxy``): the append
/// commits entirely or not at all, the caller is told which, and the next append works on a
/// new connection. Both ways an append commits are cut: in one request (`changelog_append`, a
/// writer that appended the log's latest revision itself) and in a transaction (a writer that
/// has yet to append, which reads the log's end in the transaction).
@Suite struct ConnectionCutTests {
    /// How the cut append reaches the server.
    enum Route: String, CaseIterable, CustomTestStringConvertible {
        case oneRequest, transaction
        var testDescription: String { rawValue }
    }

    /// A cut after the server committed and before its reply arrived: the append resolves the
    /// outcome on a new connection and returns its revision, as for any committed append.
    @Test(arguments: Route.allCases)
    func anAppendWhoseCommitReplyIsLostIsFoundCommitted(route: Route) async throws {
        guard let (log, proxy) = try await logBehindProxy(firstAppended: route, seed: 9) else { return }
        proxy.arm(.afterCommit)
        let second = try CrashContent.snapshot(seed: 9, revision: 2, items: 30)
        let appended = try await log.append(second, meta: ["cut": "after"], expectedLatest: 1)
        #expect(proxy.cutCount == 1)
        #expect(proxy.oneRequestCutCount == (route == .oneRequest ? 1 : 0))
        #expect(appended.revision == 2)
        let stored = try await offThePool { try log.record(at: 2) }
        #expect(stored.snapshot == second && stored.meta == ["cut": "after"])
        // The next append works, after exactly what was committed.
        let third = try CrashContent.snapshot(seed: 9, revision: 3, items: 30)
        #expect(try await log.append(third, expectedLatest: 2).revision == 3)
        #expect(try await log.verify().revisionsChecked == 3)
    }

    /// A cut before the commit reached the server. In a transaction, the append throws, saying
    /// it was not committed, and nothing of it is stored. In one request, the writer finds it
    /// not committed on a new connection and appends it again in a transaction: it is stored
    /// once.
    @Test(arguments: Route.allCases)
    func anAppendWhoseCommitNeverArrivedIsNotCommitted(route: Route) async throws {
        guard let (log, proxy) = try await logBehindProxy(firstAppended: route, seed: 10) else { return }
        proxy.arm(.beforeCommit)
        let second = try CrashContent.snapshot(seed: 10, revision: 2, items: 30)
        switch route {
        case .transaction:
            let error = await #expect(throws: ChangeLogError.self) {
                _ = try await log.append(second, expectedLatest: 1)
            }
            #expect(error?.message.contains("it was not committed") == true, "\(error?.message ?? "")")
            #expect(!(error?.message.contains("\n") ?? true))
            #expect(try await offThePool { try log.latestRevision } == 1)
            #expect(try await log.append(second, expectedLatest: 1).revision == 2)
        case .oneRequest:
            #expect(try await log.append(second, expectedLatest: 1).revision == 2)
        }
        #expect(proxy.cutCount == 1)
        #expect(proxy.oneRequestCutCount == (route == .oneRequest ? 1 : 0))
        #expect(try await offThePool { try log.record(at: 2) }.snapshot == second)
        #expect(try await log.verify().revisionsChecked == 2)
    }

    /// A new log reached through a ``CommitCutProxy`` in front of the test server, holding one
    /// revision: appended through the proxy (the writer then appends the next in one request),
    /// or directly (the writer behind the proxy then appends in a transaction).
    private func logBehindProxy(firstAppended route: Route, seed: UInt64) async throws -> (ChangeLog, CommitCutProxy)? {
        guard let url = TestServer.url, var components = URLComponents(string: TestServer.freshLogURL(url)),
            let port = components.port
        else { return nil }
        let direct = components.string!
        let proxy = try CommitCutProxy(upstream: port)
        components.port = proxy.port
        let proxied = components.string!
        let log = try await offThePool { try ChangeLog(url: proxied) }
        let first = try CrashContent.snapshot(seed: seed, revision: 1, items: 30)
        switch route {
        case .oneRequest:
            #expect(try await log.append(first, expectedLatest: 0).revision == 1)
        case .transaction:
            let other = try await offThePool { try ChangeLog(url: direct) }
            #expect(try await other.append(first, expectedLatest: 0).revision == 1)
        }
        return (log, proxy)
    }
}
