import ChangeLog
import Foundation
import Testing

/// The tool as a newcomer meets it: `play`, `log -n`, the numbers of
/// `stats`, where a new log may go, and the demo's suggested next commands.
@Suite("Everyday use of the tool")
struct EverydayUseTests {
    @Test("play replays; replay replay is an unknown command, and the help shows play")
    func playAndNoAlias() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        for renderer in ["strict", "text", "jsonl"] {
            let play = try await ToolRunner.run(["play", "--log", log, "--into", renderer])
            #expect(play.status == 0, "\(play)")
        }
        #expect(
            try await ToolRunner.run(["play", "--log", log]).stdout
                == "replayed revisions 1 to 3 into the strict renderer: 3 batches accepted\n")
        let help = try await ToolRunner.run(["--help"]).stdout
        #expect(help.contains("\n  play "), "\(help)")
        #expect(!help.contains("\n  replay "), "\(help)")
        #expect(
            try await ToolRunner.run(["play", "--help"]).stdout.contains("replay play --log app.lmdb --into strict"))
        let former = try await ToolRunner.run(["replay", "--log", log])
        #expect(former.status == 64 && former.stdout == "", "\(former)")
        #expect(
            former.stderr.hasPrefix("replay: unknown command 'replay' (did you mean 'play'?); the commands are demo, "),
            "\(former)")
        let mistyped = try await ToolRunner.run(["paly"])
        #expect(mistyped.status == 64)
        #expect(
            mistyped.stderr
                == "replay: unknown command 'paly' (did you mean 'play'?); the commands are demo, import, export, "
                + "copy, diff, log, show, history, verify, play, reduce, tail, logs, stats, serve, view (see 'replay "
                + "--help')\n")
    }

    @Test("log -n N lists the newest N revisions of the range, as git log -n does")
    func logCount() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.growing(6)).status == 0)
        func revisions(_ arguments: [String]) async throws -> [String] {
            let result = try await ToolRunner.run(["log", "--log", log] + arguments)
            #expect(result.status == 0 && result.stderr == "", "\(result)")
            return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        }
        #expect(try await revisions(["-n", "2"]) == ["6", "5"])
        #expect(try await revisions(["--max-count", "3"]) == ["6", "5", "4"])
        #expect(try await revisions(["-n", "2", "--to", "3"]) == ["3", "2"])
        #expect(try await revisions(["-n", "5", "--from", "4"]) == ["6", "5", "4"])
        #expect(try await revisions(["-n", "100"]) == ["6", "5", "4", "3", "2", "1"])
        #expect(try await revisions(["-n", "0"]) == [])
        let full = try await ToolRunner.run(["log", "--log", log]).stdout
        #expect(try await ToolRunner.run(["log", "--log", log, "-n", "1"]).stdout == full.prefix { $0 != "\n" } + "\n")
        for count in ["-1", "-5"] {
            let negative = try await ToolRunner.run(["log", "--log", log, "-n", count])
            #expect(negative.status == 64)
            #expect(negative.stderr == "replay: -n takes a number that is not negative, not \(count)\n")
        }
    }

    @Test("stats groups digits in threes and counts in the singular for one")
    func statsNumbers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let items = (1...1_234).map { #"{"id": "\#($0)"}"# }.joined(separator: ",")
        let input =
            #"{"sections": [{"title": "Many", "items": [{"id": "only"}]}]}"# + "\n"
            + #"{"sections": [{"title": "Many", "items": [\#(items)]}]}"# + "\n"
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: input).status == 0)
        let stats = try await ToolRunner.run(["stats", "--log", log])
        #expect(stats.status == 0, "\(stats)")
        let lines = stats.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("largest        revision 2: 1,234 items in 1 section"), "\(stats)")
        #expect(lines.contains("operations     sections +1 -0 ~0 *0  items +1,234 -1 ~0 *0"), "\(stats)")
        #expect(lines.contains { $0.wholeMatch(of: /per revision   \d{1,3}(,\d{3})* bytes?/) != nil }, "\(stats)")

        let small = directory.path("small.lmdb")
        let one = #"{"sections": [{"title": "One", "items": [{"id": "only"}]}]}"# + "\n"
        #expect(try await ToolRunner.run(["import", "-", "--log", small], input: one).status == 0)
        let smallStats = try await ToolRunner.run(["stats", "--log", small]).stdout
        #expect(smallStats.contains("\nlargest        revision 1: 1 item in 1 section\n"), "\(smallStats)")
        #expect(smallStats.contains("\nrevisions      1 (1 to 1)\n"), "\(smallStats)")
    }

    @Test(
        "import and demo refuse to create a log in a directory that holds other files, naming a few",
        arguments: [["import", "-"], ["demo", "--revisions", "2"]])
    func crowdedDirectory(command: [String]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let crowded = directory.path("project")
        try FileManager.default.createDirectory(atPath: crowded, withIntermediateDirectories: false)
        for name in ["notes.txt", "a b.json", "Package.swift", "z"] {
            #expect(FileManager.default.createFile(atPath: crowded + "/" + name, contents: Data("x".utf8)))
        }
        let input = #"{"sections": []}"# + "\n"
        let refused = try await ToolRunner.run(command + ["--log", crowded], input: input)
        #expect(refused.status == 2, "\(refused)")
        #expect(
            refused.stderr
                == "replay: \(crowded) holds other files (Package.swift, \"a b.json\", notes.txt and 1 more) and no "
                + "log: a new log needs a directory of its own, or its files would be mixed in with them; pass a "
                + "subdirectory, such as --log \(crowded)/replay.lmdb\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: crowded).count == 4, "nothing created")
        // The subdirectory it suggests works, and so does a directory that is empty.
        #expect(try await ToolRunner.run(command + ["--log", crowded + "/replay.lmdb"], input: input).status == 0)
        let empty = directory.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        #expect(try await ToolRunner.run(command + ["--log", empty], input: input).status == 0)
        // A log's own directory takes more, whatever else it holds.
        #expect(FileManager.default.createFile(atPath: empty + "/README", contents: Data("x".utf8)))
        let again = try await ToolRunner.run(command + ["--log", empty], input: input)
        #expect(again.status == 0, "\(again)")
        let two = directory.path("two")
        try FileManager.default.createDirectory(atPath: two, withIntermediateDirectories: false)
        for name in ["b", "a"] {
            #expect(FileManager.default.createFile(atPath: two + "/" + name, contents: Data()))
        }
        let named = try await ToolRunner.run(command + ["--log", two], input: input)
        #expect(named.stderr.hasPrefix("replay: \(two) holds other files (a, b) and no log:"), "\(named)")
    }

    @Test("the demo explains its counts, and its next commands work as printed from another directory")
    func demoNextSteps() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let start = directory.path("start")
        let elsewhere = directory.path("elsewhere")
        for path in [start, elsewhere] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        // Off the PATH, as after `scripts/demo.sh`; the log given relative to where the demo ran.
        let offPath = ["PATH": "/usr/bin:/bin"]
        let demo = try await ToolRunner.run(
            ["demo", "--log", "my log.lmdb", "--revisions", "20"], environment: offPath,
            directory: URL(fileURLWithPath: start))
        #expect(demo.status == 0, "\(demo)")
        let lines = demo.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("    (added up over these revisions: + inserted, - deleted, ~ moved, * updated)"))
        let log = start + "/my log.lmdb"
        #expect(lines.contains("The log is at \(log). Next, try:"), "\(demo)")
        let suggested = lines.drop { !$0.hasSuffix("Next, try:") }.dropFirst().prefix { $0.hasPrefix("  ") }
            .map { String($0.dropFirst(2)) }
        #expect(suggested.count == 5, "\(demo)")
        // The tool by an absolute path to this very binary (SwiftPM's shorter link to it, say).
        let tool = String(suggested.first?.prefix { $0 != " " } ?? "")
        #expect(tool.hasPrefix("/") && Self.sameFile(tool, ToolRunner.binary.path), "\(demo)")
        #expect(suggested.allSatisfy { $0.hasPrefix(tool + " ") && $0.contains("--log '\(log)'") }, "\(demo)")
        let toolDirectory = URL(fileURLWithPath: tool).deletingLastPathComponent().path
        #expect(lines.contains("  export PATH=\(toolDirectory):\"$PATH\""), "\(demo)")
        for command in suggested where !command.hasSuffix("--follow") {
            let run = try await ToolRunner.run(
                ["-c", command], environment: offPath, directory: URL(fileURLWithPath: elsewhere),
                launcher: ["/bin/sh"])
            #expect(run.status == 0 && run.stderr == "", "\(command): \(run)")
        }
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/history.jsonl"))

        // With the tool on the PATH, the commands call it replay and need no advice.
        let onPath = ["PATH": ToolRunner.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"]
        let second = try await ToolRunner.run(
            ["demo", "--log", log, "--revisions", "3", "--seed", "3"], environment: onPath)
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("\n  replay log -n 10 --log '\(log)'\n"), "\(second)")
        #expect(!second.stdout.contains("export PATH"))
        let run = try await ToolRunner.run(
            ["-c", "replay log -n 10 --log '\(log)'"], environment: onPath, directory: URL(fileURLWithPath: elsewhere),
            launcher: ["/bin/sh"])
        #expect(run.status == 0 && run.stdout.split(separator: "\n").count == 10, "\(run)")

        // Another replay found first on the PATH would run instead: the commands name the path.
        let shadow = directory.path("shadow")
        try FileManager.default.createDirectory(atPath: shadow, withIntermediateDirectories: false)
        #expect(
            FileManager.default.createFile(
                atPath: shadow + "/replay", contents: Data("#!/bin/sh\nexit 3\n".utf8),
                attributes: [.posixPermissions: 0o755]))
        let shadowed = ["PATH": shadow + ":" + (onPath["PATH"] ?? "")]
        let third = try await ToolRunner.run(
            ["demo", "--log", log, "--revisions", "1", "--seed", "4"], environment: shadowed)
        #expect(third.status == 0, "\(third)")
        #expect(third.stdout.contains("\n  \(tool) log -n 10 --log '\(log)'\n"), "\(third)")
        #expect(third.stdout.contains("\n  export PATH="), "\(third)")
    }

    /// Whether `a` and `b` are the same existing file.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        let manager = FileManager.default
        guard let first = try? manager.attributesOfItem(atPath: a),
            let second = try? manager.attributesOfItem(atPath: b)
        else { return false }
        return first[.systemFileNumber] as? NSNumber == second[.systemFileNumber] as? NSNumber
            && first[.systemNumber] as? NSNumber == second[.systemNumber] as? NSNumber
    }
}
