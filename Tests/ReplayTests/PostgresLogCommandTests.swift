#if Postgres
    import ChangeLog
    import ChangeLogPostgres
    import ChangeLogTestSupport
    import Foundation
    import Testing

    /// The tool on a log on PostgreSQL (`--log postgres://...`), against the server
    /// scripts/with-postgres.sh starts: the same output as on the LMDB log that holds the same
    /// revisions, `replay logs`, and a URL never taken for a path nor printed with its password.
    @Suite("replay on a PostgreSQL log")
    struct PostgresLogCommandTests {
        /// The test server's URL; `nil` (the test returns) without one, a failure under CI.
        static var serverURL: String? {
            if let url = ProcessInfo.processInfo.environment["CHANGELOG_TEST_POSTGRES_URL"], !url.isEmpty {
                return url
            }
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record(
                    "CI=true and CHANGELOG_TEST_POSTGRES_URL is not set: run the tests through scripts/with-postgres.sh"
                )
            }
            return nil
        }

        @Test("export, show, verify and log read a PostgreSQL log as they read the LMDB log; logs lists it")
        func readingCommands() async throws {
            guard let server = Self.serverURL else { return }
            let name = "replay-\(UUID().uuidString.lowercased())"
            let url = server + "?log=" + name
            let password = URLComponents(string: server)?.password ?? "no password"
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let lmdb = directory.path("app.lmdb")
            let imported = try await ToolRunner.run(["import", "-", "--log", lmdb], input: Fixtures.history)
            #expect(imported.status == 0, "\(imported)")
            // The same revisions, times and annotations, copied through the API.
            let shown = try await offThePool { () throws -> String in
                let source = try ChangeLog(path: lmdb, options: .init(createIfMissing: false, readOnly: true))
                let copy = try ChangeLog(url: url)
                for revision in UInt64(1)...(try source.latestRevision) {
                    let record = try source.record(at: revision)
                    let entry = ChangeLog.AppendEntry(
                        record.snapshot, changes: record.changes, meta: record.meta,
                        millisecondsSince1970: record.millisecondsSince1970)
                    let semaphore = DispatchSemaphore(value: 0)
                    Task.detached {
                        _ = try? await copy.append(contentsOf: [entry])
                        semaphore.signal()
                    }
                    semaphore.wait()
                }
                return copy.path
            }
            for command in [["export"], ["show", "2"], ["verify"], ["log"]] {
                let fromLMDB = try await ToolRunner.run(command + ["--log", lmdb])
                let fromPostgres = try await ToolRunner.run(command + ["--log", url])
                #expect(fromLMDB.status == 0, "\(fromLMDB)")
                #expect(fromPostgres.status == 0, "\(fromPostgres)")
                #expect(fromPostgres.stdout == fromLMDB.stdout.replacingOccurrences(of: lmdb, with: shown))
                #expect(!fromPostgres.stdout.contains(password) && !fromPostgres.stderr.contains(password))
            }
            let latest = try await ToolRunner.run(["log", "-n", "1", "--log", lmdb])
            let revisions = latest.stdout.split(separator: " ").first.map(String.init) ?? "?"
            let logs = try await ToolRunner.run(["logs", "--log", server])
            #expect(logs.status == 0, "\(logs)")
            #expect(
                logs.stdout.split(separator: "\n").contains { line in
                    line.split(separator: " ", omittingEmptySubsequences: true).map(String.init) == [name, revisions]
                }, "\(logs)")
            #expect(!logs.stdout.contains(password))
        }

        @Test("import writes to a PostgreSQL log; a wrong password is one line without the password")
        func importAndRefusal() async throws {
            guard let server = Self.serverURL, var components = URLComponents(string: server) else { return }
            let url = server + "?log=import-\(UUID().uuidString.lowercased())"
            let imported = try await ToolRunner.run(["import", "-", "--log", url], input: Fixtures.history)
            #expect(imported.status == 0, "\(imported)")
            let verified = try await ToolRunner.run(["verify", "--log", url])
            #expect(verified.status == 0, "\(verified)")
            let password = components.password ?? ""
            components.password = "wrong-" + password
            let refused = try await ToolRunner.run(["verify", "--log", components.string! + "?log=x"])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("wrong password"), "\(refused)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused)")
            #expect(!refused.stderr.contains(password))
            // Never a directory: nothing named like the URL appears in the working directory.
            #expect(!FileManager.default.fileExists(atPath: "postgres:"))
        }

        @Test("demo on a PostgreSQL URL names the log by its URL without the password, and its next steps work")
        func demoNamesTheURL() async throws {
            guard let server = Self.serverURL, let password = URLComponents(string: server)?.password else { return }
            let url = server + "?log=demo-\(UUID().uuidString.lowercased())"
            let demo = try await ToolRunner.run(["demo", "--log", url, "--revisions", "20"])
            #expect(demo.status == 0, "\(demo)")
            #expect(!demo.stdout.contains(password) && !demo.stderr.contains(password))
            let lines = demo.stdout.split(separator: "\n").map(String.init)
            var withoutPassword = try #require(URLComponents(string: url))
            withoutPassword.password = nil
            let shown = try #require(withoutPassword.string)
            #expect(lines.contains("The log is at \(shown). Next, try:"), "\(demo)")
            // The first suggestion, run as printed with the password from PGPASSWORD.
            let suggested = try #require(lines.first { $0.contains(" log -n 10 --log ") })
            #expect(suggested.hasSuffix("--log '\(shown)'"), "\(suggested)")
            let listed = try await ToolRunner.run(
                ["log", "-n", "10", "--log", shown], environment: ["PGPASSWORD": password])
            #expect(listed.status == 0, "\(listed)")
            #expect(listed.stdout.split(separator: "\n").count >= 10, "\(listed)")
        }

        @Test("replay copy from LMDB to PostgreSQL and back: export and verify identical on all three logs")
        func copyBothWays() async throws {
            guard let server = Self.serverURL else { return }
            let url = server + "?log=copy-\(UUID().uuidString.lowercased())"
            let password = URLComponents(string: server)?.password ?? "no password"
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let lmdb = directory.path("demo.lmdb")
            let back = directory.path("back.lmdb")
            let demo = try await ToolRunner.run(["demo", "--log", lmdb, "--revisions", "200"])
            try #require(demo.status == 0, "\(demo)")
            let there = try await ToolRunner.run(["copy", "--from", lmdb, "--to", url, "--batch", "50"])
            #expect(there.status == 0, "\(there)")
            #expect(there.stdout.contains("copied revisions 1 to 200"), "\(there)")
            #expect(!there.stdout.contains(password) && !there.stderr.contains(password), "\(there)")
            let again = try await ToolRunner.run(["copy", "--from", lmdb, "--to", url])
            #expect(again.stdout.contains("already holds the 200 revisions"), "\(again)")
            let home = try await ToolRunner.run(["copy", "--from", url, "--to", back])
            #expect(home.status == 0, "\(home)")
            var exports: [String] = []
            for log in [lmdb, url, back] {
                let export = try await ToolRunner.run(["export", "--log", log])
                #expect(export.status == 0, "\(export)")
                exports.append(export.stdout)
                let verify = try await ToolRunner.run(["verify", "--log", log])
                #expect(verify.status == 0, "\(verify)")
            }
            #expect(!exports[0].isEmpty)
            #expect(exports[1] == exports[0])
            #expect(exports[2] == exports[0])
        }
    }
#endif
