import Foundation
import Testing

/// The viewer used as a person would: following live revisions, jumping between markers with
/// the keys, exporting a range.
extension ViewerBrowserTests {
    @Test("follow shows revisions another process appends, applied and checked, and adds them to the timeline")
    func follow() async throws {
        let history = try await DemoHistory(revisions: 20)
        defer { history.directory.remove() }
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let html = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#follow=1") { page in
            #expect(try await page.evaluate(#"document.getElementById("view").getAttribute("data-revision")"#) == "20")
            let appended = try await ToolRunner.run(["demo", "--log", history.log, "--revisions", "3", "--seed", "5"])
            #expect(appended.status == 0, "\(appended)")
            return try await page.dom(when: #"document.getElementById("view").getAttribute("data-revision") === "23""#)
        }
        let dom = ViewerDOM(html: html)
        #expect(dom.revision == "23")
        let export = try await ToolRunner.run(["export", "--log", history.log, "--from", "23"])
        #expect(dom.list == (try ShownList(snapshotOf: export.stdout)))
        #expect(dom.failedRevisions.isEmpty)
        #expect(html.contains(#"data-timeline-revision="23""#))
        await Self.stop(server)
    }

    @Test("an empty log's page says so, and with follow shows the first revisions as they are appended")
    func followFromEmpty() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("empty.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: "\n").status == 0)
        let (server, port) = try await ToolRunner.serve(["--log", log])
        defer { server.process.terminate() }
        let (status, html) = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#follow=1") { page in
            let status = try await page.evaluate(#"document.getElementById("status").textContent"#)
            let imported = try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.history)
            #expect(imported.status == 0, "\(imported)")
            return (
                status,
                try await page.dom(when: #"document.getElementById("view").getAttribute("data-revision") === "3""#)
            )
        }
        #expect(status.hasPrefix("The log is empty"), "\(status)")
        let dom = ViewerDOM(html: html)
        #expect(dom.revision == "3")
        let export = try await ToolRunner.run(["export", "--log", log, "--from", "3"])
        #expect(dom.list == (try ShownList(snapshotOf: export.stdout)))
        #expect(dom.failedRevisions.isEmpty)
        await Self.stop(server)
    }

    /// The revisions that move sections, move items across sections or delete sections, from
    /// the exported snapshots (titles, not the viewer's index arithmetic).
    static func markerRevisions(of history: DemoHistory) throws -> [Int] {
        try (2...history.lines.count).filter { revision in
            let changes = try history.changes(revision)
            let sections = changes["sections"] as? [String: Any] ?? [:]
            if !(sections["moved"] as? [Any] ?? []).isEmpty || !(sections["deleted"] as? [Any] ?? []).isEmpty {
                return true
            }
            let old = try history.snapshot(revision - 1)
            let new = try history.snapshot(revision)
            let moves = (changes["items"] as? [String: Any])?["moved"] as? [[String: [Int]]] ?? []
            return moves.contains { move in
                old.sections[move["from"]![0]].title != new.sections[move["to"]![0]].title
            }
        }
    }

