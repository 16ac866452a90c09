import ChangeLog
import Foundation
import Testing

/// `replay import --commit-every N` streams its input a batch at a time, and `--from-line N`
/// finishes an import that stopped.
@Suite("replay import, streaming and resuming")
struct ImportStreamingTests {
    /// Snapshot line `number`: one section holding one item named after the line.
    static func line(_ number: Int) -> String {
        #"{"meta": {"line": "\#(number)"}, "sections": [{"title": "S", "items": [{"id": "item-\#(number)"}]}]}"#
    }

    static func lines(_ numbers: ClosedRange<Int>) -> String {
        numbers.map(line).joined(separator: "\n") + "\n"
    }

    /// The `line` metadata of every revision of the log at `path`, oldest first.
    static func importedLines(_ path: String) throws -> [String] {
        let log = try ChangeLog(path: path, options: .init(createIfMissing: false, readOnly: true))
        return try (0..<log.latestRevision).map { try log.record(at: $0 + 1).meta["line"] ?? "" }
    }

    @Test("a bad line keeps the batches before it, and the printed command finishes the import once it is fixed")
    func badLineThenResume() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let good = Self.lines(1...10).split(separator: "\n").map(String.init)
        var broken = good
        broken[6] = "not json"
        let file = try directory.write("history.jsonl", broken.joined(separator: "\n") + "\n")
        let result = try await ToolRunner.run(["import", file, "--log", log, "--commit-every", "3"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout == "")
        let command = "replay import \(file) --log \(log) --from-line 7 --commit-every 3"
        #expect(
            result.stderr
                == "replay: \(file), line 7, column 1: not valid JSON: invalid value (\"not json\"); revisions 1 to 6 "
                + "(6), from the lines before line 7, were appended to \(log) and stay there (to finish, fix line 7, "
                + "then run: \(command))\n")
        #expect(try Self.importedLines(log) == (1...6).map(String.init))
        // Fixed, the printed command appends the rest.
        _ = try directory.write("history.jsonl", good.joined(separator: "\n") + "\n")
        let resumed = try await ToolRunner.run(Array(command.split(separator: " ").dropFirst().map(String.init)))
        #expect(resumed.status == 0, "\(resumed)")
        #expect(resumed.stdout == "appended revisions 7 to 10 (4) to \(log)\n")
        #expect(try Self.importedLines(log) == (1...10).map(String.init))
    }

    @Test("a bad line in the first batch appends nothing, as without --commit-every")
    func badLineInFirstBatch() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let file = try directory.write("history.jsonl", Self.line(1) + "\n{\n" + Self.lines(3...5))
        let result = try await ToolRunner.run(["import", file, "--log", log, "--commit-every", "2"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("replay: \(file), line 2, "), "\(result)")
        #expect(result.stderr.hasSuffix("; nothing was appended\n"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: log + "/data.mdb"))
    }

    @Test("without --commit-every, a bad line after many good ones still appends nothing")
    func allOrNothingUnchanged() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let file = try directory.write("history.jsonl", Self.lines(1...9) + "not json\n")
        let result = try await ToolRunner.run(["import", file, "--log", log])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr
                == "replay: \(file), line 10, column 1: not valid JSON: invalid value (\"not json\"); nothing was "
                + "appended\n")
        #expect(!FileManager.default.fileExists(atPath: log + "/data.mdb"))
    }

    @Test("lines a producer writes are appended before it ends", arguments: [1, 2])
    func producerLinesAppendedAsTheyCome(batch: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let running = try ToolRunner.start(["import", "-", "--log", log, "--commit-every", "\(batch)"])
        let errorData = ReadAll(running.stderr.fileHandleForReading)
        let outputData = ReadAll(running.stdout.fileHandleForReading)
        running.stdin.fileHandleForWriting.write(Data(Self.lines(1...2).utf8))
        // The producer has not ended: the two lines must be appended all the same.
        while (try? ChangeLog(path: log, options: .init(createIfMissing: false, readOnly: true)).latestRevision) ?? 0
            < 2
        {
            try #require(running.process.isRunning, "the import ended before its input did")
            try await Task.sleep(nanoseconds: UInt64(2_000) * 1_000)
        }
        running.stdin.fileHandleForWriting.write(Data(Self.lines(3...3).utf8))
        try running.stdin.fileHandleForWriting.close()
        let stderr = String(decoding: await errorData.wait(), as: UTF8.self)
        let stdout = String(decoding: await outputData.wait(), as: UTF8.self)
        await running.process.exited()
        #expect(running.process.terminationStatus == 0, "\(stderr)")
        #expect(stdout == "appended revisions 1 to 3 (3) to \(log)\n")
        #expect(try Self.importedLines(log) == ["1", "2", "3"])
    }

    @Test(
        "--from-line skips the lines before it unchecked and numbers lines from the input's start",
        arguments: [
            nil, "1", "2",
        ])
    func fromLine(commitEvery: String?) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let file = try directory.write("history.jsonl", "not json\n{\n" + Self.lines(3...6) + "also bad\n")
        let options = commitEvery.map { ["--commit-every", $0] } ?? []
        let result = try await ToolRunner.run(["import", file, "--log", log, "--from-line", "3"] + options)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("replay: \(file), line 7, column 1: not valid JSON"), "\(result)")
        let other = directory.path("other.lmdb")
        let fromStandardInput = try await ToolRunner.run(
            ["import", "-", "--log", other, "--from-line", "3", "--skip-invalid"] + options,
            input: "not json\n{\n" + Self.lines(3...6) + "also bad\n")
        #expect(fromStandardInput.status == 0, "\(fromStandardInput)")
        #expect(fromStandardInput.stdout == "appended revisions 1 to 4 (4) to \(other)\nskipped 1 invalid lines\n")
        #expect(fromStandardInput.stderr.hasPrefix("replay: skipped standard input, line 7, column 1: "))
        #expect(try Self.importedLines(other) == ["3", "4", "5", "6"])
    }

    @Test("--from-line past the input's last line is refused", arguments: [nil, "1", "5"])
    func fromLinePastTheEnd(commitEvery: String?) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let file = try directory.write("history.jsonl", Self.lines(1...3))
        let options = commitEvery.map { ["--commit-every", $0] } ?? []
        let result = try await ToolRunner.run(["import", file, "--log", log, "--from-line", "4"] + options)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "replay: \(file) has 3 lines: there is no line 4 to start from\n")
        #expect(!FileManager.default.fileExists(atPath: log + "/data.mdb"))
        let last = try await ToolRunner.run(["import", file, "--log", log, "--from-line", "3"] + options)
        #expect(last.stdout == "appended revisions 1 to 1 (1) to \(log)\n", "\(last)")
        let zero = try await ToolRunner.run(["import", file, "--log", log, "--from-line", "0"])
        #expect(zero.status == 64 || zero.status == 2, "\(zero)")
        #expect(zero.stderr.contains("--from-line must be at least 1"), "\(zero)")
    }
}
