import Foundation
import Testing

@Suite("replay diff")
struct DiffCommandTests {
    @Test("prints FORMAT.md changes on one line, or indented with --pretty")
    func happyPath() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let old = try directory.write(
            "old.json", #"{"sections": [{"title": "A", "items": [{"id": "a", "summary": "1"}, {"id": "b"}]}]}"#)
        let new = try directory.write(
            "new.json",
            #"{"sections": [{"title": "B", "items": []}, {"title": "A", "items": [{"id": "b"}, {"id": "a", "summary": "2"}]}]}"#
        )
        let result = try await ToolRunner.run(["diff", old, new])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout
                == #"{"sections":{"deleted":[],"inserted":[{"index":0,"title":"B","items":[]}],"moved":[],"updated":[]},"items":{"deleted":[],"inserted":[],"moved":[{"from":[0,1],"to":[1,0]}],"updated":[{"from":[0,0],"to":[1,1],"summary":"2"}]}}"#
                + "\n")
        let pretty = try await ToolRunner.run(["diff", old, new, "--pretty"])
        #expect(
            pretty.stdout == """
                {
                  "sections": {
                    "deleted": [],
                    "inserted": [
                      {
                        "index": 0,
                        "title": "B",
                        "items": []
                      }
                    ],
                    "moved": [],
                    "updated": []
                  },
                  "items": {
                    "deleted": [],
                    "inserted": [],
                    "moved": [
                      {
                        "from": [0, 1],
                        "to": [1, 0]
                      }
                    ],
                    "updated": [
                      {
                        "from": [0, 0],
                        "to": [1, 1],
                        "summary": "2"
                      }
                    ]
                  }
                }

                """)
    }

    @Test(
        "bad input names the file and the problem",
        arguments: [
            ("{", "column 2: not valid JSON: unexpected end of text, expected a key"),
            (
                "{\"sections\": [\n  {\"title\": \"é\", \"items\": [}\n]}",
                #"line 2, column 28, sections[0].items[0]: not valid JSON: invalid value ("}")"#
            ),
            (
                #"{"sections": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}",
                // The first problem: the first section is no object, however deep its arrays go.
                "column 15, sections[0]: expected an object, found "
                    + String(repeating: "[", count: 57) + "..."
            ),
            (#"{"sections": [{"title": "A"}]}"#, #"column 15, sections[0]: missing field "items""#),
            (
                #"{"sections": [{"title": "A", "items": [{"id": 1}]}]}"#,
                "column 47, sections[0].items[0].id: expected a string, found 1"
            ),
            (
                #"{"sections": [{"title": "A", "items": [{"id": "x"}, {"id": "x"}]}]}"#,
                #"column 60, sections[0].items[1].id: duplicate item id "x" at [0, 0] and [0, 1]; item ids must be "#
                    + "unique across a snapshot"
            ),
            (
                #"{"sections": [{"title": "A", "items": [{"id": "x", "summary": "1", "summary": "2"}]}]}"#,
                #"column 68, sections[0].items[0]: duplicate key "summary"; a key may appear once in an object"#
            ),
            // The first problem in input order: the first id is no string, before the key repeats.
            (
                #"{"sections": [{"title": "A", "items": [{"id": 1, "id": "x"}]}]}"#,
                "column 47, sections[0].items[0].id: expected a string, found 1"
            ),
            (
                #"{"sections": [{"title": "A", "items": [{"id": "x", "id": 1}]}]}"#,
                #"column 52, sections[0].items[0]: duplicate key "id"; a key may appear once in an object"#
            ),
            // A snapshot's meta is checked as an import checks it, although a diff does not use it.
            (#"{"meta": {"k": 1}, "sections": []}"#, "column 16, meta.k: expected a string, found 1"),
            // A key named twice in meta, or meta named twice, as an import refuses them.
            (
                #"{"meta": {"k": "a", "k": "b"}, "sections": []}"#,
                #"column 21, meta: duplicate key "k"; a key may appear once in an object"#
            ),
            (
                #"{"meta": {"é": "1", "e\u0301": "2"}, "sections": []}"#,
                #"column 21, meta: duplicate key "é"; a key may appear once in an object"#
            ),
            (
                #"{"meta": {}, "sections": [], "meta": {"k": "v"}}"#,
                #"column 30: duplicate key "meta"; a key may appear once in an object"#
            ),
            // A revision line's `snapshot` beside `sections`, as an import refuses it.
            (
                #"{"sections": [], "snapshot": 5}"#,
                #"column 18: the object holds both "sections", as a snapshot line does, and "snapshot", as a "#
                    + "revision line does; it may hold one of the two"
            ),
            (
                #"{"snapshot": {"sections": [], "sections": []}}"#,
                #"column 31, snapshot: duplicate key "sections"; a key may appear once in an object"#
            ),
            // Columns after a UTF-8 byte order mark count what an editor shows, from the brace.
            ("\u{FEFF}{\"sections\": [x]}", #"column 15, sections[0]: not valid JSON: invalid value ("x]}")"#),
            ("\u{FEFF}{\"sections\":\n [x]}", #"line 2, column 3, sections[0]: not valid JSON: invalid value ("x]}")"#),
        ])
    func badInput(contents: String, problem: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = try directory.write("good.json", #"{"sections": []}"#)
        let bad = try directory.write("bad.json", contents)
        let result = try await ToolRunner.run(["diff", good, bad])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "replay: \(bad): \(problem)\n")
    }

    /// `replay diff` reads a snapshot file's `meta` as an import reads it, and names a huge key
    /// as it does: its first 60 characters and its length, not its megabytes.
    @Test("a multi-megabyte meta key is cut in the message that names it")
    func hugeMetaKey() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = try directory.write("good.json", #"{"sections": []}"#)
        let key = String(repeating: "k", count: 4_000_000)
        let shown = "\"" + String(repeating: "k", count: 60) + "\"... (4000000 bytes)"
        let cases = [
            (
                #"{"sections": [], "meta": {"\#(key)": "a", "\#(key)": "b"}}"#,
                "column 4000036, meta: duplicate key \(shown); a key may appear once in an object"
            ),
            (#"{"meta": {"\#(key)": 5}, "sections": []}"#, "column 4000015, meta.\(shown): expected a string, found 5"),
            (
                #"{"meta": {"\#(key)": null}, "sections": []}"#,
                "column 4000015, meta.\(shown): expected a string, found null"
            ),
        ]
        for (contents, problem) in cases {
            let bad = try directory.write("bad.json", contents)
            let result = try await ToolRunner.run(["diff", good, bad])
            #expect(result.status == 2)
            #expect(result.stdout == "")
            // Compared only once short: a failure must not print megabytes.
            #expect(result.stderr.utf8.count < 300, "\(result.stderr.utf8.count) bytes")
            if result.stderr.utf8.count < 300 { #expect(result.stderr == "replay: \(bad): \(problem)\n") }
        }
    }

    /// `JSONDecoder` reads UTF-16 and UTF-32 by itself, and would use one of the two titles of
    /// this snapshot; FORMAT.md's JSON is UTF-8, so the file is refused before it is decoded.
    @Test(
        "a snapshot file in UTF-16 or UTF-32 is refused, named, even from standard input",
        arguments: Fixtures.foreignEncodings)
    func notUTF8(encoding: String.Encoding, name: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = try directory.write("good.json", #"{"sections": []}"#)
        let json = #"{"sections":[{"title":"a","title":"b","items":[]}]}"#
        let problem = "column 1: the text is \(name), not UTF-8: the interchange format is UTF-8"
        for (file, text) in [("plain.json", json), ("marked.json", "\u{FEFF}" + json)] {
            let bad = directory.path(file)
            try #require(text.data(using: encoding)).write(to: URL(fileURLWithPath: bad))
            let result = try await ToolRunner.run(["diff", good, bad])
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout == "")
            #expect(result.stderr == "replay: \(bad): \(problem)\n")
        }
        let piped = try await StreamFailureTests.shell(
            "\"$REPLAY\" diff '\(good)' - < '\(directory.path("plain.json"))'")
        #expect(piped.status == 2, "\(piped)")
        #expect(piped.stderr == "replay: standard input: \(problem)\n")
    }

    @Test("a missing file is named")
    func missing() async throws {
        let result = try await ToolRunner.run(["diff", "/nonexistent/old.json", "/nonexistent/new.json"])
        #expect(result.status == 2)
        #expect(result.stderr == "replay: /nonexistent/old.json: no such file\n")
    }

    /// An empty path (an unset shell variable) is called empty, not `replay: : no such file`.
    @Test("an empty path is named as such, by diff and import", arguments: [["diff", "", "-"], ["import", ""]])
    func emptyPath(arguments: [String]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Run where import's default log, ./replay.lmdb, would be created.
        let result = try await ToolRunner.run(arguments, input: "{}", directory: directory.url)
        #expect(result.status == 2)
        #expect(
            result.stderr == #"replay: an input file's path is empty (""): pass a file, or - for standard input"# + "\n"
        )
        #expect(!FileManager.default.fileExists(atPath: directory.path("replay.lmdb")))
    }

    @Test("only one snapshot can come from standard input")
    func bothFromStandardInput() async throws {
        let result = try await ToolRunner.run(["diff", "-", "-"], input: "{}")
        #expect(result.status == 64)
        #expect(result.stderr.contains("only one of the two snapshots can come from standard input (-)"))
    }
}
