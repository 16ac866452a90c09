import ChangeLog
import ChangeLogPostgres
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

/// The PostgreSQL engine through the public ``ChangeLog`` API, against a real server
/// (scripts/with-postgres.sh): what it stores, reads back, verifies, races and follows. Every
/// synchronous call of the log waits for the server, so the tests make them off the pool.
@Suite struct PostgresLogTests {
    @Test func appendsReadBackAndVerifyWithTheSameBytesAsLMDB() async throws {
        try await withFreshPostgresLog { log, url in
            var random = RandomSnapshots(seed: 33)
            let snapshots = random.take(300)
            let stamped = entries(snapshots)
            try await appendInGroups(stamped, to: log, seed: 1)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString)")
                .path
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let lmdb = try ChangeLog(path: directory)
            try await appendInGroups(stamped, to: lmdb, seed: 2)

            #expect(try await offThePool { try log.latestRevision } == 300)
            let report = try await log.verify()
            #expect(report.isValid && report.revisionsChecked == 300)
            let (records, chunks) = try await offThePool { try storedBytes(of: log) }
            let (lmdbRecords, lmdbChunks) = try storedBytes(of: lmdb)
            #expect(records.count == 300)
            #expect(records == lmdbRecords)
            #expect(chunks == lmdbChunks)

            // Another instance, reading only, finds the same revisions, times and snapshots.
            let reader = try await offThePool { try ChangeLog(url: url, options: .init(readOnly: true)) }
            for revision in [UInt64(1), 17, 150, 299, 300] {
                let record = try await offThePool { try reader.record(at: revision) }
                #expect(record.snapshot == snapshots[Int(revision) - 1])
                #expect(record.millisecondsSince1970 == stamped[Int(revision) - 1].millisecondsSince1970)
            }
            #expect(try await reader.verify().isValid)
            await #expect(throws: ChangeLogError.self) { _ = try await reader.append(snapshots[0]) }
        }
    }

    @Test func twoRacingWritersExactlyOneWinsEachRound() async throws {
        try await withFreshPostgresLog { first, url in
            // Two instances, each with its own connections: as two processes would be.
            let second = try await offThePool { try ChangeLog(url: url) }
            var random = RandomSnapshots(seed: 5)
            let snapshots = random.take(60)
            for round in 0..<30 {
                let expected = UInt64(round)
                async let a = outcome { () async throws(ChangeLogError) -> UInt64 in
                    try await first.append(snapshots[2 * round], expectedLatest: expected).revision
                }
                async let b = outcome { () async throws(ChangeLogError) -> UInt64 in
                    try await second.append(snapshots[2 * round + 1], expectedLatest: expected).revision
                }
                let outcomes = await [a, b]
                #expect(outcomes.filter { $0 == .appended(expected + 1) }.count == 1, "round \(round): \(outcomes)")
                #expect(outcomes.filter { $0 == .conflict }.count == 1, "round \(round): \(outcomes)")
            }
            #expect(try await offThePool { try first.latestRevision } == 30)
            #expect(try await second.verify().isValid)
        }
    }

    @Test func aSubscriptionCatchesUpThenFollowsAnotherInstancesAppends() async throws {
        try await withFreshPostgresLog { log, url in
            var random = RandomSnapshots(seed: 7)
            let snapshots = random.take(30)
            for snapshot in snapshots.prefix(20) { _ = try await log.append(snapshot) }
            // A subscriber that polls rarely: the other instance's appends reach it by NOTIFY.
            let subscriber = try await offThePool {
                try ChangeLog(url: url, options: .init(subscriptionPollInterval: .seconds(3600), readOnly: true))
            }
            var iterator = subscriber.subscribe(from: 1).makeAsyncIterator()
            for expected in snapshots.prefix(20) {
                #expect(try await iterator.next().map(snapshotOf) == expected)
            }
            #expect(try await iterator.next() == .caughtUp(latest: 20))
            for snapshot in snapshots.suffix(10) { _ = try await log.append(snapshot) }
            for (offset, expected) in snapshots.suffix(10).enumerated() {
                guard case .revision(let record)? = try await iterator.next() else {
                    Issue.record("the subscription ended or sent no revision")
                    return
                }
                #expect(record.revision == UInt64(21 + offset))
                #expect(record.snapshot == expected)
            }
        }
    }

    @Test func aMissingLogIsNotCreatedForAReaderAndTheErrorHidesThePassword() async throws {
        guard let url = TestServer.url else { return }
        let missing = TestServer.freshLogURL(url)
        let error = await #expect(throws: ChangeLogError.self) {
            try await offThePool { try ChangeLog(url: missing, options: .init(readOnly: true)) }
        }
        #expect(error?.code == .logNotFound)
        let password = URLComponents(string: url)?.password ?? "no password"
        #expect(!(error?.message.contains(password) ?? true))
    }

    @Test func aWrongPasswordAndAMissingDatabaseAreOneClearLineEach() async throws {
        guard let url = TestServer.url, var components = URLComponents(string: url) else { return }
        let password = components.password ?? ""
        components.password = "wrong-\(password)"
        let wrongURL = components.string!
        let wrong = await #expect(throws: ChangeLogError.self) {
            try await offThePool { try ChangeLog(url: wrongURL) }
        }
        #expect(wrong?.code == .cannotOpen)
        #expect(wrong?.message.contains("wrong password") == true, "\(wrong?.message ?? "")")
        #expect(!(wrong?.message.contains(password) ?? true))
        #expect(!(wrong?.message.contains("\n") ?? true))

        components.password = password
        components.path = "/no_such_database"
        let missingURL = components.string!
        let missing = await #expect(throws: ChangeLogError.self) {
            try await offThePool { try ChangeLog(url: missingURL) }
        }
        #expect(
            missing?.message.contains("database no_such_database does not exist") == true, "\(missing?.message ?? "")")
        #expect(!(missing?.message.contains(password) ?? true))
    }

    @Test func tlsRequiredOfAServerWithoutTLSIsOneClearLine() async throws {
        guard let url = TestServer.url else { return }
        let error = await #expect(throws: ChangeLogError.self) {
            try await offThePool { try ChangeLog(url: url + "?sslmode=require") }
        }
        #expect(error?.code == .cannotOpen)
        #expect(error?.message.contains("does not offer TLS") == true, "\(error?.message ?? "")")
    }

    @Test func urlsAreReadAsLibpqSpellsThem() throws {
        let address = try PostgresLogAddress(
            url: "postgresql://app:s3cret@db.example:6543/logs?log=orders&sslmode=verify-full&sslrootcert=/ca.pem",
            environment: [:])
        #expect(address.host == "db.example" && address.port == 6543 && address.user == "app")
        #expect(address.password == "s3cret" && address.database == "logs" && address.logName == "orders")
        #expect(address.tlsMode == .verifyFull && address.rootCertificateFile == "/ca.pem")
        #expect(!address.description.contains("s3cret"))
        let fromEnvironment = try PostgresLogAddress(
            url: "postgres://app@db/logs", environment: ["PGPASSWORD": "env-secret"])
        #expect(fromEnvironment.password == "env-secret" && fromEnvironment.logName == "default")
        #expect(PostgresLogAddress.redacted("postgres://app:s3cret@db/logs") == "postgres://app:***@db/logs")
        let bad = #expect(throws: ChangeLogError.self) {
            try PostgresLogAddress(url: "postgres://app:s3cret@db/logs?sslmode=sometimes", environment: [:])
        }
        #expect(bad?.code == .invalidArgument && !(bad?.message.contains("s3cret") ?? true))
        #expect(PostgresLogAddress.isPostgresURL("POSTGRES://x@y/z") && !PostgresLogAddress.isPostgresURL("/tmp/log"))
    }
}

