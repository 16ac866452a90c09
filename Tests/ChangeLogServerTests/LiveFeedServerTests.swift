import ChangeLog
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

@testable import ChangeLogServer

#if canImport(Glibc)
    import Glibc
#endif

/// `/api/subscribe` streams on loopback sharing one live feed: joining while revisions are
/// appended, and the feed's life following the streams'.
@Suite(.serialized) struct LiveFeedServerTests {
    @Test(.timeLimit(.minutes(5)))  // A guard against a hang, not a performance check.
    func streamsStartingWhileAWriterAppendsGetEveryRevisionOnce() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...10, to: log)
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let last = 200
                var random = SplitMix64(seed: 7)
                var clients: [(start: Int, streams: EventStreams)] = []
                for n in 11...last {
                    try await ServerFixtures.append(n...n, to: log)
                    guard n % 16 == 0 else { continue }
                    // From anywhere up to two after the latest, half by `from`, half resuming.
                    let start = Int(random.next() % UInt64(n + 2)) + 1
                    let resumes = random.next() % 2 == 0
                    let streams = try EventStreams(
                        port: port, target: resumes ? "/api/subscribe" : "/api/subscribe?from=\(start)",
                        headers: resumes ? ["Last-Event-ID": "\(start - 1)"] : [:], count: 1, until: "id: \(last)\n")
                    clients.append((start, streams))
                }
                #expect(clients.count == 12)
                let lines = try (1...last).map { try log.record(at: UInt64($0)).jsonLine() }
                for (start, streams) in clients {
                    let messages = try EventStreamMessage.parse(rawResponse: await streams.responses()[0])
                    #expect(messages.compactMap(\.id) == (start...last).map(String.init), "from \(start)")
                    let linesMatch = messages.compactMap(\.data) == Array(lines[(start - 1)...])
                    #expect(linesMatch, "from \(start): the events' data are the revision lines")
                    #expect(messages.allSatisfy { $0.comment == nil })
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(5)))  // A guard against a hang, not a performance check.
    func theFeedStopsWhenItsStreamsAreGoneAndRestartsForTheNext() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...2, to: log)
            let feed = log.feed
            // Keep-alives find a closed connection soon.
            let server = LogServer(log: log, configuration: ServerConfiguration(keepAliveInterval: .milliseconds(50)))
            try await ServerFixtures.withRunningServer(server) { port in
                let clients = try (0..<4).map { _ in try LoopbackHTTP.open(port: port, target: "/api/subscribe?from=1")
                }
                for client in clients {
                    _ = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(client, marker: "id: 2\n") }
                }
                try await ServerFixtures.append(3...3, to: log)
                for client in clients {
                    let live = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(client, marker: "id: 3\n") }
                    #expect(String(decoding: live, as: UTF8.self).contains("id: 3\n"))
                }
                // A stream joins once it has sent what is stored: soon after the revisions read.
                while feed.memberCount < clients.count { try await Task.sleep(for: .milliseconds(5)) }
                let task = try #require(feed.lastTask)
                for client in clients { close(client) }
                // The streams end at their next write, leave the feed, and the last one stops it.
                await task.value
                #expect(!feed.isRunning)
                #expect(feed.memberCount == 0)

                try await ServerFixtures.append(4...4, to: log)
                let next = try EventStreams(port: port, target: "/api/subscribe?from=2", count: 1, until: "id: 5\n")
                try await ServerFixtures.append(5...5, to: log)
                let messages = try EventStreamMessage.parse(rawResponse: await next.responses()[0])
                #expect(messages.compactMap(\.id) == ["2", "3", "4", "5"])
                #expect(feed.lastTask != task)
            }
            // The server's shutdown ended the last stream, and with it the feed.
            await feed.lastTask?.value
            #expect(!feed.isRunning)
        }
    }
}
