import Foundation
import Testing

/// The viewer's `apply` on format version 2 (section summaries, `sections.updated`) and on
/// version 1 changes, and its failure markers, through a page whose embedded revision lines are
/// written by hand.
extension ViewerBrowserTests {
    /// Four revisions: sections with summaries inserted; a section moved and its summary set
    /// while an item moves across sections and another is updated; a section deleted and one
    /// inserted while a summary is removed; then version 1 changes (no `sections.updated`).
    static let versionTwoLines = [
        #"{"revision":1,"time":"2026-11-20T10:00:01.000Z","meta":{"step":"insert"},"snapshot":{"sections":[{"title":"A","summary":"2 unread","items":[{"id":"a1","summary":"x"},{"id":"a2"}]},{"title":"B","items":[{"id":"b1","summary":"y"}]}]},"changes":{"sections":{"deleted":[],"inserted":[{"index":0,"title":"A","summary":"2 unread","items":[{"id":"a1","summary":"x"},{"id":"a2"}]},{"index":1,"title":"B","items":[{"id":"b1","summary":"y"}]}],"moved":[],"updated":[]},"items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}}}"#,
        #"{"revision":2,"time":"2026-11-20T10:00:02.000Z","meta":{},"snapshot":{"sections":[{"title":"B","summary":"1 unread","items":[{"id":"b1","summary":"y"},{"id":"a2"}]},{"title":"A","summary":"2 unread","items":[{"id":"a1","summary":"x2"}]}]},"changes":{"sections":{"deleted":[],"inserted":[],"moved":[{"from":0,"to":1}],"updated":[{"from":1,"to":0,"summary":"1 unread"}]},"items":{"deleted":[],"inserted":[],"moved":[{"from":[0,1],"to":[0,1]}],"updated":[{"from":[0,0],"to":[1,0],"summary":"x2"}]}}}"#,
        #"{"revision":3,"time":"2026-11-20T10:00:03.000Z","meta":{},"snapshot":{"sections":[{"title":"B","items":[{"id":"b1","summary":"y"},{"id":"a2"}]},{"title":"C","summary":"new","items":[{"id":"a1","summary":"x2"}]}]},"changes":{"sections":{"deleted":[1],"inserted":[{"index":1,"title":"C","summary":"new","items":[{"id":"a1","summary":"x2"}]}],"moved":[],"updated":[{"from":0,"to":0}]},"items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}}}"#,
        #"{"revision":4,"time":"2026-11-20T10:00:04.000Z","meta":{},"snapshot":{"sections":[{"title":"B","items":[{"id":"b2","summary":"z"},{"id":"b1","summary":"y"}]},{"title":"C","summary":"new","items":[{"id":"a1","summary":"x2"}]}]},"changes":{"sections":{"deleted":[],"inserted":[],"moved":[]},"items":{"deleted":[[0,1]],"inserted":[{"at":[0,0],"id":"b2","summary":"z"}],"moved":[],"updated":[]}}}"#,
    ]

    /// A page written by `replay view` with its embedded revision lines replaced by `lines`
    /// (revisions 1 to `lines.count`).
    static func page(with lines: [String], in directory: TemporaryDirectory) async throws -> String {
        let (logDirectory, log) = try await ReadingCommandTests.makeLog()
        defer { logDirectory.remove() }
        let file = directory.path("handmade.html")
        #expect(try await ToolRunner.run(["view", "--log", log, "--out", file, "--force"]).status == 0)
        let html = try String(contentsOfFile: file, encoding: .utf8)
        let start = try #require(html.range(of: #"<script type="application/x-ndjson" id="embedded-revisions""#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let embedded =
            #"<script type="application/x-ndjson" id="embedded-revisions" data-from="1" data-to="\#(lines.count)">"#
            + "\n" + lines.joined(separator: "\n") + "\n"
        try (html[..<start.lowerBound] + embedded + html[end.lowerBound...]).write(
            toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("version 2 section summaries and updates, and version 1 changes, show and play exactly")
    func versionTwo() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try await Self.page(with: Self.versionTwoLines, in: directory)
        for revision in 1...4 {
            let dom = ViewerDOM(html: try await HeadlessChromium.dumpDOM("file://\(file)#rev=\(revision)"))
            #expect(dom.error == nil, "\(dom.error ?? "")")
            #expect(dom.list == (try ShownList(snapshotOf: Self.versionTwoLines[revision - 1])), "\(dom.list)")
        }
        let third = ViewerDOM(html: try await HeadlessChromium.dumpDOM("file://\(file)#rev=3"))
        #expect(third.deletedSections == ["A"])
        #expect(third.deletedItems == ["a1"])
        #expect(third.list.sections.map(\.summary) == [nil, "new"])
        let played = ViewerDOM(html: try await HeadlessChromium.dumpDOM("file://\(file)#rev=1&play=4&speed=8"))
        #expect(played.state == "ready")
        #expect(played.revision == "4")
        #expect(played.list == (try ShownList(snapshotOf: Self.versionTwoLines[3])))
        #expect(played.failedRevisions.isEmpty)
    }

    @Test("a revision whose changes do not give its snapshot is marked as failed when played or shown; play goes on")
    func failureMarker() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var lines = Self.versionTwoLines
        // Revision 3 without the update that removes section B's summary.
        lines[2] = lines[2].replacing(#""updated":[{"from":0,"to":0}]"#, with: #""updated":[]"#)
        #expect(lines[2] != Self.versionTwoLines[2])
        let file = try await Self.page(with: lines, in: directory)
        let played = ViewerDOM(html: try await HeadlessChromium.dumpDOM("file://\(file)#rev=1&play=4&speed=8"))
        #expect(played.failedRevisions == ["3"])
        #expect(played.revision == "4")
        #expect(played.list == (try ShownList(snapshotOf: lines[3])))
        // Seeking shows the stored snapshot, and checks the revision as playing does.
        let seeked = ViewerDOM(html: try await HeadlessChromium.dumpDOM("file://\(file)#rev=3"))
        #expect(seeked.failedRevisions == ["3"])
        #expect(seeked.list == (try ShownList(snapshotOf: lines[2])))
    }
}
