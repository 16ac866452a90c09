import ChangeLog
import ListAdapter
import Testing

@testable import ChangeLogServer

/// The server's revision lines carry an update's kind as the interchange format writes it.
@Suite("Server lines: reload or reconfigure")
struct ReloadLineTests {
    static let record = RevisionRecord(
        revision: 3, millisecondsSince1970: 0, meta: [:],
        snapshot: try! LogSnapshot(sections: [
            .init(title: "A", items: [.init(id: "a", summary: "2"), .init(id: "b", summary: "2")])
        ]),
        changes: LogChanges(updatedItems: [
            .init(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 0), summary: "2", kind: .reload),
            .init(from: ItemPath(section: 0, item: 1), to: ItemPath(section: 0, item: 1), summary: "2"),
        ]))

    @Test("a reload carries reload true in the full and the changes-only line; a reconfigure nothing")
    func lines() {
        let updated =
            #""updated":[{"from":[0,0],"to":[0,0],"summary":"2","reload":true},{"from":[0,1],"to":[0,1],"summary":"2"}]"#
        #expect(RevisionLines.line(Self.record).contains(updated))
        #expect(RevisionLines.changesOnlyLine(Self.record).contains(updated))
    }
}

/// A reload appended to a real log reaches the server's revision lines as it was appended.
@Suite("Server lines: reloads read back from the log")
struct ReloadFromLogTests {
    @Test("a reload stored in the log is read back and carried as reload true in both lines")
    func throughTheLog() async throws {
        try await ServerFixtures.withLog { log in
            let first = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "a", summary: "1")])])
            let second = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "a", summary: "2")])])
            _ = try await log.append(first)
            let changes = first.changes(to: second).classifyingUpdates(from: first) { _, _, _ in .reload }
            _ = try await log.append(second, changes: changes)
            let record = try log.record(at: 2)
            #expect(record.changes == changes)
            let updated = #""updated":[{"from":[0,0],"to":[0,0],"summary":"2","reload":true}]"#
            #expect(RevisionLines.line(record).contains(updated))
            #expect(RevisionLines.changesOnlyLine(record).contains(updated))
        }
    }
}
