import ChangeLog
import ChangeLogServer
import ChangeLogTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SubscribeTests {
    /// The revision events of `raw`, as (id, data) pairs.
    private func revisions(_ raw: String) throws -> [(id: String, data: String)] {
        try EventStreamMessage.parse(rawResponse: raw).compactMap { message in
            guard message.event == "revision", let id = message.id, let data = message.data else { return nil }
            return (id, data)
        }
    }

    @Test func catchUpThenLiveWithoutGapOrDuplicate() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...3, to: log)
            let server = LogServer(log: log)
            try await ServerFixtures.withRunningServer(server) { port in
                let streams = try EventStreams(port: port, target: "/api/subscribe?from=2", count: 1, until: "id: 6\n")
                try await ServerFixtures.append(4...6, to: log)
                let raw = await streams.responses()[0]
                let head = try LoopbackHTTP.parse(Array(raw.utf8))
                #expect(head.status == 200)
                #expect(head.headers["content-type"] == "text/event-stream")
                #expect(head.headers["cache-control"] == "no-cache")
                let messages = try EventStreamMessage.parse(rawResponse: raw)
                #expect(messages.first == EventStreamMessage(retry: "3000"))
                let events = try revisions(raw)
                #expect(events.map(\.id) == ["2", "3", "4", "5", "6"])
                for event in events {
                    #expect(event.data == (try log.record(at: UInt64(event.id)!).jsonLine()))
                }
                #expect(messages.allSatisfy { $0.event == nil || $0.event == "revision" })
            }
        }
    }

    /// `Last-Event-ID: 3` wins over `from=1`; an empty last event ID is the standard's "none" (a
    /// stream's `id:` with no value resets it), so the stream starts at `from=4`, as without the
    /// header. Both streams deliver revisions 4 and 5.
    @Test(arguments: [("/api/subscribe?from=1", "3"), ("/api/subscribe?from=4", "")])
    func lastEventIDWinsOverFromUnlessEmpty(target: String, lastEventID: String) async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...5, to: log)
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let streams = try EventStreams(
                    port: port, target: target, headers: ["Last-Event-ID": lastEventID], count: 1, until: "id: 5\n")
                #expect(try revisions(await streams.responses()[0]).map(\.id) == ["4", "5"])
            }
        }
    }

    @Test func reconnectingWithLastEventIDResumesWithoutGapOrDuplicate() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...1, to: log)
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let first = try LoopbackHTTP.open(port: port, target: "/api/subscribe?from=1")
                let head = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(first, marker: "id: 1\n") }
                try await ServerFixtures.append(2...3, to: log)
                let live = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(first, marker: "id: 3\n") }
                close(first)
                let delivered = try revisions(String(decoding: head + live, as: UTF8.self))
                #expect(delivered.map(\.id) == ["1", "2", "3"])
                // Appended while the client was away, then live after it came back.
                try await ServerFixtures.append(4...5, to: log)
                let streams = try EventStreams(
                    port: port, target: "/api/subscribe?from=1", headers: ["Last-Event-ID": delivered.last!.id],
                    count: 1, until: "id: 7\n")
                try await ServerFixtures.append(6...7, to: log)
                let resumed = try revisions(await streams.responses()[0])
                #expect(resumed.map(\.id) == ["4", "5", "6", "7"])
                for event in delivered + resumed {
                    #expect(event.data == (try log.record(at: UInt64(event.id)!).jsonLine()))
                }
            }
        }
    }

    @Test func changesOnlyEvents() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...2, to: log)
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let streams = try EventStreams(
                    port: port, target: "/api/subscribe?from=1&changes-only=1", count: 1, until: "id: 2\n")
                let events = try revisions(await streams.responses()[0])
                #expect(events.count == 2)
                for event in events {
                    let record = try log.record(at: UInt64(event.id)!)
                    let object = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as! [String: Any]
                    #expect(Set(object.keys) == ["revision", "time", "meta", "changes"])
                    #expect(event.data.hasSuffix(#","changes":\#(record.changes.formatJSON())}"#))
                }
            }
        }
    }

    @Test func badStartsAreClientErrors() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...2, to: log)
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let badFrom = try await LoopbackHTTP.get(port: port, target: "/api/subscribe?from=soon")
                #expect(badFrom.status == 400)
                #expect(badFrom.body == #"{"error":"from must be a revision number (an integer from 1), not 'soon'"}"#)
                let badID = try await LoopbackHTTP.get(
                    port: port, target: "/api/subscribe", headers: ["Last-Event-ID": "x1"])
                #expect(badID.status == 400)
                #expect(badID.body == #"{"error":"Last-Event-ID must be a revision number, not 'x1'"}"#)
            }
        }
    }

    @Test func idleStreamsGetKeepAliveComments() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...1, to: log)
            let server = LogServer(log: log, configuration: ServerConfiguration(keepAliveInterval: .milliseconds(50)))
            try await ServerFixtures.withRunningServer(server) { port in
                let streams = try EventStreams(
                    port: port, target: "/api/subscribe?from=2", count: 1, until: ": keep-alive\n\n")
                let messages = try EventStreamMessage.parse(rawResponse: await streams.responses()[0])
                #expect(messages == [EventStreamMessage(retry: "3000"), EventStreamMessage(comment: "keep-alive")])
            }
        }
    }

    @Test func theLargestRevisionNumberWaitsLikeAnyStartAfterTheLatest() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...1, to: log)
            let server = LogServer(log: log, configuration: ServerConfiguration(keepAliveInterval: .milliseconds(50)))
            try await ServerFixtures.withRunningServer(server) { port in
                let largest = "\(UInt64.max)"
                let resumed = try EventStreams(
                    port: port, target: "/api/subscribe", headers: ["Last-Event-ID": largest], count: 1,
                    until: ": keep-alive\n\n")
                let started = try EventStreams(
                    port: port, target: "/api/subscribe?from=\(largest)", count: 1, until: ": keep-alive\n\n")
                try await ServerFixtures.append(2...2, to: log)
                for streams in [resumed, started] {
                    let raw = await streams.responses()[0]
                    #expect(try LoopbackHTTP.parse(Array(raw.utf8)).status == 200)
                    let messages = try EventStreamMessage.parse(rawResponse: raw)
                    #expect(messages.first == EventStreamMessage(retry: "3000"))
                    #expect(messages.last == EventStreamMessage(comment: "keep-alive"))
                    #expect(messages.allSatisfy { $0.id == nil })
                }
            }
        }
    }

    @Test func shutdownClosesStreamsWithAComment() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...2, to: log)
            let raw = try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let descriptor = try LoopbackHTTP.open(port: port, target: "/api/subscribe?from=1")
                let head = await LoopbackHTTP.onThread { LoopbackHTTP.readUntil(descriptor, marker: "id: 2\n") }
                // Leaving the closure shuts the server down while the stream waits for revision 3.
                return (descriptor, head)
            }
            let rest = await LoopbackHTTP.onThread { LoopbackHTTP.readToEnd(raw.0) }
            let messages = try EventStreamMessage.parse(rawResponse: String(decoding: raw.1 + rest, as: UTF8.self))
            #expect(messages.compactMap(\.id) == ["1", "2"])
            #expect(messages.last == EventStreamMessage(comment: "closed: the server is shutting down"))
        }
    }
}