/// How an append ended, comparably.
enum AppendOutcome: Equatable, Sendable {
    case appended(UInt64)
    case conflict
    case failed(String)
}

func outcome(_ append: () async throws(ChangeLogError) -> UInt64) async -> AppendOutcome {
    do {
        return .appended(try await append())
    } catch {
        return error.code == .conflict ? .conflict : .failed(error.message)
    }
}

/// The snapshot of a subscription's revision event; `nil` for any other event.
func snapshotOf(_ event: LogSubscription.Event) -> LogSnapshot? {
    guard case .revision(let record) = event else { return nil }
    return record.snapshot
}

/// The schema's versions, in a database of their own.
@Suite struct PostgresSchemaTests {
    /// A database of version 1 (no `changelog_append`) is read as it is, and migrated by the
    /// first writer, whose appends then go in one request.
    @Test func aVersion1DatabaseIsReadAsItIsAndMigratedByAWriter() async throws {
        guard let own = try await logInANewDatabase() else { return }
        let snapshots = try (1...3).map { try CrashContent.snapshot(seed: 31, revision: $0, items: 20) }
        let log = try await offThePool { try ChangeLog(url: own) }
        #expect(try await log.append(snapshots[0]).revision == 1)
        try await offThePool { () throws(ChangeLogError) in
            try PostgresAdministration.execute("DROP FUNCTION changelog_append", url: own)
            try PostgresAdministration.execute("UPDATE changelog_schema SET version = 1", url: own)
        }
        let reader = try await offThePool { () throws in
            var readOnly = ChangeLog.Options()
            readOnly.readOnly = true
            return try ChangeLog(url: own, options: readOnly)
        }
        #expect(try await offThePool { try reader.record(at: 1) }.snapshot == snapshots[0])
        // The writer opened before the downgrade appends in one request, which fails without the
        // function: the error says so, and nothing is written.
        let error = await #expect(throws: ChangeLogError.self) { try await log.append(snapshots[1]) }
        #expect(error?.message.contains("changelog_append") == true, "\(error?.message ?? "")")
        let writer = try await offThePool { try ChangeLog(url: own) }
        #expect(try await writer.append(snapshots[1], expectedLatest: 1).revision == 2)
        #expect(try await writer.append(snapshots[2], expectedLatest: 2).revision == 3)
        #expect(try await writer.verify().revisionsChecked == 3)
        #expect(try await offThePool { try reader.record(at: 3) }.snapshot == snapshots[2])
    }

