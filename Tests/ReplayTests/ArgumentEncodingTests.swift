import Foundation
import Testing

/// Arguments and `$REPLAY_LOG` that are not valid UTF-8: Swift would read them with U+FFFD in
/// place of the bytes given, so the tool would use another path than the user's. It refuses
/// them, naming the argument and showing the bytes, and touches nothing.
@Suite("replay with arguments that are not UTF-8")
struct ArgumentEncodingTests {
    /// Runs `script` with `/bin/sh` in `directory`, `$REPLAY` being the built tool. Foundation's
    /// `Process` takes arguments as `String`s, so bytes that are not UTF-8 are made by `printf`.
    static func shell(_ script: String, in directory: TemporaryDirectory) async throws -> ToolRunner.Result {
        try await StreamFailureTests.shell(
            "cd '\(directory.url.path)' && printf '{\"sections\": []}\\n' > s.jsonl && \(script)")
    }

    /// The names in `directory`, sorted.
    static func contents(of directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    @Test(
        "an argument that is not UTF-8 is a usage error naming its position, with the bytes escaped",
        arguments: [
            (
                #""$REPLAY" import s.jsonl --log "$(printf 'bad\377name')""#,
                #"argument 4 is not valid UTF-8: "bad\xFFname""#
            ),
            (
                #""$REPLAY" import "$(printf 'in\376.jsonl')" --log new.lmdb"#,
                #"argument 2 is not valid UTF-8: "in\xFE.jsonl""#
            ),
            // A truncated sequence and an encoded surrogate, after a control character and a quote.
            (
                #""$REPLAY" diff s.jsonl "$(printf '\001"\303\355\240\200')""#,
                #"argument 3 is not valid UTF-8: "\u{1}\"\xC3\xED\xA0\x80""#
            ),
            (#""$REPLAY" "$(printf '\377')" --help"#, #"argument 1 is not valid UTF-8: "\xFF""#),
        ])
    func argument(script: String, message: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The file the second case names exists: it must not be reported as missing.
        let result = try await Self.shell(
            #"printf '{"sections": []}\n' > "$(printf 'in\376.jsonl')" && "# + script, in: directory)
        #expect(result.status == 64, "\(result)")
        #expect(
            result.stderr
                == "replay: \(message); replay reads arguments as UTF-8 and cannot use this one as given\n")
        // s.jsonl and in\xFE.jsonl, and no log under any name.
        let contents = try Self.contents(of: directory)
        #expect(contents.count == 2, "\(contents)")
    }

    @Test("a $REPLAY_LOG that is not UTF-8 is bad input, and no log is created")
    func logVariable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try await Self.shell(
            #"REPLAY_LOG="$(printf 'env\377.lmdb')" "$REPLAY" import s.jsonl"#, in: directory)
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr
                == #"replay: $REPLAY_LOG is not valid UTF-8: "env\xFF.lmdb"; unset it, or set it to a log path "#
                + "that is valid UTF-8\n")
        #expect(try Self.contents(of: directory) == ["s.jsonl"])
    }

    @Test("arguments and $REPLAY_LOG beyond ASCII that are valid UTF-8 are used as given")
    func validUTF8() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try await Self.shell(
            #"REPLAY_LOG=env-é.lmdb "$REPLAY" import s.jsonl && "$REPLAY" import s.jsonl --log 'arg-☃.lmdb'"#,
            in: directory)
        #expect(result.status == 0, "\(result)")
        #expect(try Self.contents(of: directory) == ["arg-☃.lmdb", "env-é.lmdb", "s.jsonl"])
    }

    @Test("a line break or an escape sequence in a path is escaped in errors: one line, no terminal control")
    func controlsInErrors() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("no\nsuch\u{1B}[31m.lmdb")
        let result = try await ToolRunner.run(["log", "--log", path])
        #expect(result.status == 2, "\(result)")
        let shown = directory.path(#"no\nsuch\u{1b}[31m.lmdb"#)
        #expect(
            result.stderr
                == "replay: no log at \(shown): check --log or $REPLAY_LOG, or create one with `replay import` or "
                + "`replay demo`\n")
    }

    @Test(
        "the parser's own errors escape the control characters of the arguments they quote",
        arguments: [
            (
                ["show", "x\u{1B}[31mred\nline2"],
                #"Error: The value 'x\u{1b}[31mred\nline2' is invalid for '<revision>'"#
            ),
            (["verify", "extra\u{7}"], #"Error: Unexpected argument 'extra\u{7}'"#),
            (["log", "--from", "1", "--to", "\r2"], #"Error: The value '\r2' is invalid for '--to <revision>'"#),
        ])
    func controlsInParserErrors(arguments: [String], firstLine: String) async throws {
        let result = try await ToolRunner.run(arguments)
        #expect(result.status == 64, "\(result)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == firstLine, "\(result)")
        // The usage lines follow, whole: the argument split none of them.
        #expect(lines.contains { $0.hasPrefix("Usage: replay \(arguments[0])") }, "\(result)")
        #expect(!result.stderr.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
    }
}
