import ChangeLog
import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLogServer

/// The connection limit, on real loopback connections to a server that keeps at most 20.
@Suite(.serialized) struct ConnectionLimitTests {
    @Test func idleConnectionsBeyondTheLimitDoNotKeepARequestOut() async throws {
        try await ServerFixtures.withLog { log in
            // Idle connections would be kept for an hour: only the limit can make room.
            let server = LogServer(
                log: log, configuration: ServerConfiguration(idleTimeout: .seconds(3600), maxConnections: 20))
            try await ServerFixtures.withRunningServer(server) { port in
                // Three times the limit; the kernel completes their handshakes in the backlog.
                let idle = try await RawConnection.open(port: port, count: 60)
                defer { for connection in idle { connection.close() } }
                let response = try await RawConnection.request(port: port, "/api/log")
                #expect(response.status == 200)
                // The oldest idle connections were closed to make room.
                #expect(await idle[0].waitUntilClosed())
            }
        }
    }

    @Test func slowHeadsBeyondTheLimitDoNotKeepARequestOut() async throws {
        try await ServerFixtures.withLog { log in
            let server = LogServer(
                log: log,
                configuration: ServerConfiguration(
                    idleTimeout: .seconds(3600), requestHeadTimeout: .seconds(3600), maxConnections: 20))
            try await ServerFixtures.withRunningServer(server) { port in
                let slow = try await RawConnection.open(port: port, count: 60)
                defer { for connection in slow { connection.close() } }
                for connection in slow { connection.send("GET /api/log HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
                let response = try await RawConnection.request(port: port, "/api/log")
                #expect(response.status == 200)
            }
        }
    }

    @Test func defaultLimitStaysBelowTheLimitOfOpenFiles() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let defaultLimit = ServerConfiguration.defaultMaxConnections
        #expect(defaultLimit >= 16)
        if limit.rlim_cur < 1 << 40 {
            #expect(defaultLimit <= max(16, Int(limit.rlim_cur) - 64))
        }
        #expect(ServerConfiguration().maxConnections == defaultLimit)
        #expect(throws: LogServerError.self) { try ServerConfiguration(maxConnections: 0).validate() }
        #expect(throws: LogServerError.self) { try ServerConfiguration(idleTimeout: .zero).validate() }
    }
}