    @Test("n and p go to the next and previous marker: section moves, moves across sections, section deletes")
    func markerKeys() async throws {
        let history = try await DemoHistory()
        defer { history.directory.remove() }
        let markers = try Self.markerRevisions(of: history)
        #expect(markers.count >= 3, "\(markers)")
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let shown = #"document.getElementById("view").getAttribute("data-revision")"#
        let visited = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=1") { page in
            var visited: [Int] = []
            for marker in markers {
                try await page.press("n")
                let dom = ViewerDOM(html: try await page.dom(when: "\(shown) === \"\(marker)\""))
                visited.append(Int(dom.revision ?? "") ?? 0)
            }
            try await page.press("p")
            let back = ViewerDOM(html: try await page.dom(when: "\(shown) === \"\(markers[markers.count - 2])\""))
            visited.append(Int(back.revision ?? "") ?? 0)
            return visited
        }
        #expect(visited == markers + [markers[markers.count - 2]])
        await Self.stop(server)
    }

    @Test("export downloads the chosen range as replay export writes it, or as snapshots that replay import reads")
    func export() async throws {
        let history = try await DemoHistory(revisions: 30)
        defer { history.directory.remove() }
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let downloads = history.directory.path("downloads")
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
        try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=12", downloadsTo: downloads) { page in
            for kind in ["revisions", "snapshots"] {
                _ = try await page.evaluate(
                    """
                    (() => {
                      document.getElementById("export-from").value = "5";
                      document.getElementById("export-to").value = "12";
                      document.getElementById("export-kind").value = "\(kind)";
                      document.getElementById("export").click();
                      return true;
                    })()
                    """)
                _ = try await page.dom(when: #"document.getElementById("status").textContent.startsWith("Exported")"#)
                _ = try await page.evaluate(
                    #"(() => { document.getElementById("status").textContent = ""; return 1; })()"#)
                // The browser writes the file after the click returns: closing it first would lose the file.
                #expect(try await Self.waitForFile(downloads + "/\(kind)-5-12.jsonl"), "no \(kind) download")
            }
        }
        let revisionsFile = downloads + "/revisions-5-12.jsonl"
        let snapshotsFile = downloads + "/snapshots-5-12.jsonl"
        for file in [revisionsFile, snapshotsFile] {
            #expect(try await Self.waitForFile(file), "no download at \(file)")
        }
        let exported = try await ToolRunner.run(["export", "--log", history.log, "--from", "5", "--to", "12"])
        #expect(try String(contentsOfFile: revisionsFile, encoding: .utf8) == exported.stdout)
        // The snapshots import into a new log with the same snapshots and meta.
        let copy = history.directory.path("copy.lmdb")
        let imported = try await ToolRunner.run(["import", snapshotsFile, "--log", copy])
        #expect(imported.status == 0, "\(imported)")
        let reexported = try await ToolRunner.run(["export", "--log", copy]).stdout.split(separator: "\n")
        let original = exported.stdout.split(separator: "\n")
        #expect(reexported.count == 8)
        for (again, line) in zip(reexported, original) {
            #expect(try ShownList(snapshotOf: String(again)) == ShownList(snapshotOf: String(line)))
        }
        await Self.stop(server)
    }

    /// Whether `path` exists, waiting up to 30 seconds for a download to land there.
    static func waitForFile(_ path: String) async throws -> Bool {
        for _ in 0..<300 {
            if FileManager.default.fileExists(atPath: path) { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return FileManager.default.fileExists(atPath: path)
    }
}

extension ViewerBrowserTests {
    /// The number of operations in a revision's changes.
    static func operationCount(_ changes: [String: Any]) -> Int {
        ["sections", "items"].reduce(0) { total, group in
            let lists = changes[group] as? [String: Any] ?? [:]
            return total + lists.values.reduce(0) { $0 + (($1 as? [Any])?.count ?? 0) }
        }
    }

    @Test("the side panel names every operation, and play with skip empty passes over revisions with none")
    func panelAndSkipEmpty() async throws {
        let history = try await DemoHistory()
        defer { history.directory.remove() }
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let latest = history.lines.count
        let firstEmpty = try #require(
            try (2...latest).first { Self.operationCount(try history.changes($0)) == 0 },
            "the demo has no empty revision")
        // From a little before the first empty revision to the latest, at 8x.
        let start = max(1, firstEmpty - 3)
        let empty = try (start + 1...latest).filter { Self.operationCount(try history.changes($0)) == 0 }
        let deleting = try #require(try history.first("sections", "deleted"))
        let (words, seen) = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=\(deleting)") { page in
            let words = try await page.evaluate(
                ##"[...document.querySelectorAll("#panel-operations li")].map(li => li.textContent).join("\n")"##)
            _ = try await page.evaluate(
                """
                (() => {
                  window.seen = [];
                  new MutationObserver(() => window.seen.push(document.getElementById("view").getAttribute("data-revision")))
                    .observe(document.getElementById("view"), { attributes: true, attributeFilter: ["data-revision"] });
                  location.hash = "#rev=\(start)";
                  return true;
                })()
                """)
            _ = try await page.dom(
                when: #"document.getElementById("view").getAttribute("data-revision") === "\#(start)""#)
            _ = try await page.evaluate(
                """
                (() => {
                  window.seen = [];
                  const speed = document.getElementById("speed");
                  speed.value = "8";
                  speed.dispatchEvent(new Event("change"));
                  document.getElementById("skip-empty").click();
                  document.getElementById("play").click();
                  return true;
                })()
                """)
            _ = try await page.dom(
                when: #"document.body.getAttribute("data-state") === "ready" && "#
                    + #"document.getElementById("view").getAttribute("data-revision") === "\#(latest)""#)
            return (words, try await page.evaluate(#"window.seen.join(",")"#))
        }
        let lines = words.split(separator: "\n")
        #expect(lines.count == Self.operationCount(try history.changes(deleting)), "\(words)")
        let title = try history.snapshot(deleting - 1).sections.map(\.title).first { title in
            !(try history.snapshot(deleting)).sections.contains { $0.title == title }
        }
        #expect(lines.contains { $0.hasPrefix("Deleted section \u{201C}\(title ?? "?")\u{201D}") }, "\(words)")
        let played = seen.split(separator: ",").compactMap { Int($0) }
        let expected = (start + 1...latest).filter { !empty.contains($0) || $0 == latest }
        #expect(played == expected, "skipped \(empty)")
        await Self.stop(server)
    }
}
