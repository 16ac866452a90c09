import Foundation
import Testing

/// The viewer's history questions answered by `replay serve`'s routes, on the history with tricky
/// ids and titles (``trickyHistory()``): the search across the history (`/api/items?search=`), an
/// item's life (`/api/items/{id}/history`) and compare mode (`/api/compare`, `#compare=R1..R2`).
extension ViewerBrowserTests {
    @Test("served, the search box finds a tricky id across the history and draws the life the server answers")
    func itemLifeServed() async throws {
        let history = try await Self.trickyHistory()
        defer { history.directory.remove() }
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let (found, status, events) = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=2") { page in
            let found = try await Self.followTrickyItem("A/B \"Q\" \u{e9}", on: page)
            return (
                found, try await page.evaluate(#"document.body.getAttribute("data-error") || """#),
                try await page.evaluate(
                    "JSON.stringify(viewer.LifeView.events.map(e => { const { time, meta, ...rest } = e; return rest; }))"
                )
            )
        }
        #expect(found.here == Self.trickyID)
        #expect(found.across == Self.trickyID)
        #expect(status.isEmpty, "\(status)")
        // The server's events are those the page reads from a file's lines (the node tests' fixture).
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Viewer/fixtures/life-history.item.json")
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [String: Any]
        let expectedEvents = (expected?["events"] as? [[String: Any]] ?? []).map { event in
            event.filter { $0.key != "time" && $0.key != "meta" }
        }
        let served = try JSONSerialization.jsonObject(with: Data(events.utf8)) as? [[String: Any]] ?? []
        #expect(NSArray(array: served).isEqual(to: expectedEvents), "\(events)")
        await Self.stop(server)
    }

    /// The list in the compare pane `pane`, by the DOM contract: sections and items, deleted ones too
    /// (R1's side shows what leaves as deleted), with the marks of each row.
    static func pane(_ pane: String, on page: BrowserPage) async throws -> [[String: Any]] {
        let json = try await page.evaluate(
            """
            JSON.stringify([...document.querySelectorAll("#\(pane) section")].map(s => ({
              title: s.getAttribute("data-section-title") ?? s.getAttribute("data-deleted-section-title"),
              marks: s.className, items: [...s.querySelectorAll("li.item")].map(i => ({
                id: i.getAttribute("data-item-id") ?? i.getAttribute("data-deleted-item-id"), marks: i.className })) })))
            """)
        return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
    }

    /// `list`'s sections and ids, as "title: id, id" lines.
    static func outline(_ list: ShownList) -> [String] {
        list.sections.map { "\($0.title): " + $0.items.map(\.id).joined(separator: ", ") }
    }

    static func outline(_ pane: [[String: Any]]) -> [String] {
        pane.map { section in
            "\(section["title"] as? String ?? "?"): "
                + (section["items"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "?" }.joined(
                    separator: ", ")
        }
    }

    @Test(
        "#compare=R1..R2 shows both lists side by side, the operations between them highlighted in both, either way round"
    )
    func compareMode() async throws {
        let history = try await Self.trickyHistory()
        defer { history.directory.remove() }
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let compared = #"document.getElementById("compare").getAttribute("data-compare")"#
        let (forward, backward, closed) = try await HeadlessChromium.withPage(
            "http://127.0.0.1:\(port)/#compare=2..5"
        ) { page in
            _ = try await page.dom(when: "\(compared) === \"2..5\"")
            let forward = (
                try await Self.pane("compare-left", on: page), try await Self.pane("compare-right", on: page)
            )
            _ = try await page.evaluate(##"(() => { location.hash = "#compare=5..2"; return 1; })()"##)
            _ = try await page.dom(when: "\(compared) === \"5..2\"")
            let backward = (
                try await Self.pane("compare-left", on: page), try await Self.pane("compare-right", on: page)
            )
            _ = try await page.evaluate(#"document.getElementById("compare-close").click()"#)
            let closed = try await page.dom(when: #"document.getElementById("compare").hidden"#)
            return (forward, backward, closed)
        }
        let second = try history.snapshot(2), fifth = try history.snapshot(5)
        #expect(Self.outline(forward.0) == Self.outline(second))
        #expect(Self.outline(forward.1) == Self.outline(fifth))
        // Today leaves with its items; the item arrives in Pinned.
        let today = forward.0.first { $0["title"] as? String == "Today" }
        let todayMarks = today?["marks"] as? String ?? ""
        #expect(todayMarks.contains("deleted"))
        let arrived = (forward.1.first?["items"] as? [[String: Any]] ?? []).first {
            $0["id"] as? String == Self.trickyID
        }
        let arrivedMarks = arrived?["marks"] as? String ?? ""
        #expect(arrivedMarks.contains("inserted"), "\(forward.1)")
        #expect(Self.outline(backward.0) == Self.outline(fifth))
        #expect(Self.outline(backward.1) == Self.outline(second))
        let left = (backward.0.first?["items"] as? [[String: Any]] ?? []).first { $0["id"] as? String == Self.trickyID }
        let marks = left?["marks"] as? String ?? ""
        #expect(marks.contains("deleted"), "\(backward.0)")
        // Back to one revision: the list shown is revision 5's, and the panes hold no rows.
        let dom = ViewerDOM(html: closed)
        #expect(dom.error == nil, "\(dom.error ?? "")")
        #expect(dom.revision == "5")
        #expect(dom.list == fifth)
        await Self.stop(server)
    }
}
