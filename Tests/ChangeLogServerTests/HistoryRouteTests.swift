import ChangeLog
import ChangeLogTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import ListAdapter
import Testing

@testable import ChangeLogServer

/// `/api/items/{id}/history`, `/api/sections/{title}/history`, `/api/items?search=`,
/// `/api/compare` and the time and metadata questions of `/api/revisions`.
@Suite("History routes")
struct HistoryRouteTests {
    private func router(_ log: ChangeLog) -> Router<BasicRequestContext> {
        LogServer(log: log, configuration: ServerConfiguration()).router()
    }

    private func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    /// `text` as a JSON string.
    private func quoted(_ text: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode(text), as: UTF8.self)
    }

    /// `text` as one percent-encoded path segment.
    private func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    private func withHistory<R>(_ body: (ChangeLog, ItemLifeHistory) async throws -> R) async throws -> R {
        let history = ItemLifeHistory(seed: 4, count: 120)
        return try await ServerFixtures.withLog { log in
            _ = try await log.append(contentsOf: history.entries)
            return try await body(log, history)
        }
    }

    @Test("every item's and section's history, awkward names percent-encoded, is the one written down")
    func histories() async throws {
        try await withHistory { log, history in
            try await Application(router: router(log)).test(.router) { client in
                for id in ItemLifeHistory.identifiers + ["never seen"] {
                    let response = try await client.execute(uri: "/api/items/\(segment(id))/history", method: .get)
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/json")
                    let events = (history.expected[.item(id)] ?? []).map { $0.jsonObject() }.joined(separator: ",")
                    #expect(text(response) == #"{"id":\#(try quoted(id)),"events":[\#(events)]}"# + "\n", "\(id)")
                }
                for title in ItemLifeHistory.titles {
                    let response = try await client.execute(
                        uri: "/api/sections/\(segment(title))/history", method: .get)
                    let events = (history.expected[.section(title)] ?? []).map { $0.jsonObject() }
                    #expect(
                        text(response)
                            == #"{"title":\#(try quoted(title)),"events":[\#(events.joined(separator: ","))]}"# + "\n")
                }
            }
        }
    }

    @Test("a history narrowed by revisions, times and metadata")
    func narrowed() async throws {
        try await withHistory { log, history in
            try await Application(router: router(log)).test(.router) { client in
                let all = history.expected[.item("x/y")] ?? []
                #expect(all.count > 3)
                let sinceMilliseconds = ItemLifeHistory.time(ofStep: 30)
                let since = ISO8601DateFormatter().string(
                    from: Date(timeIntervalSince1970: Double(sinceMilliseconds) / 1000))
                let uri = "/api/items/x%2Fy/history?from=2&to=100&since=\(since)&where=job%3Dsync"
                let response = try await client.execute(uri: uri, method: .get)
                let expected = all.filter {
                    (2...100).contains($0.revision) && $0.millisecondsSince1970 >= sinceMilliseconds
                        && $0.meta["job"] == "sync"
                }
                #expect(!expected.isEmpty && expected.count < all.count)
                let events = expected.map { $0.jsonObject() }.joined(separator: ",")
                #expect(text(response) == #"{"id":"x/y","events":[\#(events)]}"# + "\n")
            }
        }
    }

    @Test(
        "bad questions are 400s and revisions not held 404s, as JSON",
        arguments: [
            (
                "/api/items/a/history?since=yesterday", HTTPResponse.Status.badRequest,
                "since: 'yesterday' is not a time"
            ),
            ("/api/items/a/history?where=job", .badRequest, "where: the condition 'job' has neither '=' nor '~'"),
            ("/api/items/a/history?from=0", .badRequest, "from must be a revision number"),
            ("/api/items/a/history?to=999", .notFound, "revision 999 is not in the log"),
            ("/api/items/%FF/history", .badRequest, "the id in the path is not percent-encoded UTF-8"),
            ("/api/items?limit=1001", .badRequest, "limit must be a number from 1 to 1000"),
            ("/api/compare?from=1", .badRequest, "to is needed"),
            ("/api/compare?from=1&to=999", .notFound, "revision 999 is not in the log"),
            ("/api/revisions?until=-x", .badRequest, "until: '-x' is not a time"),
            ("/api/revisions?since=-1h&until=-2h", .badRequest, "since is after until"),
        ])
    func errors(uri: String, status: HTTPResponse.Status, message: String) async throws {
        try await withHistory { log, _ in
            try await Application(router: router(log)).test(.router) { client in
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == status)
                #expect(text(response).hasPrefix(#"{"error":"\#(message)"#), "\(text(response))")
            }
        }
    }

    @Test("items ever stored, found by part of their identifier")
    func items() async throws {
        try await withHistory { log, history in
            try await Application(router: router(log)).test(.router) { client in
                let response = try await client.execute(uri: "/api/items?search=%2F&limit=5", method: .get)
                let expected = ["slash/", "x/y"].compactMap { id -> String? in
                    guard let events = history.expected[.item(id)] else { return nil }
                    return #"{"id":"\#(id)","firstRevision":\#(events.first!.revision),"#
                        + #""lastRevision":\#(events.last!.revision)}"#
                }
                #expect(text(response) == #"{"items":[\#(expected.joined(separator: ","))]}"# + "\n")
                let none = try await client.execute(uri: "/api/items?search=nothing", method: .get)
                #expect(text(none) == #"{"items":[]}"# + "\n")
            }
        }
    }

    @Test("two revisions compared, both ways")
    func compare() async throws {
        try await withHistory { log, _ in
            try await Application(router: router(log)).test(.router) { client in
                for (from, to) in [(3, 40), (40, 3), (7, 7)] as [(UInt64, UInt64)] {
                    let response = try await client.execute(uri: "/api/compare?from=\(from)&to=\(to)", method: .get)
                    let changes = try log.snapshot(at: from).changes(to: try log.snapshot(at: to))
                    #expect(
                        text(response) == #"{"from":\#(from),"to":\#(to),"changes":\#(changes.formatJSON())}"# + "\n")
                    #expect(try log.snapshot(at: from).applying(changes) == (try log.snapshot(at: to)))
                }
            }
        }
    }

    @Test("revision ranges asked by time and metadata")
    func rangeQuestions() async throws {
        try await withHistory { log, _ in
            try await Application(router: router(log)).test(.router) { client in
                let since = ItemLifeHistory.time(ofStep: 10)
                let until = ItemLifeHistory.time(ofStep: 30)
                let iso = { (milliseconds: Int64) in
                    ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
                }
                let uri = "/api/revisions?changes-only=1&to=25&since=\(iso(since))&until=\(iso(until))&where=op~edit"
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok)
                var expected = ""
                for revision in 10...25 as ClosedRange<UInt64> {
                    let record = try log.record(at: revision)
                    if record.meta["op"]!.contains("edit") { expected += RevisionLines.changesOnlyLine(record) + "\n" }
                }
                #expect(!expected.isEmpty)
                #expect(text(response) == expected)
                let none = try await client.execute(uri: "/api/revisions?until=2000-01-01T00:00:00Z", method: .get)
                #expect(none.status == .ok)
                #expect(text(none) == "")
            }
        }
    }
}
