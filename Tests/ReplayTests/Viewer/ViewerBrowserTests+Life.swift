import Foundation
import Testing

/// The viewer as an auditor uses it, on a history whose ids and titles hold spaces, slashes,
/// quotes and non-ASCII (the snapshots of `Tests/Viewer/fixtures/life-history.jsonl`, whose item
/// is inserted, moves across sections and changes summary in one revision, goes with a deleted
/// section, comes back, leaves a deleted section for another one, and is deleted): the search box,
/// the item's life on the timeline and the keys through it, the filter by metadata, the legend's
/// counts, a deleted section's count and the links across an item's rows, and a dropped export.
extension ViewerBrowserTests {
    /// The item of the fixture that the tests follow.
    static let trickyID = "a/b \"q\" \u{e9} \u{1F600}"

    /// The fixture's snapshots imported into a new log.
    static func trickyHistory() async throws -> DemoHistory {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Viewer/fixtures/life-history.jsonl")
        let lines = try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n")
        let snapshots = try lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            let snapshot = object["snapshot"] as? [String: Any] ?? [:]
            let data = try JSONSerialization.data(withJSONObject: [
                "meta": object["meta"] ?? [:], "sections": snapshot["sections"] ?? [],
            ])
            return String(decoding: data, as: UTF8.self)
        }
        return try await DemoHistory(importing: snapshots.joined(separator: "\n") + "\n")
    }

    /// `text` as a JavaScript string literal.
    static func literal(_ text: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast()
            .description
    }

    /// Types `text` into the input `id` and sends the event `event`.
    static func type(_ text: String, into id: String, event: String, on page: BrowserPage) async throws {
        _ = try await page.evaluate(
            """
            (() => { const box = document.getElementById("\(id)"); box.value = \(try literal(text));
              box.dispatchEvent(new Event("\(event)")); return 1; })()
            """)
    }

    static let shown = #"document.getElementById("view").getAttribute("data-revision")"#

    /// Finds the tricky item with the search box (`query`, at the revision shown and across the
    /// history), chooses it, and checks its marks, the keys through them and its
    /// row highlighted; returns the results' ids found at the revision and across the history.
    static func followTrickyItem(_ query: String, on page: BrowserPage) async throws -> (here: String, across: String) {
        try await type(query, into: "search", event: "input", on: page)
        let results = ##"document.querySelectorAll("#search-history [data-result-id]")"##
        _ = try await page.dom(when: "\(results).length > 0")
        let here = try await page.evaluate(
            ##"[...document.querySelectorAll("#search-here [data-result-id]")].map(r => r.getAttribute("data-result-id")).join("|")"##
        )
        let across = try await page.evaluate(
            "[...\(results)].map(r => r.getAttribute(\"data-result-id\")).join(\"|\")")
        _ = try await page.evaluate(##"document.querySelector("#search-history [data-result-id]").click()"##)
        let marks =
            ##"[...document.querySelectorAll("#life-marks [data-life-mark]")].map(m => m.getAttribute("data-life-mark")).join(",")"##
        _ = try await page.dom(when: "\(marks) === \"1,2,3,4,5,7\"")
        #expect(try await page.evaluate(marks) == "1,2,3,4,5,7")
        #expect(
            try await page.evaluate(#"document.getElementById("life").getAttribute("data-life-id")"#) == trickyID)
        let rows =
            ##"[...document.querySelectorAll("#revisions [data-life-revision]")].map(m => m.getAttribute("data-life-revision")).join(",")"##
        #expect(try await page.evaluate(rows) == "1,2,3,4,5,7")
        var visited: [String] = []
        for key in ["]", "]", "]", "[", "["] {
            let before = try await page.evaluate(shown)
            try await page.press(key)
            _ = try await page.dom(when: "\(shown) !== \"\(before)\"")
            visited.append(try await page.evaluate(shown))
        }
        #expect(visited == ["3", "4", "5", "4", "3"])
        try await page.press("]")
        _ = try await page.dom(when: "\(shown) === \"4\"")
        let highlighted =
            ##"[...document.querySelectorAll("#list .life-item")].map(r => r.getAttribute("data-item-id")).join("|")"##
        #expect(try await page.evaluate(highlighted) == trickyID)
        return (here, across)
    }

    @Test("the search box finds an item with a tricky id, draws its life on the timeline, and ] and [ step through it")
    func itemLifeInFile() async throws {
        let history = try await Self.trickyHistory()
        defer { history.directory.remove() }
        let file = history.directory.path("tricky.html")
        #expect(try await ToolRunner.run(["view", "--log", history.log, "--out", file]).status == 0)
        let found = try await HeadlessChromium.withPage("file://\(file)#rev=2") { page in
            try await Self.followTrickyItem("\u{c9}", on: page)
        }
        #expect(found.here == Self.trickyID)
        #expect(found.across == Self.trickyID)
    }

    @Test("a deleted section counts the items it had, an item that left it for another is linked across both rows")
    func deletedSectionRows() async throws {
        let history = try await Self.trickyHistory()
        defer { history.directory.remove() }
        let file = history.directory.path("tricky.html")
        #expect(try await ToolRunner.run(["view", "--log", history.log, "--out", file]).status == 0)
        let (count, links, html) = try await HeadlessChromium.withPage("file://\(file)#rev=5") { page in
            let count = try await page.evaluate(
                #"document.querySelector("[data-deleted-section-title] .count").textContent"#)
            let links = try await page.evaluate(
                ##"[...document.querySelectorAll("#list .row-link")].map(l => l.closest("li").getAttribute(l.closest("[data-deleted-item-id]") ? "data-deleted-item-id" : "data-item-id") + " " + l.textContent).join("|")"##
            )
            return (count, links, try await page.dom(when: "true"))
        }
        let dom = ViewerDOM(html: html)
        #expect(dom.list == (try history.snapshot(5)))
        #expect(dom.deletedSections == ["Later"])
        #expect(count == "1 item")
        #expect(links == "\(Self.trickyID) was in Later|\(Self.trickyID) now in Pinned / \"top\"")
    }

    @Test("the metadata filter keeps the timeline rows whose meta meets every clause, as --where does")
    func metadataFilter() async throws {
        let history = try await Self.trickyHistory()
        defer { history.directory.remove() }
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let visible =
            ##"[...document.querySelectorAll("#revisions [data-timeline-revision]")].filter(r => !r.hidden).map(r => r.getAttribute("data-timeline-revision")).join(",")"##
        let (all, sync, both, invalid, counts) = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=6")
        { page in
            let all = try await page.evaluate(visible)
            try await Self.type("job=\"sync job\"", into: "filter", event: "change", on: page)
            let sync = try await page.evaluate(visible)
            try await Self.type("job~job step~4", into: "filter", event: "change", on: page)
            let both = try await page.evaluate(visible)
            try await Self.type("job", into: "filter", event: "change", on: page)
            let invalid = try await page.evaluate(#"document.body.getAttribute("data-error")"#)
            let counts = try await page.evaluate(
                #"document.querySelector("[data-timeline-revision='6'] .counts").textContent"#)
            return (all, sync, both, invalid, counts)
        }
        #expect(all == "1,2,3,4,5,6,7")
        #expect(sync == "2,4,6")
        #expect(both == "4")
        #expect(invalid == "Filter: clause 1 (\"job\") has neither = nor ~: write key=value or key~substring")
        #expect(counts == "sections +0 -0 ~0 *0  items +0 -0 ~0 *1")
        await Self.stop(server)
    }

    @Test("a history exported by replay export opens by dropping the file on the page, with no server needed")
    func droppedExport() async throws {
        let history = try await Self.trickyHistory()
        defer { history.directory.remove() }
        let other = try await DemoHistory(revisions: 12)
        defer { other.directory.remove() }
        let (server, port) = try await ToolRunner.serve(["--log", other.log])
        defer { server.process.terminate() }
        let export = history.lines.joined(separator: "\n") + "\n"
        let (label, html, fifth) = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=3") { page in
            _ = try await page.evaluate(
                """
                (() => { const data = new DataTransfer();
                  data.items.add(new File([\(try Self.literal(export))], "history \u{e9}.jsonl"));
                  document.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
                  return 1; })()
                """)
            let html = try await page.dom(
                when:
                    #"document.getElementById("source").textContent.startsWith("from history") && \#(Self.shown) === "7""#
            )
            let label = try await page.evaluate(#"document.getElementById("source").textContent"#)
            try await page.press("ArrowLeft")
            _ = try await page.dom(when: "\(Self.shown) === \"6\"")
            try await page.press("ArrowLeft")
            let fifth = try await page.dom(when: "\(Self.shown) === \"5\"")
            return (label, html, fifth)
        }
        #expect(label == "from history \u{e9}.jsonl (revisions 1 to 7)")
        let last = ViewerDOM(html: html)
        #expect(last.error == nil, "\(last.error ?? "")")
        #expect(last.list == (try history.snapshot(7)))
        let dom = ViewerDOM(html: fifth)
        #expect(dom.list == (try history.snapshot(5)))
        #expect(dom.deletedSections == ["Later"])
        #expect(dom.failedRevisions.isEmpty)
        await Self.stop(server)
    }

    @Test(
        "the revision list takes more of a taller page, the legend names every colour, mark and key, the export range follows"
    )
    func auditorBasics() async throws {
        let history = try await DemoHistory(revisions: 80)
        defer { history.directory.remove() }
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let (height, legend, range) = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=12") { page in
            let height = try await page.evaluate(#"document.getElementById("revisions").clientHeight"#)
            let legend = try await page.evaluate(#"document.getElementById("legend").textContent"#)
            try await page.press("ArrowRight")
            _ = try await page.dom(when: "\(Self.shown) === \"13\"")
            let range = try await page.evaluate(
                #"document.getElementById("export-from").value + ".." + document.getElementById("export-to").value"#)
            return (Int(height) ?? 0, legend, range)
        }
        // The window is 600 pixels tall: the list had 150 before; now nearly half the page.
        #expect(height > 200, "\(height)")
        for word in [
            "inserted", "moved", "updated", "deleted", "marker", "fails its check", "touched the item", "] and [",
        ] {
            #expect(legend.contains(word), "\(word)")
        }
        #expect(range == "13..13")
        await Self.stop(server)
    }
}
