import ChangeLog
import Foundation
import Testing

@Suite("replay import")
struct ImportCommandTests {
    @Test("appends one revision per line, creating the log")
    func happyPath() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("history.jsonl", Fixtures.history)
        let log = directory.path("app.lmdb")
        let result = try await ToolRunner.run(["import", file, "--log", log])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "appended revisions 1 to 3 (3) to \(log)\n")
        #expect(result.stderr == "")
        let opened = try ChangeLog(path: log, options: .init(createIfMissing: false))
        #expect(try opened.latestRevision == 3)
        #expect(try opened.record(at: 1).meta == ["commit": "c1"])
    }

    @Test("reads standard input and honours $REPLAY_LOG")
    func standardInput() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("env.lmdb")
        let result = try await ToolRunner.run(
            ["import", "-"], input: Fixtures.history, environment: ["REPLAY_LOG": log])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "appended revisions 1 to 3 (3) to \(log)\n")
    }

    static let badLines: [(String, String)] = [
        ("not json at all", #"line 2, column 1: not valid JSON: invalid value ("not json at all")"#),
        (#"{"sections": [{"items": []}]}"#, #"line 2, column 15, sections[0]: missing field "title""#),
        (
            #"{"sections": [{"title": 7, "items": []}]}"#,
            "line 2, column 25, sections[0].title: expected a string, found 7"
        ),
        (
            #"{"sections": [{"title": "A", "items": [{"id": "a", "summary": false}]}]}"#,
            "line 2, column 63, sections[0].items[0].summary: expected a string, found false"
        ),
        (
            #"{"sections": [{"title": "A", "items": []}, {"title": "A", "items": []}]}"#,
            #"line 2, column 54, sections[1].title: duplicate section title "A" at sections 0 and 1; "#
                + "section titles must be unique within a snapshot"
        ),
        (
            #"{"sections": [{"title": "A", "items": [{"id": "x"}]}, {"title": "B", "items": [{"id": "x"}]}]}"#,
            #"line 2, column 87, sections[1].items[0].id: duplicate item id "x" at [0, 0] and [1, 0]; "#
                + "item ids must be unique across a snapshot"
        ),
        (
            #"{"revision": 1, "meta": {}, "snapshot": {"sections": [{"items": []}]}}"#,
            #"line 2, column 55, snapshot.sections[0]: missing field "title""#
        ),
        (
            #"{"revision": 1, "meta": {"n": 1}, "snapshot": {"sections": []}}"#,
            "line 2, column 31, meta.n: expected a string, found 1"
        ),
        (#"{"meta": {}}"#, #"line 2, column 1: missing field "sections""#),
        (
            #"{"sections": [{"title": "A", "items": [{"summary": "s"}]}]}"#,
            #"line 2, column 40, sections[0].items[0]: missing field "id""#
        ),
        (#"{"meta": "x", "sections": []}"#, #"line 2, column 10, meta: expected an object, found "x""#),
        // The value is quoted as the line spells it.
        (
            #"{"sections": [{"title": "A", "items": [{"id": "a", "summary": -0}]}]}"#,
            "line 2, column 63, sections[0].items[0].summary: expected a string, found -0"
        ),
        (
            #"{"sections": [{"title": 1e400, "items": []}]}"#,
            "line 2, column 25, sections[0].title: expected a string, found 1e400"
        ),
        (
            #"{"sections": [{"title": 1E+2, "items": []}]}"#,
            "line 2, column 25, sections[0].title: expected a string, found 1E+2"
        ),
        (
            "{\"meta\": {\"n\": [1,\t{\"k\" : 2}]}, \"sections\": []}",
            #"line 2, column 16, meta.n: expected a string, found [1, {"k" : 2}]"#
        ),
        (
            #"{"sections": [{"title": "A", "items": [{"id": "a", "id": "b"}]}]}"#,
            #"line 2, column 52, sections[0].items[0]: duplicate key "id"; a key may appear once in an object"#
        ),
        // The first problem in the line: the first value is no string, before the key repeats.
        (
            #"{"meta": {"n": 1, "n": "x"}, "sections": []}"#,
            "line 2, column 16, meta.n: expected a string, found 1"
        ),
        (
            #"{"meta": {"n": "x", "n": 1}, "sections": []}"#,
            #"line 2, column 21, meta: duplicate key "n"; a key may appear once in an object"#
        ),
        (
            #"{"sections": [], "sections": []}"#,
            #"line 2, column 18: duplicate key "sections"; a key may appear once in an object"#
        ),
        // A snapshot line's `sections` and a revision line's `snapshot`: either would be a guess.
        (
            #"{"sections": [], "snapshot": 5}"#,
            #"line 2, column 18: the object holds both "sections", as a snapshot line does, and "snapshot", as a "#
                + "revision line does; it may hold one of the two"
        ),
        // A key or a value the user chose never spans lines nor sends a terminal escape
        // sequence: its control characters are escaped (ESC, and U+009B, the 8-bit CSI).
        (
            #"{"meta": {"a\nb\u001b[2J": 1}, "sections": []}"#,
            #"line 2, column 28, meta."a\nb\u{1b}[2J": expected a string, found 1"#
        ),
        (
            #"{"meta": {"a\nb": "1", "a\u000ab": "2"}, "sections": []}"#,
            #"line 2, column 24, meta: duplicate key "a\nb"; a key may appear once in an object"#
        ),
        (
            #"{"sections": [{"title": "A", "items": "\u009b2J\u007f"}]}"#,
            #"line 2, column 39, sections[0].items: expected an array, found "\u009b2J\u007f""#
        ),
        // Two spellings of one key up to canonical equivalence: the decoder kept one value.
        (
            #"{"meta": {"é": "1", "e\u0301": "2"}, "sections": []}"#,
            #"line 2, column 21, meta: duplicate key "é"; a key may appear once in an object"#
        ),
    ]

    @Test("a bad line stops the import, names the line and the problem, and appends nothing", arguments: badLines)
    func allOrNothing(line: String, message: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        // The log already holds a revision: a failed import must leave it exactly as it was.
        #expect(
            try await ToolRunner.run(["import", "-", "--log", log], input: #"{"sections": []}"# + "\n").status == 0)
        let file = try directory.write("bad.jsonl", #"{"sections": [{"title": "ok", "items": []}]}"# + "\n\(line)\n")
        let result = try await ToolRunner.run(["import", file, "--log", log])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "replay: \(file), \(message); nothing was appended\n")
        #expect(try ChangeLog(path: log, options: .init(createIfMissing: false)).latestRevision == 1)
    }

    /// Foundation's `JSONDecoder` accepts trailing commas and leaves unchecked whatever it does
    /// not read: these lines are not JSON (RFC 8259), and were appended before the text was
    /// checked against JSON's grammar (``JSONGrammar``).
    @Test(
        "a line that is not JSON is refused even where the decoder does not look",
        arguments: [
            (#"{"sections": [],}"#, #"column 16: not valid JSON: trailing comma (",}")"#),
            (
                #"{"sections": [{"title": "A", "items": [{"id": "a",}]}]}"#,
                #"column 50, sections[0].items[0]: not valid JSON: trailing comma (",}]}]}")"#
            ),
            (#"{"sections": [], "x": 01}"#, #"column 23, x: not valid JSON: invalid number ("01}")"#),
            (#"{"sections": [], "x": 1.e}"#, #"column 23, x: not valid JSON: invalid number ("1.e}")"#),
            (#"{"sections": [], "x": "\q"}"#, #"column 24, x: not valid JSON: invalid escape ("\\q\"}")"#),
            (#"{"sections": [], "x": [1,]}"#, #"column 25, x: not valid JSON: trailing comma (",]}")"#),
            (
                #"{"sections": [], "x": "\ud800"}"#,
                #"column 24, x: not valid JSON: unpaired UTF-16 surrogate in a \u escape ("\\ud800\"}")"#
            ),
            (
                #"{"sections": [{"title": "\udc00", "items": []}]}"#,
                #"column 26, sections[0].title: not valid JSON: unpaired UTF-16 surrogate in a \u escape "#
                    + #"("\\udc00\", \"items\": []"...)"#
            ),
            (
                #"{"sections": [{"title": "A", "items": ["#,
                "column 40, sections[0].items[0]: not valid JSON: unexpected end of text, expected a value"
            ),
            (
                #"{"sections": [{"title": "A"#,
                "column 27, sections[0].title: not valid JSON: unexpected end of text in a string"
            ),
        ])
    func notJSONWhereUnread(line: String, problem: String) async throws {
        try await expectRefused(line, saying: problem)
    }

    @Test("JSON nested deeper than the decoder reads is refused as such, even under a key it does not read")
    func nestedTooDeep() async throws {
        let line =
            #"{"sections": [], "x": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        try await expectRefused(
            line,
            saying: "column 534, x[0][0][0][0][0][0][0]...(500 steps)...[0][0][0][0]: nested deeper than 512 arrays "
                + "and objects")
    }

    /// Imports `line` alone from standard input into a new log, and expects it refused with
    /// `problem`, the log never created.
    private func expectRefused(_ line: String, saying problem: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let result = try await ToolRunner.run(["import", "-", "--log", log], input: line + "\n")
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr == "replay: standard input, line 1, \(problem); nothing was appended\n", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: log))
    }

    @Test("bytes that are not UTF-8 inside a string are named with their place, under a known key or not")
    func invalidUTF8InAString() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        for (before, column, path) in [
            (#"{"sections": [{"title": "a"#, 27, "sections[0].title"), (#"{"sections": [], "x": "a"#, 25, "x"),
        ] {
            let file = directory.path("bad.jsonl")
            let bytes = Array(before.utf8) + [0xFF] + Array(#"", "items": []}]}"#.utf8)
            #expect(FileManager.default.createFile(atPath: file, contents: Data(bytes)))
            let result = try await ToolRunner.run(["import", file, "--log", log])
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderr
                    == "replay: \(file), line 1, column \(column), \(path): not valid JSON: invalid UTF-8 in a string "
                    + #"("\xFF\", \"items\": []}]}"); "#
                    + "nothing was appended\n", "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: log))
    }

    @Test("unknown keys are ignored at every level of a snapshot line and of a revision line, repeated or not")
    func unknownKeys() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let input = """
            {"v": 2, "meta": {"commit": "c1"}, "extra": {"a": [1, {"b": null, "b": 1}]}, "v": 3, "sections": [{"title": "A", "n": 1, "items": [{"id": "a", "summary": "s", "x": {}, "x": 2}]}]}
            {"revision": 9, "note": "n", "meta": {"commit": "c2"}, "changes": {"items": {}, "items": {}}, "snapshot": {"sections": [{"title": "B", "items": [{"id": "b", "y": []}]}], "z": true}}

            """
        // --recompute-changes: the revision line's `changes` and `revision` stay unread, unknown.
        let result = try await ToolRunner.run(["import", "-", "--log", log, "--recompute-changes"], input: input)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "appended revisions 1 to 2 (2) to \(log)\n")
        let opened = try ChangeLog(path: log, options: .init(createIfMissing: false))
        #expect(try opened.record(at: 1).meta == ["commit": "c1"])
        #expect(try opened.record(at: 2).meta == ["commit": "c2"])
        #expect(
            try opened.snapshot(at: 1)
                == LogSnapshot(sections: [.init(title: "A", items: [.init(id: "a", summary: "s")])]))
        #expect(try opened.snapshot(at: 2) == LogSnapshot(sections: [.init(title: "B", items: [.init(id: "b")])]))
    }

    /// `JSONDecoder` reads UTF-16 and UTF-32 by itself, and would append one of the two titles
    /// of the first line; FORMAT.md's JSON Lines are UTF-8, so the input is refused.
    @Test(
        "an import file in UTF-16 or UTF-32 is refused at its first line, and nothing is appended",
        arguments: Fixtures.foreignEncodings)
    func notUTF8(encoding: String.Encoding, name: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        #expect(
            try await ToolRunner.run(["import", "-", "--log", log], input: #"{"sections": []}"# + "\n").status == 0)
        let lines = #"{"sections":[{"title":"a","title":"b","items":[]}]}"# + "\n" + #"{"sections":[]}"# + "\n"
        for (file, text) in [("plain.jsonl", lines), ("marked.jsonl", "\u{FEFF}" + lines)] {
            let path = directory.path(file)
            try #require(text.data(using: encoding)).write(to: URL(fileURLWithPath: path))
            let result = try await ToolRunner.run(["import", path, "--log", log])
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout == "")
            #expect(
                result.stderr
                    == "replay: \(path), line 1, column 1: the text is \(name), not UTF-8: the interchange format is "
                    + "UTF-8; "
                    + "nothing was appended\n")
        }
        #expect(try ChangeLog(path: log, options: .init(createIfMissing: false)).latestRevision == 1)
    }

    @Test("an export imports back: the same snapshots, metadata, changes and times")
    func exportImportsBack() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = directory.path("original.lmdb")
        let copy = directory.path("copy.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", original], input: Fixtures.history).status == 0)
        let exported = try await ToolRunner.run(["export", "--log", original])
        #expect(exported.status == 0, "\(exported)")
        let imported = try await ToolRunner.run(["import", "-", "--log", copy], input: exported.stdout)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == "appended revisions 1 to 3 (3) to \(copy)\n")
        let reexported = try await ToolRunner.run(["export", "--log", copy])
        #expect(reexported.status == 0, "\(reexported)")
        #expect(exported.stdout.split(separator: "\n").count == 3)
        #expect(reexported.stdout == exported.stdout)
        // Revision lines mix with snapshot lines; their numbers are the log's to give. Revision 2's
        // changes, kept as recorded, do not take revision 3's snapshot to its own: the import says so.
        let mixed = try await ToolRunner.run(
            ["import", "-", "--log", copy],
            input: exported.stdout.split(separator: "\n")[1] + "\n" + #"{"sections": []}"# + "\n")
        #expect(
            mixed.stdout
                == "appended revisions 4 to 5 (2) to \(copy)\nstored 1 revision as recorded whose changes do not take "
                + "the previous snapshot to their own: 4 (replay verify names the first; --recompute-changes diffs "
                + "them instead)\n", "\(mixed)")
        let log = try ChangeLog(path: copy, options: .init(createIfMissing: false))
        #expect(try log.record(at: 4).meta == ["commit": "c2"])
        #expect(try log.record(at: 4).snapshot == log.record(at: 2).snapshot)
    }

    @Test("under a file-size limit the space kept ahead of data.mdb stops at the limit instead of ending the tool")
    func fileSizeLimit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("limited.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.history).status == 0)
        // Cut the zeros off, as in a log written before the reserve existed: the next append
        // wants 64 KB ahead, more than the limit leaves.
        let used = try ChangeLog(path: log, options: .init(createIfMissing: false)).bytesInUse
        #expect(truncate(log + "/data.mdb", off_t(used)) == 0)
        // Reading commands open the log without keeping space ahead: they leave the file alone.
        #expect(try await ToolRunner.run(["verify", "--log", log]).status == 0)
        let afterVerify = try FileManager.default.attributesOfItem(atPath: log + "/data.mdb")[.size] as? NSNumber
        #expect(afterVerify?.intValue == used)
        let limit = used + (48 << 10)
        let result = try await ToolRunner.run(
            ["import", "-", "--log", log], input: #"{"sections": []}"# + "\n", fileSizeLimit: limit)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "appended revisions 4 to 4 (1) to \(log)\n")
        // The zeros go up to the limit, not past it (where the write would fail, or the signal
        // for it end the tool).
        let size = try FileManager.default.attributesOfItem(atPath: log + "/data.mdb")[.size] as? NSNumber
        #expect(size?.intValue == limit)
    }

    @Test("a failed import into a new path leaves no log behind")
    func failedImportCreatesNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("new.lmdb")
        let result = try await ToolRunner.run(["import", "-", "--log", log], input: "nope\n")
        #expect(result.status == 2)
        #expect(!FileManager.default.fileExists(atPath: log))
    }

    /// An import creates its log only once lines are ready to be appended, so a failed one leaves
    /// no log behind and never removes one: another import of the same new path, still decoding
    /// its lines, must not report success and then find its revisions gone. Here the second
    /// import starts as soon as the first one's log appears (it never does) and has four times
    /// as many lines to decode.
    @Test("a failed import into a new path leaves alone the log another import creates there meanwhile")
    func failedImportBesideAnother() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("shared.lmdb")
        let lines = (1...20_000).map { #"{"sections": [{"title": "T", "items": [{"id": "item-\#($0)"}]}]}"# }
        let good = try directory.write("good.jsonl", lines.joined(separator: "\n") + "\n")
        let bad = try directory.write(
            "bad.jsonl", lines.prefix(5_000).joined(separator: "\n") + "\n" + #"{"sections": 1}"# + "\n")
        let result = try await StreamFailureTests.shell(
            """
            "$REPLAY" import '\(bad)' --log '\(log)' > /dev/null 2> '\(directory.path("bad.err"))' &
            bad=$!
            while kill -0 $bad 2> /dev/null && [ ! -e '\(log)/data.mdb' ]; do sleep 0.002; done
            "$REPLAY" import '\(good)' --log '\(log)' > /dev/null || exit 9
            wait $bad && exit 8
            exit 0
            """)
        #expect(result.status == 0, "\(result)")
        #expect(try String(contentsOfFile: directory.path("bad.err"), encoding: .utf8).contains("line 5001"))
        let verified = try await ToolRunner.run(["verify", "--log", log])
        #expect(verified.stdout == "verified revisions 1 to 20000 (20000): ok\n", "\(verified)")
    }

    @Test("--skip-invalid reports bad lines and appends the good ones")
    func skipInvalid() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let input = #"{"sections": []}"# + "\nnope\n" + #"{"sections": [{"title": "A", "items": []}]}"# + "\n"
        let result = try await ToolRunner.run(["import", "-", "--log", log, "--skip-invalid"], input: input)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "appended revisions 1 to 2 (2) to \(log)\nskipped 1 invalid lines\n")
        #expect(
            result.stderr
                == #"replay: skipped standard input, line 2, column 1: not valid JSON: invalid value ("nope")"# + "\n"
        )
    }

    @Test("--commit-every streams: a later bad line keeps the batches before its batch and says how to finish")
    func commitEvery() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let input = Fixtures.growing(5) + "{broken\n"
        let result = try await ToolRunner.run(["import", "-", "--log", log, "--commit-every", "2"], input: input)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == #"replay: standard input, line 6, column 2: not valid JSON: expected a key in double quotes ("broken"); "#
                + "revisions 1 to 4 (4), from the lines before line 5, were appended to \(log) and stay there (to "
                + "finish, fix line 6, then give the same input again to: replay import - --log \(log) --from-line 5 "
                + "--commit-every 2)\n")
        #expect(try ChangeLog(path: log, options: .init(createIfMissing: false)).latestRevision == 4)
        let rest = try await ToolRunner.run(
            ["import", "-", "--log", log, "--from-line", "5", "--commit-every", "2"], input: Fixtures.growing(5))
        #expect(rest.status == 0, "\(rest)")
        #expect(try ChangeLog(path: log, options: .init(createIfMissing: false)).latestRevision == 5)
    }

    @Test("bad arguments are usage errors", arguments: [["import"], ["import", "x", "--commit-every", "0"]])
    func usage(arguments: [String]) async throws {
        let result = try await ToolRunner.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error:"))
    }

    /// The argument parser reads `-1` as an option; the tool names the negative number rather
    /// than calling the value missing.
    @Test(
        "a negative number given to an option is named as such",
        arguments: [
            (["import", "x", "--commit-every", "-3"], "--commit-every", "-3"),
            (["log", "--log", "nowhere", "--from", "-1"], "--from", "-1"),
            (["demo", "--seed", "-1", "--log", "nowhere"], "--seed", "-1"),
        ])
    func negativeNumber(arguments: [String], option: String, value: String) async throws {
        let result = try await ToolRunner.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == "replay: \(option) takes a number that is not negative, not \(value)\n", "\(result)")
    }

    /// A pipe that has no data yet is waited for, not read as unreadable (as by Foundation's
    /// `contents(atPath:)`, which opens files without blocking).
    @Test("import and diff read named pipes and /dev/stdin from a pipe, as they come")
    func pipes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let history = try directory.write("history.jsonl", Fixtures.history)
        let snapshot = try directory.write("new.json", #"{"sections": [{"title": "A", "items": [{"id": "a"}]}]}"#)
        let empty = try directory.write("old.json", #"{"sections": []}"#)
        let fifo = directory.path("fifo")
        let result = try await StreamFailureTests.shell(
            """
            mkfifo '\(fifo)' || exit 9
            # A writer that waits for a reader which never comes (the tool failed first) gives up
            # after a while rather than hold this script's standard error open: a hang guard.
            feed() { sleep 0.2; timeout 60 sh -c 'cat "$0" > "$1"' "$1" '\(fifo)' 2> /dev/null; }
            feed '\(history)' &
            "$REPLAY" import '\(fifo)' --log '\(directory.path("fifo.lmdb"))' || exit 1
            cat '\(history)' | "$REPLAY" import /dev/stdin --log '\(directory.path("stdin.lmdb"))' || exit 2
            feed '\(snapshot)' &
            "$REPLAY" diff '\(empty)' '\(fifo)' > '\(directory.path("diff.json"))' || exit 3
            """)
        #expect(result.status == 0, "\(result)")
        for name in ["fifo.lmdb", "stdin.lmdb"] {
            let verified = try await ToolRunner.run(["verify", "--log", directory.path(name)])
            #expect(verified.stdout == "verified revisions 1 to 3 (3): ok\n", "\(name): \(verified)")
        }
        let direct = try await ToolRunner.run(["diff", empty, snapshot])
        #expect(try String(contentsOfFile: directory.path("diff.json"), encoding: .utf8) == direct.stdout)
    }

    @Test("a directory given as the input file is named, with the system's reason")
    func directoryAsInput() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["import", directory.path(""), "--log", directory.path("l")])
        #expect(result.status == 2)
        #expect(result.stderr == "replay: \(directory.path("")): cannot be read: Is a directory\n")
        #expect(!FileManager.default.fileExists(atPath: directory.path("l")))
    }

    @Test("a missing file is named")
    func missingFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["import", directory.path("none.jsonl"), "--log", directory.path("l")])
        #expect(result.status == 2)
        #expect(result.stderr == "replay: \(directory.path("none.jsonl")): no such file\n")
    }
}
