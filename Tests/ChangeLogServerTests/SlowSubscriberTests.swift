import ChangeLog
import ChangeLogServer
import ChangeLogTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Subscribers whose clients stop reading, beside one that keeps up, on real loopback
/// connections: a client socket with a 4 KB receive buffer that does not call `recv` fills its
/// window, then the server's socket buffer, then the connection's write buffer, and only then
/// does the server hold events for it.
@Suite(.serialized) struct SlowSubscriberTests {
    /// Revisions of about 40 KB as revision lines: 500 items whose summaries all change.
    private static func appendLarge(_ range: ClosedRange<Int>, to log: ChangeLog) async throws {
        let padding = String(repeating: "x", count: 40)
        for n in range {
            _ = try await log.append(
                LogSnapshot(sections: [
                    .init(title: "Big", items: (0..<500).map { .init(id: "item-\($0)", summary: "\(padding)-\(n)") })
                ]))
        }
    }

    private static let limit = 4 << 20
    /// About 16 MB in all: far more than the client's window, the server's socket buffer, the
    /// write buffer and the limit together.
    private static let count = 400

    private static let overflowComment =
        "closed: this subscriber reads too slowly; more than \(limit) bytes of events were waiting for it; "
        + "reconnect with Last-Event-ID to resume after the last revision received"

