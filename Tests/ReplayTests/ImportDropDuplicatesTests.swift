import ChangeLog
import Foundation
import Testing

/// `replay import --drop-duplicates`: the first occurrence of each title and id of a line is
/// kept, the rest dropped and recorded in the revision's `meta`; without the flag a repeat is
/// a bad line as before.
@Suite("replay import --drop-duplicates")
struct ImportDropDuplicatesTests {
    /// Three lines: one that repeats nothing, a snapshot line that repeats an item and a
    /// section, and a revision line (as an export writes one) whose snapshot repeats an item.
    static let input = """
        {"meta": {"commit": "c1"}, "sections": [{"title": "Today", "items": [{"id": "a", "summary": "hi"}, {"id": "b"}]}]}
        {"meta": {"commit": "c2"}, "sections": [{"title": "Today", "items": [{"id": "a", "summary": "hi"}, {"id": "b"}, {"id": "a", "summary": "again"}]}, {"title": "Old", "items": [{"id": "c"}]}, {"title": "Today", "items": [{"id": "d"}, {"id": "e"}]}, {"title": "New", "items": [{"id": "c"}, {"id": "f"}]}]}
        {"revision": 7, "time": "2026-11-20T10:00:00.000Z", "meta": {}, "snapshot": {"sections": [{"title": "Old", "items": [{"id": "c"}, {"id": "c"}]}]}, "changes": {}}

        """

    /// What line 2 and line 3 drop, as the revisions' `meta` record it.
    static let droppedInLine2 =
        #"[{"id":"a","at":[0,2],"first":[0,0]},{"title":"Today","at":[2],"first":[0],"items":2},"#
        + #"{"id":"c","at":[3,0],"first":[1,0]}]"#
    static let droppedInLine3 = #"[{"id":"c","at":[0,1],"first":[0,0]}]"#

    @Test("repeats are dropped, recorded in meta; export shows the cleaned snapshots and verify passes")
    func dropsAndRecords() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("feed.jsonl", Self.input)
        let log = directory.path("app.lmdb")
        let result = try await ToolRunner.run(["import", file, "--log", log, "--drop-duplicates"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "appended revisions 1 to 3 (3) to \(log)\n")
        #expect(result.stderr == "")

        let opened = try ChangeLog(path: log, options: .init(readOnly: true))
        #expect(try opened.record(at: 1).meta == ["commit": "c1"])
        #expect(try opened.record(at: 2).meta == ["commit": "c2", "dropped-duplicates": Self.droppedInLine2])
        #expect(try opened.record(at: 3).meta == ["dropped-duplicates": Self.droppedInLine3])

        let exported = try await ToolRunner.run(["export", "--log", log])
        #expect(exported.status == 0, "\(exported)")
        let lines = exported.stdout.split(separator: "\n").map { maskingTimes(String($0)) }
        #expect(lines.count == 3)
        #expect(
            lines[1].contains(
                #""snapshot":{"sections":[{"title":"Today","items":[{"id":"a","summary":"hi"},{"id":"b"}]},"#
                    + #"{"title":"Old","items":[{"id":"c"}]},{"title":"New","items":[{"id":"f"}]}]}"#), "\(lines[1])")
        #expect(
            lines[1].contains(#""meta":{"commit":"c2","dropped-duplicates":"# + quotedJSON(Self.droppedInLine2)),
            "\(lines[1])")
        #expect(
            lines[2].hasPrefix(
                #"{"revision":3,"time":"<time>","meta":{"dropped-duplicates":"# + quotedJSON(Self.droppedInLine3)
                    + #"},"snapshot":{"sections":[{"title":"Old","items":[{"id":"c"}]}]}"#), "\(lines[2])")

        let verified = try await ToolRunner.run(["verify", "--log", log])
        #expect(verified.status == 0, "\(verified)")
    }

    @Test("without the flag a repeat is still a bad line, and nothing is appended")
    func refusedWithoutFlag() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("feed.jsonl", Self.input)
        let log = directory.path("app.lmdb")
        let result = try await ToolRunner.run(["import", file, "--log", log])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "replay: \(file), line 2, column 200, sections[2].title: duplicate section title \"Today\" at sections "
                + "0 and 2; section titles must be unique within a snapshot; nothing was appended\n")
        #expect(!FileManager.default.fileExists(atPath: log + "/data.mdb"))
    }