    /// A writer whose role may not create the function (no `CREATE` on the schema) writes a
    /// version-1 database through transactions, and leaves it at version 1.
    @Test func aWriterThatMayNotMigrateAppendsThroughTransactions() async throws {
        guard let own = try await logInANewDatabase() else { return }
        let snapshots = try (1...3).map { try CrashContent.snapshot(seed: 32, revision: $0, items: 20) }
        let owner = try await offThePool { try ChangeLog(url: own) }
        #expect(try await owner.append(snapshots[0]).revision == 1)
        let role = "writer_\(UUID().uuidString.lowercased().prefix(8))"
        let password = UUID().uuidString
        try await offThePool { () throws(ChangeLogError) in
            for statement in [
                "DROP FUNCTION changelog_append", "UPDATE changelog_schema SET version = 1",
                "CREATE ROLE \(role) LOGIN PASSWORD '\(password)'",
                "GRANT SELECT ON changelog_schema, changelog_records, changelog_chunks TO \(role)",
                "GRANT SELECT, UPDATE ON changelog_logs TO \(role)",
                "GRANT INSERT ON changelog_records, changelog_chunks TO \(role)",
            ] {
                try PostgresAdministration.execute(statement, url: own)
            }
        }
        var components = try #require(URLComponents(string: own))
        components.user = role
        components.password = password
        let roleURL = try #require(components.string)
        let writer = try await offThePool { try ChangeLog(url: roleURL) }
        #expect(try await writer.append(snapshots[1], expectedLatest: 1).revision == 2)
        #expect(try await writer.append(snapshots[2], expectedLatest: 2).revision == 3)
        #expect(try await writer.verify().revisionsChecked == 3)
        // Not migrated: the function is still missing.
        await #expect(throws: ChangeLogError.self) {
            try await offThePool { () throws(ChangeLogError) in
                try PostgresAdministration.execute("SELECT 'changelog_append'::regproc", url: own)
            }
        }
    }

    @Test func aDatabaseWithANewerSchemaIsRefusedClearly() async throws {
        guard let own = try await logInANewDatabase() else { return }
        _ = try await offThePool { try ChangeLog(url: own) }
        try await offThePool { () throws(ChangeLogError) in
            try PostgresAdministration.execute("UPDATE changelog_schema SET version = 3", url: own)
        }
        let error = await #expect(throws: ChangeLogError.self) { try await offThePool { try ChangeLog(url: own) } }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains("schema version 3") == true, "\(error?.message ?? "")")
    }

    /// The URL of a log named `first` in a new database of the test server; `nil` without one.
    private func logInANewDatabase() async throws -> String? {
        guard let url = TestServer.url, var components = URLComponents(string: url) else { return nil }
        let database = "schema_\(UUID().uuidString.lowercased().prefix(8))"
        try await offThePool { () throws(ChangeLogError) in
            try PostgresAdministration.execute("CREATE DATABASE \(database)", url: url)
        }
        components.path = "/" + database
        return components.string! + "?log=first"
    }
}
