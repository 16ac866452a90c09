import ChangeLog
import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLogServer

/// Connections that keep the server waiting for a request, on real loopback connections to a
/// server whose idle, head and body deadlines are 1 second: each is closed by the server, which
/// the test waits for as an event (the connection's end), not by a clock.
@Suite struct ConnectionDeadlineTests {
    private static func server(_ log: ChangeLog) -> LogServer {
        LogServer(
            log: log,
            configuration: ServerConfiguration(
                stalledClientTimeout: .seconds(3600), idleTimeout: .seconds(1), requestHeadTimeout: .seconds(1),
                requestBodyTimeout: .seconds(1)))
    }

    @Test(arguments: [
        ("nothing at all", ""),
        ("half a request head", "GET /api/log HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
        (
            "a head, then less body than it declares",
            "GET /api/log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nab"
        ),
        (
            "a whole request on a kept-alive connection, then nothing",
            "GET /api/log HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        ),
    ])
    func connectionThatKeepsTheServerWaitingIsClosed(_ what: String, sent: String) async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.withRunningServer(Self.server(log)) { port in
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                connection.send(sent)
                #expect(await connection.waitUntilClosed(), "a connection sending \(what) stayed open")
            }
        }
    }

    @Test func requestHeadSentAByteAtATimeIsClosed() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.withRunningServer(Self.server(log)) { port in
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                // An endless head, one byte every 100 ms: each byte would renew an idle timer.
                let closed = await LoopbackHTTP.onThread { () -> Bool in
                    guard connection.send("GET /api/log HTTP/1.1\r\nX-Padding: ") else { return true }
                    for _ in 0..<1200 {
                        var entry = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
                        if poll(&entry, 1, 100) > 0 { return connection.readUntilClosed().closed }
                        guard connection.send("x") else { return true }
                    }
                    return false
                }
                #expect(closed, "a head sent a byte at a time was read for 2 minutes")
            }
        }
    }

    @Test func requestsStillSucceedOnAServerWithShortDeadlines() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...2, to: log)
            try await ServerFixtures.withRunningServer(Self.server(log)) { port in
                let response = try await RawConnection.request(port: port, "/api/revisions?from=1")
                #expect(response.status == 200)
                #expect(response.body.split(separator: "\n").count == 2)
            }
        }
    }
}
