import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// A user's own identifier type, through the protocol's two members.
private struct TicketID: LogStringConvertible {
    var number: Int
    var logString: String { "T-\(number)" }
    init(_ number: Int) { self.number = number }
    static func parse(logString: String) -> TicketID? {
        guard logString.hasPrefix("T-"), let number = Int(logString.dropFirst(2)), logString == "T-\(number)" else {
            return nil
        }
        return TicketID(number)
    }
}

/// A summary type through the `RawRepresentable` default.
private enum Status: String, LogStringConvertible {
    case open, closed
}

/// A conformance that is not lossless: every value writes the same string.
private struct Careless: LogStringConvertible {
    var value: Int
    var logString: String { "same" }
    init(_ value: Int) { self.value = value }
    static func parse(logString: String) -> Careless? { nil }
}

@Suite("Typed identifiers and summaries in the log")
struct TypedLogTests {
    @Test("integers and UUIDs are stored as strings and read back as they were")
    func intAndUUIDRoundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            let (first, second) = (UUID(), UUID())
            let old = try ListSnapshot<Int, UUID, Never>(sections: [
                .init(title: "Open", items: [.init(id: 7, summary: first), .init(id: -3)])
            ])
            let new = try ListSnapshot<Int, UUID, Never>(sections: [
                .init(title: "Open", items: [.init(id: -3, summary: second), .init(id: 12)]),
                .init(title: "Done", items: [.init(id: 7, summary: first)]),
            ])
            _ = try await log.append(old)
            _ = try await log.append(new, changes: old.changes(to: new), verifiesChanges: true)

            #expect(
                try log.snapshot(at: 1)
                    == snapshot([("Open", ["7:\(first.uuidString)", "-3"])]))
            let record = try log.record(at: 2)
            #expect(try record.snapshot(as: Int.self, summary: UUID.self) == new)
            #expect(try record.changes(as: Int.self, summary: UUID.self) == old.changes(to: new))
            #expect(try log.snapshot(at: 1, as: Int.self, summary: UUID.self) == old)
            // Strings read as strings, unchanged.
            #expect(
                try record.snapshot(as: String.self, summary: String.self, sectionSummary: String.self)
                    == record.snapshot)
            #expect(try await log.verify().isValid)
        }
    }

    @Test("typed entries append in one transaction")
    func typedEntries() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            let first = try ListSnapshot<UInt16, Int, Never>(sections: [
                .init(title: "", items: [.init(id: 1, summary: -1)])
            ])
            let second = try ListSnapshot<UInt16, Int, Never>(sections: [
                .init(title: "", items: [.init(id: 2), .init(id: 1, summary: 4)])
            ])
            let appended = try await log.append(contentsOf: [
                try ChangeLog.AppendEntry(first, meta: ["step": "1"]),
                try ChangeLog.AppendEntry(second, changes: first.changes(to: second), verifiesChanges: true),
            ])
            #expect(appended.map(\.revision) == [1, 2])
            #expect(try log.snapshot(at: 2) == snapshot([("", ["2", "1:4"])]))
            #expect(try log.snapshot(at: 2, as: UInt16.self, summary: Int.self) == second)
            #expect(try log.record(at: 1).meta == ["step": "1"])
        }
    }

    @Test("a stored string that does not convert names the revision, the place and the value")
    func unconvertibleIdentifier() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            _ = try await log.append(try snapshot([("A", ["1", "2"])]))
            _ = try await log.append(try snapshot([("A", ["1", "abc"])]))
            #expect(try log.record(at: 1).snapshot(as: Int.self, summary: String.self).identifiers == [1, 2])

            let error = try #require(throws: ChangeLogError.self) {
                try log.record(at: 2).snapshot(as: Int.self, summary: String.self)
            }
            #expect(error.code == .unconvertibleValue)
            #expect(error.revision == 2)
            #expect(
                error.message
                    == "Revision 2 holds the identifier \"abc\" (section 0, item 1), which is not a Int: "
                    + "Int.parse(logString:) returned nil. Read the log with the identifier type it was written with, "
                    + "or as String")
            let changesError = try #require(throws: ChangeLogError.self) {
                try log.record(at: 2).changes(as: Int.self, summary: String.self)
            }
            #expect(changesError.message.contains("\"abc\" (the item inserted at [0, 1])"))
        }
    }

    @Test("only the spelling a type writes converts: no leading zeros, no plus, no lowercase UUID")
    func canonicalSpellingsOnly() throws {
        #expect(Int.parse(logString: "05") == nil)
        #expect(Int.parse(logString: "+5") == nil)
        #expect(Int.parse(logString: "-0") == nil)
        #expect(Int.parse(logString: "-5") == -5)
        #expect(UInt8.parse(logString: "256") == nil)
        #expect(Int64.parse(logString: String(Int64.min)) == Int64.min)
        #expect(UInt64.parse(logString: String(UInt64.max)) == UInt64.max)
        let uuid = UUID()
        #expect(UUID.parse(logString: uuid.uuidString) == uuid)
        #expect(UUID.parse(logString: uuid.uuidString.lowercased()) == nil)
        #expect(Status.parse(logString: "open") == .open)
        #expect(Status.parse(logString: "Open") == nil)
        #expect(Status.closed.logString == "closed")
        #expect(TicketID.parse(logString: "T-007") == nil)
    }

    @Test("a summary that does not convert is named as a summary")
    func unconvertibleSummary() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            let typed = try ListSnapshot<TicketID, Status, Never>(sections: [
                .init(title: "", items: [.init(id: TicketID(1), summary: .open), .init(id: TicketID(2))])
            ])
            _ = try await log.append(typed)
            #expect(try log.snapshot(at: 1) == snapshot([("", ["T-1:open", "T-2"])]))
            #expect(try log.snapshot(at: 1, as: TicketID.self, summary: Status.self) == typed)
            _ = try await log.append(try snapshot([("", ["T-1:reopened", "T-2"])]))
            let error = try #require(throws: ChangeLogError.self) {
                try log.snapshot(at: 2, as: TicketID.self, summary: Status.self)
            }
            #expect(error.code == .unconvertibleValue)
            #expect(error.message.hasPrefix("Revision 2 holds the summary \"reopened\" (section 0, item 0)"))
        }
    }

    @Test("a conformance that gives two values one string is refused before anything is stored")
    func lossyConformanceRefused() async throws {
        try await withTemporaryDirectory { directory in
            let log = try ChangeLog(path: directory + "/log")
            let lossy = try ListSnapshot<Careless, String, Never>(sections: [
                .init(title: "", items: [.init(id: Careless(1)), .init(id: Careless(2))])
            ])
            let error = await #expect(throws: ChangeLogError.self) { try await log.append(lossy) }
            #expect(error?.code == .unconvertibleValue)
            #expect(error?.message.contains("give the same log string \"same\"") == true)
            #expect(try log.latestRevision == 0)
        }
    }
}

/// Importing ChangeLog leaves the standard library's unapplied initializers unambiguous.
@Test("Int.init and UInt64.init stay unambiguous where ChangeLog is imported")
func unappliedInitializersStayUnambiguous() {
    #expect(["1", "x", "3"].compactMap(Int.init) == [1, 3])
    #expect(Optional("7").flatMap(UInt64.init) == 7)
}
