import ChangeLog
import ChangeLogTestSupport
import Foundation
import Testing

@Suite("replay serve")
struct ServeCommandTests {
    /// Waits for `server` to exit and returns its status and standard error.
    private static func finish(_ server: ToolRunner.Running) async -> (Int32, String) {
        await LoopbackHTTP.onThread {
            let errors = server.stderr.fileHandleForReading.readToEndRetryingInterruptions()
            server.process.waitUntilExit()
            return (server.process.terminationStatus, String(decoding: errors, as: UTF8.self))
        }
    }

    @Test("serve refuses to listen beyond loopback without a token, and says why")
    func refusesExposureWithoutToken() async throws {
        let result = try await ToolRunner.run(["serve", "--host", "0.0.0.0", "--port", "0"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: refusing to listen on 0.0.0.0 without a token: anyone who can reach it could read the log; "
                    + "pass --token-file FILE"), "\(result)")
    }

    @Test("serve refuses a --max-buffer that is not a positive number of bytes")
    func refusesEmptyBuffer() async throws {
        let result = try await ToolRunner.run(["serve", "--max-buffer", "0", "--port", "0"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --max-buffer must be a positive number of bytes"), "\(result)")
    }

    @Test("serve refuses an empty or blank token file, saying the file holds no token")
    func refusesEmptyTokenFile() async throws {
        let directory = try TemporaryDirectory()
        for contents in ["", "\n", "two words\n"] {
            let tokenFile = try directory.write("token.txt", contents)
            let result = try await ToolRunner.run(["serve", "--port", "0", "--token-file", tokenFile])
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderr == "replay: the token file \(tokenFile) must hold one token: no spaces, not empty\n",
                "\(result)")
        }
    }

    @Test("serve with --token-file answers 401 without the token and 200 with it")
    func token() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let tokenFile = try directory.write("token.txt", "t0ken-value\n")
        let (server, port) = try await ToolRunner.serve(["--log", log, "--token-file", tokenFile])
        let refused = try await LoopbackHTTP.get(port: port, target: "/api/log")
        #expect(refused.status == 401)
        let allowed = try await LoopbackHTTP.get(
            port: port, target: "/api/log", headers: ["Authorization": "Bearer t0ken-value"])
        #expect(allowed.status == 200)
        #expect(allowed.body.hasPrefix(#"{"oldest":1,"latest":3,"revisions":3,"#))
        server.process.terminate()
        #expect(await Self.finish(server).0 == 0)
    }

    @Test("serve warns when the token is short or its file readable by others, and serves all the same")
    func tokenWarnings() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let long = String(repeating: "k", count: 32)
        for (token, mode, warnings) in [
            ("x", 0o600, ["is 1 character long"]), (long, 0o644, ["may be read by other users (mode 644)"]),
            ("short", 0o640, ["is 5 characters long", "may be read by other users (mode 640)"]), (long, 0o600, []),
        ] {
            let tokenFile = try directory.write("token.txt", token + "\n")
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: tokenFile)
            let (server, port) = try await ToolRunner.serve(["--log", log, "--token-file", tokenFile])
            let allowed = try await LoopbackHTTP.get(
                port: port, target: "/api/log", headers: ["Authorization": "Bearer \(token)"])
            #expect(allowed.status == 200)
            server.process.terminate()
            let (status, errors) = await Self.finish(server)
            #expect(status == 0)
            let lines = errors.split(separator: "\n")
            #expect(lines.count == warnings.count, "\(errors)")
            for (line, warning) in zip(lines, warnings) {
                #expect(line.hasPrefix("replay: warning: the token"), "\(line)")
                #expect(line.contains(warning), "\(line)")
            }
        }
    }

    @Test(
        "serve refuses a non-positive --idle-timeout or --max-connections, and an --allowed-host that is no name",
        arguments: [
            (["--idle-timeout", "0"], "Error: --idle-timeout must be a number of seconds above 0 and at most 86400"),
            (["--max-connections", "0"], "Error: --max-connections must be a positive number"),
            (["--allowed-host", "a/b"], "Error: an allowed host must be a name or an address, not 'a/b'"),
        ])
    func refusesBadLimits(arguments: [String], message: String) async throws {
        let result = try await ToolRunner.run(["serve", "--port", "0"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix(message), "\(result)")
    }

    @Test("with 1,024 open files, 2,000 idle connections leave serve answering, and it says once that it is full")
    func idleConnectionFlood() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.prlimit), "prlimit (util-linux) sets the limit")
        // 2,000 sockets of its own: a process of its own (see `ManyDescriptors`).
        await #expect(processExitsWith: .success) {
            try await Self.idleConnectionFlood()
        }
    }

    private static let prlimit = "/usr/bin/prlimit"

    private static func idleConnectionFlood() async throws {
        // The test's own 2,000 sockets count against its limit of open files.
        ManyDescriptors.raiseOpenFileLimit(to: 4096)
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let (server, port) = try await ToolRunner.serve(
            ["--log", log], launcher: [prlimit, "--nofile=1024", ToolRunner.binary.path])
        let idle = try await RawConnection.open(port: port, count: 2000)
        let response = try await RawConnection.request(port: port, "/api/log")
        #expect(response.status == 200)
        #expect(response.body.hasPrefix(#"{"oldest":1,"latest":3,"#))
        for connection in idle { connection.close() }
        server.process.terminate()
        let (status, errors) = await Self.finish(server)
        #expect(status == 0, "\(errors)")
        let full = errors.split(separator: "\n").filter {
            $0.contains("connections are open, the most this server keeps")
        }
        #expect(full.count == 1, "\(errors)")
        #expect(full.first?.contains("896 connections are open") == true, "\(errors)")
    }

    @Test(
        "serve streams what another process appends, and closes every stream and exits 0 on SIGTERM and SIGINT",
        arguments: [SIGTERM, SIGINT])
    func liveAcrossProcessesThenSignal(signal: Int32) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("shared.lmdb")
        let lines = Fixtures.growing(6).split(separator: "\n").map(String.init)
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: lines[0] + "\n").status == 0)
        let (server, port) = try await ToolRunner.serve(["--log", log])

        let stream = try LoopbackHTTP.open(port: port, target: "/api/subscribe?from=1")
        let first = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(stream, marker: "id: 1\n") }
        let rest = try directory.write("rest.jsonl", lines.dropFirst().joined(separator: "\n") + "\n")
        let importer = try await ToolRunner.run(["import", rest, "--log", log, "--commit-every", "1"])
        #expect(importer.status == 0, "\(importer)")
        let live = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(stream, marker: "id: 6\n") }
        kill(server.process.processIdentifier, signal)
        let end = await LoopbackHTTP.onThread { LoopbackHTTP.readToEnd(stream) }
        let (status, errors) = await Self.finish(server)
        #expect(status == 0, "\(errors)")

        let messages = try EventStreamMessage.parse(rawResponse: String(decoding: first + live + end, as: UTF8.self))
        #expect(messages.compactMap(\.id) == ["1", "2", "3", "4", "5", "6"])
        #expect(messages.last == EventStreamMessage(comment: "closed: the server is shutting down"))
        let exported = try await ToolRunner.run(["tail", "--log", log, "--from", "1", "--json"])
        #expect(messages.compactMap(\.data).map { $0 + "\n" }.joined() == exported.stdout)
    }
}
