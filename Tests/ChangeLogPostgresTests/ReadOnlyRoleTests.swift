import ChangeLog
import ChangeLogPostgres
import ChangeLogTestSupport
import Foundation
import Testing

/// A role that may only `SELECT`: opened for reading only, it reads, follows and verifies a
/// log; an append is refused with one clear line; and opening for reading never creates or
/// migrates the schema.
@Suite struct ReadOnlyRoleTests {
    @Test func aSelectOnlyRoleReadsFollowsAndVerifiesAndCannotAppend() async throws {
        guard let url = TestServer.url else { return }
        let logURL = TestServer.freshLogURL(url)
        let writer = try await offThePool { try ChangeLog(url: logURL) }
        for revision in UInt64(1)...20 {
            _ = try await writer.append(try CrashContent.snapshot(seed: 21, revision: revision, items: 30))
        }
        let readerURL = try await selectOnlyRole(on: url, loggingInto: logURL)

        let reader = try await offThePool {
            try ChangeLog(url: readerURL, options: .init(subscriptionPollInterval: .seconds(3600), readOnly: true))
        }
        #expect(try await offThePool { try reader.latestRevision } == 20)
        let record = try await offThePool { try reader.record(at: 7) }
        #expect(record.snapshot == (try CrashContent.snapshot(seed: 21, revision: 7, items: 30)))
        let report = try await reader.verify()
        #expect(report.isValid && report.revisionsChecked == 20)

        // It follows: catches up, then takes the writer's next append, woken by its NOTIFY.
        var iterator = reader.subscribe(from: 15).makeAsyncIterator()
        for expected in UInt64(15)...20 {
            guard case .revision(let record)? = try await iterator.next() else {
                Issue.record("no revision \(expected)")
                return
            }
            #expect(record.revision == expected)
        }
        #expect(try await iterator.next() == .caughtUp(latest: 20))
        _ = try await writer.append(try CrashContent.snapshot(seed: 21, revision: 21, items: 30))
        guard case .revision(let live)? = try await iterator.next() else {
            Issue.record("the subscription ended")
            return
        }
        #expect(live.revision == 21)

        // Opened for reading only, an append is refused before it reaches the server.
        let next = try CrashContent.snapshot(seed: 21, revision: 22, items: 30)
        let refused = await #expect(throws: ChangeLogError.self) { _ = try await reader.append(next) }
        #expect(refused?.code == .readOnly)
        #expect(refused?.message.contains("opened for reading only") == true, "\(refused?.message ?? "")")
        #expect(!(refused?.message.contains("\n") ?? true))

        // Opened for writing, the server refuses it: one line that says what to do.
        let mistaken = try await offThePool { try ChangeLog(url: readerURL) }
        let denied = await #expect(throws: ChangeLogError.self) { _ = try await mistaken.append(next) }
        #expect(denied?.message.contains("permission denied") == true, "\(denied?.message ?? "")")
        #expect(denied?.message.contains("readOnly") == true, "\(denied?.message ?? "")")
        #expect(!(denied?.message.contains("\n") ?? true))
        #expect(try await offThePool { try writer.latestRevision } == 21)
    }

    @Test func openingForReadingNeverCreatesTheSchema() async throws {
        guard let url = TestServer.url, var components = URLComponents(string: url) else { return }
        let database = "readonly_\(UUID().uuidString.lowercased().prefix(8))"
        try await offThePool { () throws(ChangeLogError) in
            try PostgresAdministration.execute("CREATE DATABASE \(database)", url: url)
        }
        components.path = "/" + database
        let empty = components.string! + "?log=orders"
        // Twice, by a role that could create the tables: the first open created nothing.
        for _ in 0..<2 {
            let error = await #expect(throws: ChangeLogError.self) {
                try await offThePool { try ChangeLog(url: empty, options: .init(readOnly: true)) }
            }
            #expect(error?.code == .logNotFound)
            #expect(error?.message.contains("holds no change logs") == true, "\(error?.message ?? "")")
            #expect(!(error?.message.contains("\n") ?? true))
        }
    }

    /// A new role that may connect and `SELECT` the logs' tables and nothing else, and the URL
    /// of `logURL`'s log as that role.
    private func selectOnlyRole(on url: String, loggingInto logURL: String) async throws -> String {
        let role = "reader_\(UUID().uuidString.lowercased().prefix(8))"
        let password = UUID().uuidString
        for statement in [
            "CREATE ROLE \(role) LOGIN PASSWORD '\(password)'",
            "GRANT SELECT ON changelog_schema, changelog_logs, changelog_records, changelog_chunks TO \(role)",
        ] {
            try await offThePool { () throws(ChangeLogError) in
                try PostgresAdministration.execute(statement, url: url)
            }
        }
        var components = try #require(URLComponents(string: logURL))
        components.user = role
        components.password = password
        return try #require(components.string)
    }
}
