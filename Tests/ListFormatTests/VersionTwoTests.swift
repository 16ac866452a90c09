import ListAdapter
import Testing

@testable import ListFormat

/// Version 2 of the format: section summaries and section updates read and write; every
/// version-1 document still reads, as one without them.
@Suite("Format version 2: section summaries")
struct VersionTwoTests {
    static let snapshotLine =
        #"{"meta": {"k": "v"}, "sections": [{"title": "Today", "summary": "3 unread", "items": [{"id": "a"}]}, "#
        + #"{"summary": null, "title": "Later", "items": []}, {"title": "", "summary": "", "items": []}]}"#

    static let revisionLine =
        #"{"revision":2,"time":"2026-11-20T10:00:00.000Z","meta":{},"snapshot":{"sections":[{"title":"N","summary":"new","items":[]},"#
        + #"{"title":"A","summary":"2 unread","items":[{"id":"a"}]}]},"changes":{"sections":{"deleted":[],"#
        + #""inserted":[{"index":0,"title":"N","summary":"new","items":[]}],"moved":[],"#
        + #""updated":[{"from":0,"to":1,"summary":"2 unread"},{"from":1,"to":1}]},"#
        + #""items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}}}"#

    @Test("a snapshot line's section summaries read; null and absent mean none; the writer puts them after the title")
    func snapshotLine() throws {
        let annotated = try InterchangeFormat.readImportLine(Array(Self.snapshotLine.utf8))
        #expect(annotated.snapshot.sections.map(\.summary) == ["3 unread", nil, ""])
        #expect(
            annotated.formatJSON()
                == #"{"meta":{"k":"v"},"sections":[{"title":"Today","summary":"3 unread","items":[{"id":"a"}]},"#
                + #"{"title":"Later","items":[]},{"title":"","summary":"","items":[]}]}"#)
        #expect(try InterchangeFormat.readImportLine(Array(annotated.formatJSON().utf8)) == annotated)
    }

    @Test("a revision line's section updates and inserted sections' summaries read, and write back exactly")
    func revisionLine() throws {
        let line = try InterchangeFormat.readRevisionLine(Array(Self.revisionLine.utf8))
        #expect(
            line.changes.updatedSections == [
                .init(from: 0, to: 1, summary: "2 unread"), .init(from: 1, to: 1, summary: nil),
            ])
        #expect(line.changes.insertedSections.map(\.section.summary) == ["new"])
        #expect(line.snapshot.sections.map(\.summary) == ["new", "2 unread"])
        #expect(line.jsonLine() == Self.revisionLine)
    }

    @Test("a version-1 revision line reads with no section update, and writes back with an empty list")
    func versionOneRevisionLine() throws {
        let versionOne =
            #"{"revision":1,"time":"2026-11-20T10:00:00.000Z","meta":{},"snapshot":{"sections":[{"title":"A","items":[{"id":"a"}]}]},"#
            + #""changes":{"sections":{"deleted":[],"inserted":[{"index":0,"title":"A","items":[{"id":"a"}]}],"moved":[]},"#
            + #""items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}}}"#
        let line = try InterchangeFormat.readRevisionLine(Array(versionOne.utf8))
        #expect(line.changes.updatedSections.isEmpty)
        #expect(line.snapshot.sections.map(\.summary) == [nil])
        #expect(
            line.jsonLine()
                == versionOne.replacingOccurrences(of: #""moved":[]}"#, with: #""moved":[],"updated":[]}"#))
    }

    @Test(
        "a section summary named twice or mistyped is an error naming its place",
        arguments: [
            (
                #"{"sections": [{"title": "A", "summary": "x", "summary": "y", "items": []}]}"#,
                "sections[0]"
            ),
            (#"{"sections": [{"title": "A", "summary": 3, "items": []}]}"#, "sections[0].summary"),
        ])
    func badSectionSummaries(line: String, path: String) {
        let error = Reading.error(line)
        #expect(error != nil)
        #expect(error?.path.hasPrefix(path) == true, "\(String(describing: error))")
    }

    @Test("a mistyped section update is an error naming its place")
    func badSectionUpdate() {
        let line = Self.revisionLine.replacingOccurrences(of: #"{"from":1,"to":1}"#, with: #"{"from":1,"to":"x"}"#)
        let error = #expect(throws: FormatError.self) { try InterchangeFormat.readRevisionLine(Array(line.utf8)) }
        #expect(error?.path == "changes.sections.updated[1].to")
    }
}