    /// Opens a client that stops reading after revision 1 and one that reads everything, appends
    /// revisions 2 to ``count`` while both are live, each once the reading client received the
    /// one before (so that it keeps up however busy the machine is), and returns the stopped
    /// client's socket.
    private static func stopOneReaderDuringLiveAppends(port: Int, log: ChangeLog, keepAlive: Bool = false)
        async throws -> Int32
    {
        let slow = try LoopbackHTTP.open(
            port: port, target: "/api/subscribe?from=1", receiveBuffer: 4096, keepAlive: keepAlive)
        let fast = try LoopbackHTTP.open(port: port, target: "/api/subscribe?from=1")
        defer { close(fast) }
        try await appendLarge(1...1, to: log)
        // Once revision 1 reached it, the slow stream is live: what follows is appended after it.
        let head = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(slow, marker: "id: 1\n") }
        #expect(String(decoding: head, as: UTF8.self).contains("id: 1\n"))
        var received = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(fast, marker: "id: 1\n") }
        for n in 2...count {
            try await appendLarge(n...n, to: log)
            received += await LoopbackHTTP.onThread {
                LoopbackHTTP.readWholeMessagesUntil(fast, marker: "id: \(n)\n")
            }
        }
        let fastMessages = try EventStreamMessage.parse(rawResponse: String(decoding: received, as: UTF8.self))
        #expect(fastMessages.compactMap(\.id) == (1...count).map(String.init))
        #expect(fastMessages.allSatisfy { $0.comment == nil }, "\(fastMessages.compactMap(\.comment))")
        return slow
    }

    /// The revision ids of a stopped client's stream, read to its end, and its messages.
    private static func readStopped(_ descriptor: Int32) async throws -> (ids: [String], messages: [EventStreamMessage])
    {
        let bytes = await LoopbackHTTP.onThread { LoopbackHTTP.readToEnd(descriptor) }
        // The head was read already: parse the rest as chunks of the event stream.
        let messages = EventStreamMessage.parse(body: LoopbackHTTP.dechunk(String(decoding: bytes, as: UTF8.self)))
        return (messages.compactMap(\.id), messages)
    }

    /// Expects a stopped client's connection to be reset without its reading anything more,
    /// then that it had received revisions from 2 on, in order, fewer than `limit`, and no comment.
    private static func expectReset(_ slow: Int32, receivedFewerThan limit: Int) async throws {
        #expect(await LoopbackHTTP.onThread { LoopbackHTTP.waitForHangUp(slow) })
        let (ids, messages) = try await readStopped(slow)
        #expect(ids.count < limit)
        #expect(ids == (2..<(2 + ids.count)).map(String.init))
        #expect(messages.allSatisfy { $0.comment == nil })
    }

    /// With `keepAlive`, the client asked to keep its connection for another request: the
    /// server closes it all the same once the stream ended, rather than wait for a request that
    /// a client of an ended stream does not send on it (no idle timeout runs out meanwhile).
    @Test(.timeLimit(.minutes(10)), arguments: [false, true])  // A guard against a hang, not a performance check.
    func slowSubscriberIsClosedWithACommentAndOthersAreUnaffected(keepAlive: Bool) async throws {
        try await ServerFixtures.withLog { log in
            let server = LogServer(
                log: log,
                configuration: ServerConfiguration(
                    subscriberBufferLimit: Self.limit, stalledClientTimeout: .seconds(3600),
                    idleTimeout: .seconds(3600)))
            try await ServerFixtures.withRunningServer(server) { port in
                let slow = try await Self.stopOneReaderDuringLiveAppends(port: port, log: log, keepAlive: keepAlive)
                // The client reads again: it gets what was on its way, then the reason, then the end.
                let (ids, messages) = try await Self.readStopped(slow)
                #expect(!ids.isEmpty)
                #expect(ids.count < Self.count - 2)
                #expect(ids == (2..<(2 + ids.count)).map(String.init))
                #expect(messages.last == EventStreamMessage(comment: Self.overflowComment))
            }
        }
    }

    @Test(.timeLimit(.minutes(10)))  // A guard against a hang, not a performance check.
    func subscriberThatNeverReadsIsResetAndOthersAreUnaffected() async throws {
        try await ServerFixtures.withLog { log in
            let server = LogServer(
                log: log,
                configuration: ServerConfiguration(
                    subscriberBufferLimit: Self.limit, stalledClientTimeout: .milliseconds(200)))
            try await ServerFixtures.withRunningServer(server) { port in
                let slow = try await Self.stopOneReaderDuringLiveAppends(port: port, log: log)
                // Without reading anything more, the client sees its connection reset.
                try await Self.expectReset(slow, receivedFewerThan: Self.count - 2)
            }
        }
    }

    @Test(.timeLimit(.minutes(10)))  // A guard against a hang, not a performance check.
    func stalledCatchUpIsReset() async throws {
        try await ServerFixtures.withLog { log in
            try await Self.appendLarge(1...Self.count, to: log)
            let server = LogServer(
                log: log,
                configuration: ServerConfiguration(
                    subscriberBufferLimit: Self.limit, stalledClientTimeout: .milliseconds(200)))
            try await ServerFixtures.withRunningServer(server) { port in
                let slow = try LoopbackHTTP.open(port: port, target: "/api/subscribe?from=1", receiveBuffer: 4096)
                _ = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(slow, marker: "id: 1\n") }
                // The catch-up reads on, with back-pressure, until the connection's buffers and
                // the subscriber's limit are full (the revisions hold far more), and the
                // connection stays unwritable: the server resets it while it runs.
                try await Self.expectReset(slow, receivedFewerThan: Self.count - 1)
            }
        }
    }

    @Test(.timeLimit(.minutes(10)))  // A guard against a hang, not a performance check.
    func stalledCatchUpDoesNotHoldUpShutdown() async throws {
        try await ServerFixtures.withLog { log in
            try await Self.appendLarge(1...Self.count, to: log)
            let server = LogServer(
                log: log,
                configuration: ServerConfiguration(
                    subscriberBufferLimit: Self.limit, stalledClientTimeout: .milliseconds(200)))
            let slow = try await ServerFixtures.withRunningServer(server) { port in
                let slow = try LoopbackHTTP.open(port: port, target: "/api/subscribe?from=1", receiveBuffer: 4096)
                _ = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(slow, marker: "id: 1\n") }
                // Leaving the closure shuts the server down while this stream waits for its client.
                return slow
            }
            // The shutdown finished. The stream either was blocked on its client, and the stall
            // reset it, or had not filled the connection yet, and ended in order with the reason
            // (which a client that does not read sees only once it reads).
            let (bytes, reset, failure) = await LoopbackHTTP.onThread { LoopbackHTTP.readToEndNotingReset(slow) }
            #expect(failure == nil, "the read failed with errno \(failure ?? 0), after \(bytes.count) bytes")
            let messages = EventStreamMessage.parse(body: LoopbackHTTP.dechunk(String(decoding: bytes, as: UTF8.self)))
            let ids = messages.compactMap(\.id)
            #expect(ids == (2..<(2 + ids.count)).map(String.init))
            let comments = messages.compactMap(\.comment)
            if reset {
                #expect(comments.isEmpty)
                #expect(ids.count < Self.count - 1)
            } else {
                #expect(comments == ["closed: the server is shutting down"])
                #expect(messages.last == EventStreamMessage(comment: "closed: the server is shutting down"))
            }
        }
    }
}
