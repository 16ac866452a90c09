import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// The log in Tests/Fixtures/pre-index-log, written before logs kept a history index (see its
/// README): it answers histories by scan when it cannot be written, and gets its index on first
/// use when it can.
@Suite("A log written before the history index")
struct PreIndexLogTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/pre-index-log")

    static func withFixtureLog<R>(readOnly: Bool, _ body: (ChangeLog) async throws -> R) async throws -> R {
        try await withTemporaryDirectory { path in
            try Data(contentsOf: fixture.appendingPathComponent("data.mdb"))
                .write(to: URL(fileURLWithPath: path).appendingPathComponent("data.mdb"))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path + "/data.mdb")
            return try await body(
                try ChangeLog(path: path, options: .init(createIfMissing: false, readOnly: readOnly)))
        }
    }

    /// The events of "a b" in the fixture, as `history --json` writes them.
    static let expected = [
        #"{"revision":3,"time":"#,
        #""meta":{"job":"app","step":"3"},"kinds":["moved","updated"],"withSection":null,"#
            + #""before":{"section":"Pinned","indexPath":[0,0]},"after":{"section":"Today","indexPath":[1,0]},"#
            + #""summaryBefore":"hello","summaryAfter":"hello again"}"#,
        #""meta":{"job":"app","step":"4"},"kinds":["deleted"],"withSection":null,"#
            + #""before":{"section":"Today","indexPath":[1,0]},"after":null,"summaryBefore":"hello again","#
            + #""summaryAfter":null}"#,
        #""meta":{"job":"sync","step":"5"},"kinds":["inserted"],"withSection":null,"before":null,"#
            + #""after":{"section":"Today","indexPath":[1,2]},"summaryBefore":null,"summaryAfter":"back"}"#,
    ]

    static func check(_ events: [HistoryEvent]) {
        #expect(events.map(\.revision) == [1, 3, 4, 5])
        let lines = events.dropFirst().map { $0.jsonObject() }
        #expect(lines.count == 3)
        guard lines.count == 3 else { return }
        #expect(lines[0].hasPrefix(expected[0]) && lines[0].hasSuffix(expected[1]))
        #expect(lines[1].hasSuffix(expected[2]))
        #expect(lines[2].hasSuffix(expected[3]))
    }

    @Test("read-only, it answers by reading every revision")
    func scan() async throws {
        try await Self.withFixtureLog(readOnly: true) { log in
            let answer = try log.history(of: .item("a b"))
            #expect(answer.source == .scan)
            Self.check(answer.events)
            let section = try log.history(of: .section("Pinned")).events
            #expect(section.map(\.kinds) == [[.inserted], [.deleted]])
            #expect(section.last?.before == HistoryEvent.Place(section: "Pinned", sectionIndex: 0, itemIndex: nil))
            #expect(try log.items(containing: "É").map(\.id) == ["né-1"])
        }
    }

    @Test("writable, it builds its index on first use, then keeps it as it appends")
    func buildsIndex() async throws {
        try await Self.withFixtureLog(readOnly: false) { log in
            let first = try log.history(of: .item("a b"))
            #expect(first.source == .builtIndex)
            Self.check(first.events)
            #expect(try log.history(of: .item("a b")).source == .index)
            let moved = try log.history(of: .item("x/y")).events.last
            #expect(moved?.kinds == [.moved, .updated])
            #expect(moved?.withSection == nil)
            let returned = try log.history(of: .item("né-1")).events
            #expect(returned.map(\.kinds) == [[.inserted], [.deleted], [.inserted]])
            #expect(returned[1].withSection == .deleted)
            #expect(returned[2].withSection == .inserted)
            _ = try await log.append(try LogSnapshot(sections: []), meta: ["step": "9"])
            let last = try log.history(of: .item("a b"))
            #expect(last.source == .index)
            #expect(last.events.last?.revision == 9)
            #expect(last.events.last?.withSection == .deleted)
        }
    }
}
