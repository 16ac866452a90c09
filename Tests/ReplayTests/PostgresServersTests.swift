#if Postgres
    import ChangeLogTestSupport
    import Foundation
    import Testing

    /// Two `replay serve` on one PostgreSQL log, as two hosts behind a balancer: they serve the
    /// same stream, and a client that loses one resumes on the other with `Last-Event-ID`.
    @Suite("replay serve on a PostgreSQL log")
    struct PostgresServersTests {
        @Test("a client that loses one server resumes on the other with Last-Event-ID: no gap, no duplicate")
        func resumeOnTheOtherServer() async throws {
            guard let server = PostgresLogCommandTests.serverURL else { return }
            let url = server + "?log=servers-\(UUID().uuidString.lowercased())"
            let count = 12
            let lines = Fixtures.growing(count).split(separator: "\n").map(String.init)
            let first = 4
            let head = lines.prefix(first).joined(separator: "\n") + "\n"
            let imported = try await ToolRunner.run(["import", "-", "--log", url], input: head)
            #expect(imported.status == 0, "\(imported)")
            let (one, onePort) = try await ToolRunner.serve(["--log", url])
            let (other, otherPort) = try await ToolRunner.serve(["--log", url])
            defer {
                for running in [one, other] where running.process.isRunning { running.process.terminate() }
            }
            // A client that stays on the second server throughout: the stream both must serve.
            let whole = try EventStreams(
                port: otherPort, target: "/api/subscribe?from=1", count: 1, until: "id: \(count)\n")

            // The first server streams 1...6, the last two live, then dies: no more exist until the
            // client has resumed on the other server, so what it received before ends at 6.
            let stream = try LoopbackHTTP.open(port: onePort, target: "/api/subscribe?from=1")
            var received = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(stream, marker: "id: \(first)\n") }
            let live = lines[first..<(first + 2)].joined(separator: "\n") + "\n"
            let appended = try await ToolRunner.run(["import", "-", "--log", url, "--commit-every", "1"], input: live)
            #expect(appended.status == 0, "\(appended)")
            received += await LoopbackHTTP.onThread {
                LoopbackHTTP.readUntil(stream, marker: "id: \(first + 2)\n")
            }
            kill(one.process.processIdentifier, SIGKILL)
            await one.process.exited()
            // readToEnd closes the stream: closing it again here would close whatever descriptor
            // another test opened under the same number meanwhile.
            received += await LoopbackHTTP.onThread { LoopbackHTTP.readToEnd(stream) }
            let before = try EventStreamMessage.parse(rawResponse: String(decoding: received, as: UTF8.self))
            let lastID = try #require(before.compactMap(\.id).last)
            #expect(lastID == String(first + 2))

            // The client resumes on the other server, which then streams the rest live.
            let resumed = try EventStreams(
                port: otherPort, target: "/api/subscribe", headers: ["Last-Event-ID": lastID], count: 1,
                until: "id: \(count)\n")
            let rest = lines.dropFirst(first + 2).joined(separator: "\n") + "\n"
            let importResult = try await ToolRunner.run(
                ["import", "-", "--log", url, "--commit-every", "1"], input: rest)
            #expect(importResult.status == 0, "\(importResult)")
            let after = try EventStreamMessage.parse(rawResponse: try #require(await resumed.responses().first))

            let events = (before + after).filter { $0.id != nil }
            #expect(events.compactMap(\.id) == (1...count).map(String.init))
            let served = try EventStreamMessage.parse(rawResponse: try #require(await whole.responses().first))
            #expect(events.map(\.data) == served.filter { $0.id != nil }.map(\.data))
            let exported = try await ToolRunner.run(["tail", "--log", url, "--from", "1", "--json"])
            #expect(events.compactMap(\.data).map { $0 + "\n" }.joined() == exported.stdout)
        }
    }
#endif
