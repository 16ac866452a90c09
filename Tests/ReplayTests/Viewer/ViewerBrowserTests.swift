import ChangeLogTestSupport
import Foundation
import Testing

/// The history viewer in a real browser (headless Chromium): served by `replay serve` and written
/// by `replay view`, read by its DOM contract and compared with `replay export`'s snapshots.
///
/// Without Chromium the suite is skipped with one line saying how to install it, except under CI
/// (`CI=true`), where it runs and fails.
@Suite(
    "viewer in a headless browser", .serialized,
    .enabled(if: HeadlessChromium.testsRun, "headless Chromium is not on the PATH: \(HeadlessChromium.installAdvice)"))
struct ViewerBrowserTests {
    /// A demo history of many sections and every kind of change, with its revision lines.
    struct DemoHistory {
        let directory: TemporaryDirectory
        let log: String
        let lines: [String]

        init(revisions: Int = 80) async throws {
            directory = try TemporaryDirectory()
            log = directory.path("demo.lmdb")
            let demo = try await ToolRunner.run(["demo", "--log", log, "--revisions", String(revisions)])
            #expect(demo.status == 0, "\(demo)")
            let export = try await ToolRunner.run(["export", "--log", log])
            #expect(export.status == 0, "\(export)")
            lines = export.stdout.split(separator: "\n").map(String.init)
        }

        /// A history imported from `snapshots` (import lines, one per revision).
        init(importing snapshots: String) async throws {
            directory = try TemporaryDirectory()
            log = directory.path("imported.lmdb")
            let file = try directory.write("snapshots.jsonl", snapshots)
            let imported = try await ToolRunner.run(["import", file, "--log", log])
            #expect(imported.status == 0, "\(imported)")
            let export = try await ToolRunner.run(["export", "--log", log])
            #expect(export.status == 0, "\(export)")
            lines = export.stdout.split(separator: "\n").map(String.init)
        }

        func snapshot(_ revision: Int) throws -> ShownList { try ShownList(snapshotOf: lines[revision - 1]) }

