import ChangeLog
import ListAdapter
import Testing

@testable import ChangeLogTools

/// The `jsonl` renderer: one line per reload or batch, with reloads told apart from reconfigures.
@Suite("JSONLinesRenderer")
struct JSONLinesRendererTests {
    @Test("an update the source wants reloaded carries reload true; a reconfigure carries nothing")
    func reloadOrReconfigure() throws {
        var lines: [String] = []
        let renderer = JSONLinesRenderer { lines.append($0) }
        let old = try LogSnapshot(sections: [
            .init(title: "A", items: [.init(id: "a", summary: "1"), .init(id: "b", summary: "1")])
        ])
        let new = try LogSnapshot(sections: [
            .init(title: "A", items: [.init(id: "a", summary: "2"), .init(id: "b", summary: "2")])
        ])
        let changes = old.changes(to: new).classifyingUpdates(from: old) { id, _, _ in
            id == "a" ? .reload : .reconfigure
        }
        renderer.revision = 7
        renderer.performBatchUpdates(changes, resultingIn: new)
        #expect(
            lines == [
                #"{"revision":7,"changes":{"sections":{"deleted":[],"inserted":[],"moved":[],"updated":[]},"items":{"deleted":[],"#
                    + #""inserted":[],"moved":[],"updated":[{"from":[0,0],"to":[0,0],"summary":"2","reload":true},"#
                    + #"{"from":[0,1],"to":[0,1],"summary":"2"}]}}}"#
            ])
    }

    @Test("a revision that moves a section and updates an item inside it replays into UIKitStrictRenderer only")
    func updateInMovedSection() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await log.append(
                try LogSnapshot(sections: [
                    .init(title: "A", items: [.init(id: "a")]),
                    .init(title: "B", items: [.init(id: "b", summary: "1")]),
                ]))
            let appended = try await log.append(
                try LogSnapshot(sections: [
                    .init(title: "B", items: [.init(id: "b", summary: "2")]),
                    .init(title: "A", items: [.init(id: "a")]),
                ]))
            #expect(!appended.changes.movedSections.isEmpty && appended.changes.movedItems.isEmpty)
            var renderer = UIKitStrictRenderer<String, String, String>()
            let report = try await log.replay(into: &renderer)
            #expect(report.refusal == nil && report.batchesApplied == 2)
            #expect(renderer.view.snapshot == (try log.snapshot(at: 2)))
            #expect(renderer.view.reconfiguredItemCount == 1)
            var bare = StrictListView<String, String, String>()
            let refused = try await log.replay(into: &bare)
            #expect(refused.refusal?.revision == 2)
            #expect(refused.refusal?.message.hasPrefix("attempt to reload row 0 in section 1") == true)
        }
    }

    @Test("a section summary's update reaches the jsonl renderer as the log stored it")
    func sectionSummaryUpdate() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let today = try snapshot([("Today", ["a:1", "b"]), ("Later", ["c"])])
            _ = try await log.append(today)
            var withSummary = today.sections
            withSummary[0] = LogSnapshot.Section(title: "Today", summary: "1 unread", items: today.sections[0].items)
            _ = try await log.append(try LogSnapshot(sections: withSummary))

            var lines: [String] = []
            let jsonLines = JSONLinesRenderer { lines.append($0) }
            var renderer2 = jsonLines
            _ = try await log.replay(2...2, into: &renderer2)
            #expect(lines.contains { $0.contains(#""updated":[{"from":0,"to":0,"summary":"1 unread"}]"#) })
        }
    }
}
