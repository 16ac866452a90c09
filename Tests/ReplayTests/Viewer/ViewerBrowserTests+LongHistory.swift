import Foundation
import Testing

/// The served viewer on a long history: it reads the timeline in windows around the revision
/// shown, never the whole history, and its marker keys search on window by window.
extension ViewerBrowserTests {
    /// Snapshots of `revisions` revisions: three sections of two items, one item's summary edited at
    /// every revision, and the first two sections swapped (a section move, a marker) at `markers`.
    static func longHistory(revisions: Int, markers: Set<Int>) -> String {
        var titles = ["A", "B", "C"]
        var text = ""
        for revision in 1...revisions {
            if markers.contains(revision) { titles.swapAt(0, 1) }
            let sections = titles.map { title in
                let summary = title == "A" ? "v\(revision)" : "s"
                return #"{"title":"\#(title)","items":[{"id":"\#(title)1","summary":"\#(summary)"},"#
                    + #"{"id":"\#(title)2"}]}"#
            }
            text += #"{"meta":{"n":"\#(revision)"},"sections":[\#(sections.joined(separator: ","))]}"# + "\n"
        }
        return text
    }

    @Test("on a log of 20,000 revisions the served page reads a window around #rev=N, and n and p cross windows")
    func longHistoryInWindows() async throws {
        let markers = [300, 9_000, 12_345, 18_800, 19_100, 19_990]
        let history = try await DemoHistory(importing: Self.longHistory(revisions: 20_000, markers: Set(markers)))
        defer { history.directory.remove() }
        #expect(history.lines.count == 20_000)
        #expect(try Self.markerRevisions(of: history) == markers)
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let shown = #"document.getElementById("view").getAttribute("data-revision")"#
        let status = #"document.getElementById("status").textContent"#
        let rows = #"document.querySelectorAll("[data-timeline-revision]")"#
        try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=19600") { page in
            let dom = ViewerDOM(html: try await page.dom(when: "true"))
            #expect(dom.error == nil, "\(dom.error ?? "")")
            #expect(dom.revision == "19600")
            #expect(dom.list == (try history.snapshot(19_600)))
            // The scrubber spans the log; the timeline holds a window of it.
            #expect(try await page.evaluate(#"document.getElementById("scrubber").max"#) == "20000")
            let fetched = Int(try await page.evaluate("viewer.Timeline.fetched")) ?? -1
            #expect((1...600).contains(fetched), "the timeline read \(fetched) revisions to open")
            let count = Int(try await page.evaluate("\(rows).length")) ?? -1
            #expect((201...600).contains(count), "\(count) timeline rows")
            let first = Int(try await page.evaluate("\(rows)[0].getAttribute(\"data-timeline-revision\")")) ?? 0
            #expect(first > 19_000 && first <= 19_500, "\(first)")

            // Scrolling the list to its top reads the chunk before the window, and so does a click on
            // the "earlier" row.
            let firstRow = "\(rows)[0].getAttribute(\"data-timeline-revision\")"
            _ = try await page.evaluate(
                #"(() => { document.getElementById("revisions").scrollTop = 0; return true; })()"#)
            _ = try await page.dom(when: "\(firstRow) === \"\(first - 250)\"")
            #expect(try await page.evaluate(firstRow) == String(first - 250))
            _ = try await page.evaluate(
                #"(() => { document.querySelector('[data-more="-1"]').click(); return true; })()"#)
            _ = try await page.dom(when: "\(firstRow) === \"\(first - 500)\"")
            #expect(try await page.evaluate(firstRow) == String(first - 500))

            _ = try await page.evaluate(
                """
                (() => {
                  window.statuses = [];
                  new MutationObserver(() => window.statuses.push(document.getElementById("status").textContent))
                    .observe(document.getElementById("status"), { childList: true, characterData: true, subtree: true });
                  return true;
                })()
                """)

            // p and n walk the markers, reading on past the window; past the last one, n stays.
            var visited: [Int] = []
            for key in ["p", "p", "p", "p", "n", "n", "n", "n"] {
                let before = try await page.evaluate(shown)
                try await page.press(key)
                let after = ViewerDOM(html: try await page.dom(when: "\(shown) !== \"\(before)\""))
                visited.append(Int(after.revision ?? "") ?? 0)
            }
            #expect(visited == [19_100, 18_800, 12_345, 9_000, 12_345, 18_800, 19_100, 19_990])
            // The long search said how far it had looked.
            let statuses = try await page.evaluate(#"window.statuses.join("\n")"#)
            #expect(statuses.contains("Looking for the previous marker: read to revision "), "\(statuses)")
            try await page.press("n")
            let end = try await page.dom(when: "\(status).startsWith(\"No next marker\")")
            #expect(ViewerDOM(html: end).revision == "19990")
            #expect(try await page.evaluate(status) == "No next marker: revision 19990 has none after it")
            let shownNow = ViewerDOM(html: end)
            #expect(shownNow.list == (try history.snapshot(19_990)))
            #expect(shownNow.deletedSections.isEmpty)
            // The search read what lay between the markers (some of it twice), never the start of the log.
            let total = Int(try await page.evaluate("viewer.Timeline.fetched")) ?? -1
            #expect(total < 16_000, "the timeline read \(total) revisions")
            let firstRead = Int(try await page.evaluate("viewer.Timeline.covered[0][0]")) ?? -1
            #expect(firstRead > 5_000, "the timeline read from revision \(firstRead)")
            #expect(Int(try await page.evaluate("\(rows).length")) ?? -1 <= 1_000)
        }
        // Playing reads the timeline on as it goes: with windows of 10 revisions (at most 30 kept), a
        // seek far away and 60 steps cross many window edges and end on the last revision's snapshot.
        let (played, playedRows) = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=1000") { page in
            _ = try await page.evaluate(
                ##"(() => { Object.assign(viewer.Timeline, { chunk: 10, margin: 3, limit: 30 }); location.hash = "#rev=10240"; "##
                    + "return true; })()")
            _ = try await page.dom(when: #"\#(shown) === "10240""#)
            _ = try await page.evaluate(
                "(() => { viewer.setSpeed(8); viewer.App.playTo = 10300; viewer.play(); return true; })()")
            let html = try await page.dom(
                when: #"document.body.getAttribute("data-state") === "ready" && \#(shown) === "10300""#)
            return (
                ViewerDOM(html: html),
                try await page.evaluate("[...\(rows)].map(row => row.getAttribute(\"data-timeline-revision\")).join()")
            )
        }
        #expect(played.error == nil, "\(played.error ?? "")")
        #expect(played.revision == "10300")
        #expect(played.list == (try history.snapshot(10_300)))
        #expect(played.failedRevisions.isEmpty)
        let window = playedRows.split(separator: ",").compactMap { Int($0) }
        #expect(window.count <= 30 && window.contains(10_300), "\(window)")
        #expect(window == Array((window.first ?? 0)...(window.last ?? 0)), "\(window)")
        await Self.stop(server)
    }
}