        /// The changes of `revision` as a JSON object.
        func changes(_ revision: Int) throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(lines[revision - 1].utf8)) as? [String: Any]
            return object?["changes"] as? [String: Any] ?? [:]
        }

        /// The first revision from `lower` whose changes have a non-empty `group.kind` list.
        func first(_ group: String, _ kind: String, from lower: Int = 2) throws -> Int? {
            try (lower...lines.count).first { revision in
                let list = (try changes(revision)[group] as? [String: Any])?[kind] as? [Any]
                return !(list ?? []).isEmpty
            }
        }

        /// Revisions worth looking at: the first and second, one that deletes sections, one that
        /// deletes items, one that moves items, one that updates items, and the last.
        func revisionsToCheck(in range: ClosedRange<Int>) throws -> [Int] {
            var picks = [range.lowerBound, range.lowerBound + 1, range.upperBound]
            for (group, kind) in [
                ("sections", "deleted"), ("items", "deleted"), ("items", "moved"), ("items", "updated"),
            ] {
                if let revision = try first(group, kind, from: range.lowerBound + 1), range.contains(revision) {
                    picks.append(revision)
                }
            }
            return Array(Set(picks)).sorted()
        }
    }

    /// Stops a server started by `ToolRunner.serve(_:)` and waits for it.
    static func stop(_ server: ToolRunner.Running) async {
        server.process.terminate()
        await LoopbackHTTP.onThread { server.process.waitUntilExit() }
    }

    /// Checks that the page at `url` shows `revision` exactly as `history` stores it, and the
    /// rows the revision deleted as deleted.
    static func expectShows(_ url: String, revision: Int, of history: DemoHistory) async throws {
        let dom = ViewerDOM(html: try await HeadlessChromium.dumpDOM(url))
        #expect(dom.error == nil, "\(url): \(dom.error ?? "")")
        #expect(dom.state == "ready", "\(url)")
        #expect(dom.revision == String(revision), "\(url)")
        let expected = try history.snapshot(revision)
        #expect(dom.list == expected, "\(url) shows\n\(dom.list)\nbut revision \(revision) is\n\(expected)")
        #expect(dom.failedRevisions.isEmpty, "\(url)")
        guard revision > 1 else { return }
        let old = try history.snapshot(revision - 1)
        let changes = try history.changes(revision)
        let deletedSections = ((changes["sections"] as? [String: Any])?["deleted"] as? [Int]) ?? []
        #expect(Set(dom.deletedSections) == Set(deletedSections.map { old.sections[$0].title }), "\(url)")
        let deletedPaths = ((changes["items"] as? [String: Any])?["deleted"] as? [[Int]]) ?? []
        let deletedIDs =
            deletedPaths.map { old.sections[$0[0]].items[$0[1]].id }
            + deletedSections.flatMap { old.sections[$0].items.map(\.id) }
        #expect(Set(dom.deletedItems) == Set(deletedIDs), "\(url)")
    }

    @Test("the page replay serve answers at / shows #rev=N exactly as replay export's snapshot of N")
    func servedPage() async throws {
        let history = try await DemoHistory()
        defer { history.directory.remove() }
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let revisions = try history.revisionsToCheck(in: 1...history.lines.count)
        #expect(revisions.count >= 5, "\(revisions)")
        for revision in revisions {
            try await Self.expectShows("http://127.0.0.1:\(port)/#rev=\(revision)", revision: revision, of: history)
        }
        // Without #rev the page opens at the latest revision.
        let latest = ViewerDOM(html: try await HeadlessChromium.dumpDOM("http://127.0.0.1:\(port)/"))
        #expect(latest.revision == String(history.lines.count))
        await Self.stop(server)
    }

    @Test("a file written by replay view shows #rev=N exactly as replay export's snapshot of N, with no server")
    func staticFile() async throws {
        let history = try await DemoHistory()
        defer { history.directory.remove() }
        let file = history.directory.path("history.html")
        let view = try await ToolRunner.run(["view", "--log", history.log, "--from", "10", "--to", "60", "--out", file])
        #expect(view.status == 0, "\(view)")
        #expect(view.stdout.hasPrefix("wrote \(file): revisions 10 to 60 (51 revisions, "), "\(view)")
        for revision in try history.revisionsToCheck(in: 10...60) {
            try await Self.expectShows("file://\(file)#rev=\(revision)", revision: revision, of: history)
        }
    }

    @Test("playing #rev=A&play=B&speed=8 applies every revision's changes and ends showing B's snapshot")
    func play() async throws {
        let history = try await DemoHistory()
        defer { history.directory.remove() }
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let url = "http://127.0.0.1:\(port)/#rev=30&play=55&speed=8"
        // 25 steps of 125 ms at 8x: the page says it is ready once the last one is shown.
        let dom = ViewerDOM(html: try await HeadlessChromium.dumpDOM(url))
        #expect(dom.error == nil, "\(dom.error ?? "")")
        #expect(dom.state == "ready")
        #expect(dom.revision == "55")
        #expect(dom.list == (try history.snapshot(55)))
        #expect(dom.failedRevisions.isEmpty)
        await Self.stop(server)
    }

    @Test("a screenshot of the served viewer is kept under .build/test-artifacts")
    func screenshot() async throws {
        let history = try await DemoHistory()
        defer { history.directory.remove() }
        let (server, port) = try await ToolRunner.serve(["--log", history.log])
        defer { server.process.terminate() }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let artifacts = packageRoot.appendingPathComponent(".build/test-artifacts")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let file = artifacts.appendingPathComponent("viewer.png").path
        try? FileManager.default.removeItem(atPath: file)
        let revision = try history.first("sections", "deleted") ?? 40
        try await HeadlessChromium.screenshot("http://127.0.0.1:\(port)/#rev=\(revision)", to: file)
        let png = try #require(FileManager.default.contents(atPath: file), "no screenshot at \(file)")
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png.count > 20_000, "a screenshot of \(png.count) bytes is too small to show the list")
        await Self.stop(server)
    }

    @Test("titles, ids, summaries and meta that look like markup are shown as text, exactly")
    func markupInStrings() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("tricky.lmdb")
        let snapshots = #"""
            {"meta": {"note": "</script><script>document.body.remove()</script>"}, "sections": [{"title": "", "items": [{"id": "</script>", "summary": "a \"quoted\" & <b>bold</b>"}, {"id": "&amp;"}]}, {"title": "e\u0301 \u00e9 \u2028", "items": [{"id": "x\ny", "summary": "tab\there"}]}]}
            {"sections": [{"title": "e\u0301 \u00e9 \u2028", "items": [{"id": "&amp;", "summary": "<!--"}, {"id": "x\ny", "summary": "  spaced  "}]}]}

            """#
        let imported = try await ToolRunner.run(["import", "-", "--log", log], input: snapshots)
        #expect(imported.status == 0, "\(imported)")
        let lines = try await ToolRunner.run(["export", "--log", log]).stdout.split(separator: "\n").map(String.init)
        let file = directory.path("tricky.html")
        #expect(try await ToolRunner.run(["view", "--log", log, "--out", file]).status == 0)
        for revision in 1...2 {
            let dom = ViewerDOM(html: try await HeadlessChromium.dumpDOM("file://\(file)#rev=\(revision)"))
            #expect(dom.error == nil, "\(dom.error ?? "")")
            #expect(dom.revision == String(revision))
            #expect(dom.list == (try ShownList(snapshotOf: lines[revision - 1])), "\(dom.list)")
        }
        let second = ViewerDOM(html: try await HeadlessChromium.dumpDOM("file://\(file)#rev=2"))
        #expect(second.deletedSections == [""])
        // The deleted section is shown with all its items, the one that moved out of it too.
        #expect(Set(second.deletedItems) == ["</script>", "&amp;"])
    }
}
