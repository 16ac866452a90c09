import ChangeLog
import ChangeLogPostgres
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Synchronization
import Testing

/// The PostgreSQL server of the tests: `CHANGELOG_TEST_POSTGRES_URL`, which
/// scripts/with-postgres.sh sets for the throwaway server it starts.
enum TestServer {
    /// The server's URL, or `nil` (the test returns) when there is none: one line says so for the
    /// whole run; under CI (`CI=true`) a missing server fails the test instead.
    static var url: String? {
        if let url = ProcessInfo.processInfo.environment["CHANGELOG_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record(
                "CI=true and CHANGELOG_TEST_POSTGRES_URL is not set: run the tests through scripts/with-postgres.sh")
            return nil
        }
        if !announced.exchange(true, ordering: .relaxed) {
            print(
                "ChangeLogPostgresTests: skipped, CHANGELOG_TEST_POSTGRES_URL is not set "
                    + "(scripts/with-postgres.sh starts a server and sets it)")
        }
        return nil
    }

    private static let announced = Atomic(false)

    /// The URL of a new log, of a name no other test uses, in the test server's database.
    static func freshLogURL(_ url: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "log=test-\(UUID().uuidString.lowercased())"
    }
}

/// Opens a new, empty log on the test server for `body`, or returns `nil` without calling it
/// when there is no server (``TestServer/url``): the one call an engine conformance suite needs.
func withFreshPostgresLog<R>(
    options: ChangeLog.Options = ChangeLog.Options(), _ body: (ChangeLog, String) async throws -> R
) async throws -> R? {
    guard let url = TestServer.url else { return nil }
    let logURL = TestServer.freshLogURL(url)
    let log = try await offThePool { () throws(ChangeLogError) in try ChangeLog(url: logURL, options: options) }
    return try await body(log, logURL)
}

/// The stored bytes of every record and chunk of `log`, as its engine hands them over.
func storedBytes(of log: ChangeLog) throws -> (records: [[UInt8]], chunks: [UInt64: [UInt8]]) {
    try log.storage.read { transaction in
        var records: [[UInt8]] = []
        let latest = try transaction.withLatestRecord { revision, _ in revision } ?? 0
        for revision in stride(from: UInt64(1), through: latest, by: 1) {
            records.append(try transaction.withRecord(at: revision) { Array($0!) })
        }
        var chunks: [UInt64: [UInt8]] = [:]
        for id in stride(from: UInt64(1), through: try transaction.largestChunkID() ?? 0, by: 1) {
            if let bytes = try transaction.withChunk(id, { $0.map { Array($0) } }) { chunks[id] = bytes }
        }
        return (records, chunks)
    }
}
