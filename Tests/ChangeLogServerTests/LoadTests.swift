import ChangeLog
import ChangeLogServer
import ChangeLogTestSupport
import Foundation
import Testing

/// Subscribers that do not keep up, and many subscribers at once, on loopback.
@Suite(.serialized) struct LoadTests {
    /// A revision of about 40 KB as a revision line: 500 items whose summaries all change.
    private static func largeSnapshot(_ n: Int) throws -> LogSnapshot {
        let padding = String(repeating: "x", count: 40)
        return try LogSnapshot(sections: [
            .init(title: "Big", items: (0..<500).map { .init(id: "item-\($0)", summary: "\(padding)-\(n)") })
        ])
    }

    @Test func catchUpWaitsForASlowSubscriberInsteadOfClosingIt() async throws {
        try await ServerFixtures.withLog { log in
            let count = 60
            for n in 1...count { _ = try await log.append(Self.largeSnapshot(n)) }
            // A limit of two revisions: the catch-up reads the log only as fast as the client takes it.
            let server = LogServer(log: log, configuration: ServerConfiguration(subscriberBufferLimit: 64 << 10))
            try await ServerFixtures.withRunningServer(server) { port in
                let stream = try EventStreams(
                    port: port, target: "/api/subscribe?from=1", count: 1, until: "id: \(count)\n")
                let messages = try EventStreamMessage.parse(rawResponse: await stream.responses()[0])
                #expect(messages.compactMap(\.id) == (1...count).map(String.init))
                #expect(messages.allSatisfy { $0.comment == nil })
            }
        }
    }

    /// About 2,000 descriptors (both ends of each connection): a process of its own (see
    /// `ManyDescriptors`).
    @Test(.timeLimit(.minutes(10)))  // A guard against a hang, not a performance check.
    func thousandSubscribersReceiveEveryLiveRevision() async {
        await #expect(processExitsWith: .success) {
            try await Self.thousandSubscribers()
        }
    }

    private static func thousandSubscribers() async throws {
        ManyDescriptors.raiseOpenFileLimit(to: 4096)
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...2, to: log)
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let last = 12
                let streams = try EventStreams(
                    port: port, target: "/api/subscribe?from=1", count: 1000, until: "id: \(last)\n")
                try await ServerFixtures.append(3...last, to: log)
                let expected = try (1...last).map { try log.record(at: UInt64($0)).jsonLine() }
                let responses = await streams.responses()
                #expect(responses.count == 1000)
                var complete = 0
                for raw in responses {
                    let messages = try EventStreamMessage.parse(rawResponse: raw)
                    if messages.compactMap(\.data) == expected { complete += 1 }
                }
                #expect(complete == 1000)
            }
        }
    }
}
