import ListAdapter
import Testing

@testable import ListFormat

/// A revision line read whole: its number, time, meta, snapshot and changes.
@Suite("Reader: revision lines")
struct RevisionLineTests {
    /// FORMAT.md's revision line, with its example changes.
    static let formatLine = ReaderCorpusTests.formatRevisionLine

    static func read(_ line: String) throws(FormatError) -> RevisionLine {
        try InterchangeFormat.readRevisionLine(Array(line.utf8))
    }

    @Test("FORMAT.md's revision line reads, and writes back as the writer writes it")
    func formatRevisionLine() throws {
        let line = try Self.read(Self.formatLine)
        #expect(line.revision == 1 && line.millisecondsSince1970 == 1_795_168_800_000 && line.meta.isEmpty)
        #expect(line.snapshot.sections.map(\.title) == ["New"])
        let changes = line.changes
        #expect(changes.deletedSections == [2] && changes.movedSections == [.init(from: 0, to: 3)])
        #expect(changes.insertedSections.map(\.index) == [0] && changes.insertedSections[0].section.items.count == 1)
        #expect(changes.deletedItems == [ItemPath(section: 1, item: 4)])
        #expect(changes.insertedItems == [.init(at: ItemPath(section: 1, item: 0), id: "y", summary: "t")])
        #expect(changes.movedItems == [.init(from: ItemPath(section: 1, item: 2), to: ItemPath(section: 2, item: 5))])
        #expect(
            changes.updatedItems == [
                .init(from: ItemPath(section: 1, item: 3), to: ItemPath(section: 1, item: 1), summary: "u")
            ])
        #expect(try Self.read(line.jsonLine()) == line)
    }

    @Test("missing and null lists of changes are empty, and so are missing or null sections and items")
    func emptyChanges() throws {
        for changes in [
            "{}", #"{"sections": null, "items": null}"#, #"{"sections": {}, "items": {}}"#,
            #"{"sections": {"deleted": null, "inserted": null, "moved": null}, "items": {"updated": null}}"#,
        ] {
            let line =
                #"{"revision": 2, "time": "2026-11-20T10:00:00Z", "snapshot": {"sections": []}, "changes": \#(changes)}"#
            #expect(try Self.read(line).changes == ListChanges(), "\(changes)")
        }
    }

    /// Problems of a revision line, each with its path and what it says.
    static let bad: [(line: String, path: String, problem: String)] = [
        (
            #"{"time": "2026-11-20T10:00:00Z", "snapshot": {"sections": []}, "changes": {}}"#, "",
            #"missing field "revision""#
        ),
        (
            #"{"revision": -1, "time": "x", "snapshot": {"sections": []}, "changes": {}}"#, "revision",
            "expected a non-negative integer, found -1"
        ),
        (
            #"{"revision": 1.5, "time": "x", "snapshot": {"sections": []}, "changes": {}}"#, "revision",
            "expected a non-negative integer, found 1.5"
        ),
        (
            #"{"revision": 1, "time": "2026-02-30T00:00:00Z", "snapshot": {"sections": []}, "changes": {}}"#, "time",
            #"expected an ISO 8601 UTC time such as 2026-11-20T10:00:00.000Z, found "2026-02-30T00:00:00Z""#
        ),
        (
            #"{"revision": 1, "time": "2026-11-20T10:00:00Z", "snapshot": {"sections": []}, "changes": {"items": {"moved": [{"from": [0], "to": [0, 1]}]}}}"#,
            "changes.items.moved[0].from", "expected a path of two integers, [section, item], found 1"
        ),
        (
            #"{"revision": 1, "time": "2026-11-20T10:00:00Z", "snapshot": {"sections": []}, "changes": {"sections": {"inserted": [{"index": 0, "items": []}]}}}"#,
            "changes.sections.inserted[0]", #"missing field "title""#
        ),
        (
            #"{"revision": 1, "time": "2026-11-20T10:00:00Z", "snapshot": {"sections": [{"title": "A", "items": []}, {"title": "A", "items": []}]}, "changes": {}}"#,
            "snapshot.sections",
            #"duplicate section title "A" at sections 0 and 1; section titles must be unique within a snapshot"#
        ),
        (
            #"{"revision": 1, "time": "2026-11-20T10:00:00Z", "snapshot": {"sections": []}, "changes": {"items": {"deleted": [], "deleted": []}}}"#,
            "changes.items", #"duplicate key "deleted"; a key may appear once in an object"#
        ),
    ]

    @Test("a bad revision line names the place and the problem", arguments: bad)
    func badLine(line: String, path: String, problem: String) {
        do {
            _ = try Self.read(line)
            Issue.record("read: \(line)")
        } catch {
            #expect(error.path == path && error.problem == problem, "\(error)")
        }
    }

    /// The message quotes an excerpt of a time it cannot read, never the whole of it.
    @Test("a huge unreadable time is named by an excerpt")
    func hugeTime() {
        let time = String(repeating: "9", count: 1_000_000)
        let line = #"{"revision":1,"time":"\#(time)","meta":{},"snapshot":{"sections":[]},"changes":{}}"#
        let error = #expect(throws: FormatError.self) { try Self.read(line) }
        let description = error?.description ?? ""
        #expect(description.utf8.count < 300 && description.hasSuffix("(1000000 bytes)"))
    }
}
