import Foundation
import Testing

/// Section summaries through the tool: import, show, log, export, play and diff.
@Suite("replay with section summaries")
struct SectionSummaryCommandTests {
    /// Three revisions: a header summary appears, then its section moves and it changes.
    static let history = """
        {"sections": [{"title": "Today", "items": [{"id": "a"}]}, {"title": "Later", "items": [{"id": "b"}]}]}
        {"sections": [{"title": "Today", "summary": "1 unread", "items": [{"id": "a"}]}, {"title": "Later", "items": [{"id": "b"}]}]}
        {"sections": [{"title": "Later", "items": [{"id": "b"}]}, {"title": "Today", "summary": "2 unread", "items": [{"id": "a"}]}]}

        """

    static func makeLog() async throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let log = directory.path("app.lmdb")
        let result = try await ToolRunner.run(["import", "-", "--log", log], input: history)
        #expect(result.status == 0, "\(result)")
        return (directory, log)
    }

    @Test("show prints section summaries, marks the updated section and words its update")
    func show() async throws {
        let (directory, log) = try await Self.makeLog()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["show", "2", "--log", log])
        #expect(result.status == 0, "\(result)")
        #expect(
            maskingTimes(result.stdout) == """
                revision 2
                time     <time>
                counts   sections +0 -0 ~0 *1  items +0 -0 ~0 *0

                snapshot: 2 sections, 2 items
                  [0] Today (1 items)  1 unread *
                      0: a
                  [1] Later (1 items)
                      0: b

                operations:
                  update section "Today" at 0: summary now "1 unread"

                """)
    }

    @Test("log counts section updates; export writes them; verify passes")
    func logExportVerify() async throws {
        let (directory, log) = try await Self.makeLog()
        defer { directory.remove() }
        let listed = try await ToolRunner.run(["log", "--log", log])
        #expect(listed.status == 0, "\(listed)")
        let counts = listed.stdout.split(separator: "\n").map {
            $0.split(separator: "  ").suffix(2).joined(separator: "  ")
        }
        #expect(
            counts == [
                "sections +0 -0 ~1 *1  items +0 -0 ~0 *0", "sections +0 -0 ~0 *1  items +0 -0 ~0 *0",
                "sections +2 -0 ~0 *0  items +0 -0 ~0 *0",
            ])
        let exported = try await ToolRunner.run(["export", "--log", log, "--from", "3"])
        #expect(
            maskingTimes(exported.stdout)
                == #"{"revision":3,"time":"<time>","meta":{},"snapshot":{"sections":[{"title":"Later","items":[{"id":"b"}]},"#
                + #"{"title":"Today","summary":"2 unread","items":[{"id":"a"}]}]},"changes":{"sections":{"deleted":[],"#
                + #""inserted":[],"moved":[{"from":1,"to":0}],"updated":[{"from":0,"to":1,"summary":"2 unread"}]},"#
                + #""items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}}}"# + "\n")
        #expect(try await ToolRunner.run(["verify", "--log", log]).status == 0)
        // The export imports back to the same snapshots.
        let all = try await ToolRunner.run(["export", "--log", log])
        let copy = directory.path("copy.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", copy], input: all.stdout).status == 0)
        #expect(try await ToolRunner.run(["export", "--log", copy]).stdout.count == all.stdout.count)
    }

    @Test("play: the strict renderer accepts the moved and updated section; jsonl carries the update")
    func play() async throws {
        let (directory, log) = try await Self.makeLog()
        defer { directory.remove() }
        let strict = try await ToolRunner.run(["play", "--log", log, "--into", "strict"])
        #expect(strict.status == 0, "\(strict)")
        let jsonl = try await ToolRunner.run(["play", "--log", log, "--into", "jsonl", "--from", "3"])
        #expect(jsonl.status == 0, "\(jsonl)")
        #expect(
            jsonl.stdout.split(separator: "\n").last.map(String.init)
                == #"{"revision":3,"changes":{"sections":{"deleted":[],"inserted":[],"moved":[{"from":1,"to":0}],"#
                + #""updated":[{"from":0,"to":1,"summary":"2 unread"}]},"items":{"deleted":[],"inserted":[],"#
                + #""moved":[],"updated":[]}}}"#)
    }

    @Test("play --into text prints each section's summary beside its title")
    func playText() async throws {
        let (directory, log) = try await Self.makeLog()
        defer { directory.remove() }
        let text = try await ToolRunner.run(["play", "--log", log, "--into", "text", "--from", "3"])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("  [1] Today  2 unread\n"), "\(text.stdout)")
        #expect(text.stdout.contains("batch: sections +0 -0 ~1 *1  items +0 -0 ~0 *0"), "\(text.stdout)")
    }

    @Test("diff prints section updates, a summary that disappears without a summary")
    func diff() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let old = try directory.write(
            "old.json", #"{"sections": [{"title": "A", "summary": "x", "items": []}, {"title": "B", "items": []}]}"#)
        let new = try directory.write(
            "new.json", #"{"sections": [{"title": "A", "items": []}, {"title": "B", "summary": "y", "items": []}]}"#)
        let result = try await ToolRunner.run(["diff", old, new])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout
                == #"{"sections":{"deleted":[],"inserted":[],"moved":[],"updated":[{"from":0,"to":0},"#
                + #"{"from":1,"to":1,"summary":"y"}]},"items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}}"#
                + "\n")
    }
}
