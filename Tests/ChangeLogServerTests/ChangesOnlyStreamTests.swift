import ChangeLog
import ChangeLogTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ChangeLogServer

/// The changes-only range and event stream read the revisions without their snapshots: their
/// bytes must be exactly the changes-only lines of the full records.
@Suite struct ChangesOnlyStreamTests {
    /// A log holding the first `count` revisions of the seeded chat history, with their meta.
    private func fill(_ log: ChangeLog, _ records: ArraySlice<RevisionRecord>) async throws {
        for record in records {
            _ = try await log.append(record.snapshot, meta: record.meta)
        }
    }

    /// The changes-only lines of revisions `range` of `log`, from their full records.
    private func expectedLines(_ log: ChangeLog, _ range: ClosedRange<UInt64>) async throws -> [String] {
        var lines: [String] = []
        for try await record in log.records(in: range) { lines.append(RevisionLines.changesOnlyLine(record)) }
        return lines
    }

    @Test(
        "the changes-only range is the full records' changes-only lines, byte for byte", arguments: [3, 11] as [UInt64])
    func rangeMatchesFullRecords(seed: UInt64) async throws {
        let records = ChatHistory.records(count: 150, seed: seed)
        try await ServerFixtures.withLog { log in
            try await fill(log, records[...])
            let router = LogServer(log: log, configuration: ServerConfiguration(batchSize: 16)).router()
            try await Application(router: router).test(.router) { client in
                for (query, range) in [("", 1...150), ("from=17&to=99&", 17...99), ("from=150&", 150...150)]
                    as [(String, ClosedRange<UInt64>)]
                {
                    let response = try await client.execute(
                        uri: "/api/revisions?\(query)changes-only=1", method: .get)
                    #expect(response.status == .ok)
                    let expected = try await expectedLines(log, range).map { $0 + "\n" }.joined()
                    #expect(String(buffer: response.body) == expected, "\(query)")
                }
            }
        }
    }

    @Test("the changes-only event stream's stored and live events are the full records' lines")
    func eventsMatchFullRecords() async throws {
        let records = ChatHistory.records(count: 90, seed: 5)
        try await ServerFixtures.withLog { log in
            try await fill(log, records[..<70])
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let streams = try EventStreams(
                    port: port, target: "/api/subscribe?from=3&changes-only=1", count: 1, until: "id: 90\n")
                try await fill(log, records[70...])
                let events = try EventStreamMessage.parse(rawResponse: await streams.responses()[0]).compactMap {
                    message -> (id: String, data: String)? in
                    guard message.event == "revision", let id = message.id, let data = message.data else { return nil }
                    return (id, data)
                }
                #expect(events.map(\.id) == (3...90).map { String($0) })
                let expected = try await expectedLines(log, 3...90)
                #expect(events.map(\.data) == expected)
            }
        }
    }

    /// The revision events of a raw event-stream response, as (id, data) pairs.
    private func revisionEvents(_ response: String) throws -> [(id: String, data: String)] {
        try EventStreamMessage.parse(rawResponse: response).compactMap { message in
            guard message.event == "revision", let id = message.id, let data = message.data else { return nil }
            return (id, data)
        }
    }

    /// Waits until `condition` holds, checking every millisecond.
    private func waitUntil(_ condition: () -> Bool) async throws {
        while !condition() { try await Task.sleep(for: .milliseconds(1)) }
    }

    @Test(
        "live, the changes-only streams get the full stream's events without their snapshots, from the feed of changes",
        .timeLimit(.minutes(5)))  // A guard against a hang, not a performance check.
    func liveEventsAreTheFullOnesWithoutSnapshots() async throws {
        let records = ChatHistory.records(count: 80, seed: 9)
        try await ServerFixtures.withLog { log in
            try await fill(log, records[..<20])
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let changesOnly = try EventStreams(
                    port: port, target: "/api/subscribe?from=21&changes-only=1", count: 3, until: "id: 80\n")
                // Once every changes-only stream follows the feed of changes, the appends are live.
                try await waitUntil { log.changesFeed.memberCount == 3 }
                let full = try EventStreams(port: port, target: "/api/subscribe?from=21", count: 1, until: "id: 80\n")
                try await waitUntil { log.feed.memberCount == 1 }
                try await fill(log, records[20...])
                let fullEvents = try revisionEvents(await full.responses()[0])
                #expect(fullEvents.map(\.id) == (21...80).map { String($0) })
                let withoutSnapshots = try fullEvents.map {
                    try RevisionChanges(RevisionRecord(jsonLine: $0.data.utf8)).jsonLine()
                }
                for response in try await changesOnly.responses() {
                    let events = try revisionEvents(response)
                    #expect(events.map(\.id) == fullEvents.map(\.id))
                    #expect(events.map(\.data) == withoutSnapshots)
                }
                // The feed of changes read each live revision once for the three streams.
                #expect(log.changesFeed.publicationCount == 60)
            }
        }
    }

    @Test(
        "changes-only streams alone leave the feed of full records idle: no live snapshot is decoded",
        .timeLimit(.minutes(5)))
    func changesOnlyStreamsDecodeNoSnapshot() async throws {
        let records = ChatHistory.records(count: 50, seed: 4)
        try await ServerFixtures.withLog { log in
            try await fill(log, records[..<10])
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let streams = try EventStreams(
                    port: port, target: "/api/subscribe?changes-only=1", count: 2, until: "id: 50\n")
                try await waitUntil { log.changesFeed.memberCount == 2 }
                try await fill(log, records[10...])
                for response in try await streams.responses() {
                    #expect(try revisionEvents(response).map(\.id) == (1...50).map { String($0) })
                }
                #expect(log.changesFeed.publicationCount == 40)
                #expect(log.feed.publicationCount == 0)
            }
        }
    }
}