    @Test("a line that would drop something while its meta has the key is a bad line; one that drops nothing keeps it")
    func userKey() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let keeps = #"{"meta": {"dropped-duplicates": "mine"}, "sections": [{"title": "A", "items": [{"id": "a"}]}]}"#
        let clashes =
            #"{"meta": {"dropped-duplicates": "mine"}, "sections": [{"title": "A", "items": [{"id": "a"}, {"id": "a"}]}]}"#
        let file = try directory.write("feed.jsonl", keeps + "\n" + clashes + "\n")
        let refused = try await ToolRunner.run(["import", file, "--log", log, "--drop-duplicates"])
        #expect(refused.status == 2)
        #expect(
            refused.stderr
                == #"replay: \#(file), line 2, column 33, meta.dropped-duplicates: the line repeats a title or an id "#
                + #"(item "a" at [0, 1] (first at [0, 0])), and its meta already has this key, where what is dropped "#
                + "would be recorded; rename the key, or import without dropping duplicates; nothing was appended\n")

        let skipped = try await ToolRunner.run(["import", file, "--log", log, "--drop-duplicates", "--skip-invalid"])
        #expect(skipped.status == 0, "\(skipped)")
        #expect(skipped.stdout == "appended revisions 1 to 1 (1) to \(log)\nskipped 1 invalid lines\n")
        #expect(
            try ChangeLog(path: log, options: .init(readOnly: true)).record(at: 1).meta == [
                "dropped-duplicates": "mine"
            ])
    }

    @Test("an export of such a log imports back with the flag: nothing more to drop, the record kept")
    func exportImportsBack() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = directory.path("original.lmdb")
        let copy = directory.path("copy.lmdb")
        let imported = try await ToolRunner.run(
            ["import", "-", "--log", original, "--drop-duplicates"], input: Self.input)
        #expect(imported.status == 0, "\(imported)")
        let exported = try await ToolRunner.run(["export", "--log", original])
        let again = try await ToolRunner.run(
            ["import", "-", "--log", copy, "--drop-duplicates"], input: exported.stdout)
        #expect(again.status == 0, "\(again)")
        let reexported = try await ToolRunner.run(["export", "--log", copy])
        #expect(maskingTimes(reexported.stdout) == maskingTimes(exported.stdout))
    }

    @Test("a streaming import drops the same way, and the command that finishes it keeps the flag")
    func streaming() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let file = try directory.write("feed.jsonl", Self.input + "not json\n")
        let result = try await ToolRunner.run([
            "import", file, "--log", log, "--drop-duplicates", "--commit-every", "2",
        ])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "replay: \(file), line 4, column 1: not valid JSON: invalid value (\"not json\"); revisions 1 to 2 "
                + "(2), from the lines before line 3, were appended to \(log) and stay there (to finish, fix line 4, "
                + "then run: replay import \(file) --log \(log) --from-line 3 --commit-every 2 --drop-duplicates)\n")
        let opened = try ChangeLog(path: log, options: .init(readOnly: true))
        #expect(try opened.record(at: 2).meta["dropped-duplicates"] == Self.droppedInLine2)
    }

    @Test("the help names the flag and the meta key")
    func help() async throws {
        let result = try await ToolRunner.run(["import", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--drop-duplicates"))
        #expect(result.stdout.contains(#""dropped-duplicates""#))
    }

    /// `text` as a JSON string, as the format's writer escapes it.
    private func quotedJSON(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
