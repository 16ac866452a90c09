import ChangeLog
import ChangeLogServer
import ChangeLogTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Loads that once left the server unable to answer, with a normal request answered while each
/// is in place. The counts are bounded and every wait is for an event, not a clock.
///
/// Each load holds hundreds of descriptors (both ends of each connection), so each runs in a
/// process of its own (see `ManyDescriptors`).
@Suite(.serialized) struct AbusiveClientLoadTests {
    @Test(.timeLimit(.minutes(10)))  // A guard against a hang, not a performance check.
    func threeHundredSlowHeadsLeaveTheServerAnswering() async {
        await #expect(processExitsWith: .success) {
            try await Self.threeHundredSlowHeads()
        }
    }

    private static func threeHundredSlowHeads() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...2, to: log)
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let slow = try await RawConnection.open(port: port, count: 300)
                defer { for connection in slow { connection.close() } }
                for connection in slow { connection.send("GET /api/log HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: ") }
                for connection in slow { connection.send("b") }
                let response = try await RawConnection.request(port: port, "/api/revisions/2")
                #expect(response.status == 200)
            }
        }
    }

    @Test(.timeLimit(.minutes(10)))  // A guard against a hang, not a performance check.
    func thousandSubscribersThatDoNotReadLeaveTheServerAnswering() async {
        await #expect(processExitsWith: .success) {
            try await Self.thousandSubscribersThatDoNotRead()
        }
    }

    private static func thousandSubscribersThatDoNotRead() async throws {
        ManyDescriptors.raiseOpenFileLimit(to: 4096)
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...2, to: log)
            let server = LogServer(log: log, configuration: ServerConfiguration(maxConnections: 2000))
            try await ServerFixtures.withRunningServer(server) { port in
                var stalled: [Int32] = []
                defer { for descriptor in stalled { close(descriptor) } }
                for _ in 0..<1000 {
                    stalled.append(
                        try LoopbackHTTP.open(port: port, target: "/api/subscribe?from=1", receiveBuffer: 4096))
                }
                // Live revisions for every one of them, which none reads.
                try await ServerFixtures.append(3...20, to: log)
                let response = try await RawConnection.request(port: port, "/api/revisions/20")
                #expect(response.status == 200)
                let reader = try LoopbackHTTP.open(port: port, target: "/api/subscribe?from=20")
                let received = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(reader, marker: "id: 20\n") }
                close(reader)
                #expect(String(decoding: received, as: UTF8.self).contains("id: 20\n"))
            }
        }
    }
}
