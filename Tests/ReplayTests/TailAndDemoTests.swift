import ChangeLog
import ChangeLogTestSupport
import Foundation
import Testing

@Suite("replay tail and demo")
struct TailAndDemoTests {
    @Test("tail prints revisions from R; --json prints revision lines")
    func tail() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["tail", "--log", log, "--from", "2"])
        #expect(result.status == 0, "\(result)")
        #expect(
            maskingTimes(result.stdout) == """
                2  <time>  commit=c2  sections +1 -0 ~0 *0  items +0 -0 ~1 *1
                3  <time>  sections +0 -1 ~0 *0  items +1 -0 ~0 *0

                """)
        let json = try await ToolRunner.run(["tail", "--log", log, "--from", "3", "--json"])
        #expect(json.stdout.hasPrefix(#"{"revision":3,"#))
        let beyond = try await ToolRunner.run(["tail", "--log", log, "--from", "4"])
        #expect(beyond.status == 2)
        #expect(beyond.stderr == "replay: revision 4 is out of range: the log at \(log) holds revisions 1 to 3\n")
    }

    @Test("tail --follow sees every revision another process imports, once and in order", .timeLimit(.minutes(10)))
    func follow() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("shared.lmdb")
        let total = 40
        let lines = Fixtures.growing(total).split(separator: "\n").map(String.init)
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: lines[0] + "\n").status == 0)

        let follower = try ToolRunner.start(["tail", "--log", log, "--from", "1", "--follow"])
        let rest = try directory.write("rest.jsonl", lines.dropFirst().joined(separator: "\n") + "\n")
        let importer = try await ToolRunner.run(["import", rest, "--log", log, "--commit-every", "1"])
        #expect(importer.status == 0, "\(importer)")

        // Read the follower's lines until every revision arrived (or a generous deadline passed).
        var seen: [Int] = []
        var buffer = Data()
        let handle = follower.stdout.fileHandleForReading
        let deadline = Date().addingTimeInterval(300)
        while seen.count < total, Date() < deadline {
            let chunk = await handle.nextChunkOffThePool()
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if let revision = Int(line.prefix { $0 != " " }) { seen.append(revision) }
            }
        }
        follower.process.interrupt()
        await follower.process.exited()
        #expect(seen == Array(1...total))
    }

    @Test(
        "tail --follow from beyond the next revision says what it waits for, then prints it",
        .timeLimit(.minutes(10)))
    func followFromTheFuture() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("future.lmdb")
        let lines = Fixtures.growing(3).split(separator: "\n").map(String.init)
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: "\n").status == 0)

        /// Starts a follower from `revision`, and reads standard error up to its first line.
        func follow(from revision: Int) async throws -> (ToolRunner.Running, notice: String) {
            let follower = try startFollower(
                ["tail", "--log", log, "--from", "\(revision)", "--follow"], stoppedAfter: 120)
            return (follower, await firstLine(of: follower.stderr))
        }

        let (early, emptyNotice) = try await follow(from: 2)
        early.process.interrupt()
        await early.process.exited()
        #expect(emptyNotice == "replay: waiting for revision 2; \(log) is empty\n")

        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: lines[0] + "\n").status == 0)
        let (follower, notice) = try await follow(from: 3)
        #expect(notice == "replay: waiting for revision 3; the latest revision of \(log) is 1\n")
        let rest = lines.dropFirst().joined(separator: "\n") + "\n"
        #expect(
            try await ToolRunner.run(["import", "-", "--log", log, "--commit-every", "1"], input: rest).status == 0)
        let printed = await firstLine(of: follower.stdout)
        follower.process.interrupt()
        await follower.process.exited()
        #expect(printed.hasPrefix("3 "))
    }

    @Test(
        "tail --follow stops with status 2 when the log it follows is deleted, or deleted and created again",
        .timeLimit(.minutes(10)), arguments: [false, true])
    func followDeletedLog(recreated: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("doomed.lmdb")
        let lines = Fixtures.growing(2).split(separator: "\n").map(String.init)
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: lines[0] + "\n").status == 0)
        let follower = try startFollower(["tail", "--log", log, "--follow"])
        #expect(await firstLine(of: follower.stdout).hasPrefix("1 "))
        let errors = ReadAll(follower.stderr.fileHandleForReading)
        try FileManager.default.removeItem(atPath: log)
        if recreated {
            // The new log's revision 1 and 2 never reach the follower of the old file.
            #expect(
                try await ToolRunner.run(["import", "-", "--log", log], input: lines.joined(separator: "\n")).status
                    == 0)
        }
        await expectStoppedAsReplaced(follower, errors: errors, path: log)
    }

    @Test("tail --follow of a symbolic link stops with status 2 when the link is pointed at another log")
    func followRepointedLink() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let lines = Fixtures.growing(2).split(separator: "\n").map(String.init)
        let old = directory.path("old.lmdb")
        let new = directory.path("new.lmdb")
        let link = directory.path("current.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", old], input: lines[0] + "\n").status == 0)
        #expect(
            try await ToolRunner.run(["import", "-", "--log", new], input: lines.joined(separator: "\n")).status == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: old)
        let follower = try startFollower(["tail", "--log", link, "--follow"])
        #expect(await firstLine(of: follower.stdout).hasPrefix("1 "))
        let errors = ReadAll(follower.stderr.fileHandleForReading)
        // `ln -sfn new.lmdb current.lmdb`: old.lmdb stays where it was, but the log at the path
        // the follower was given is another one now.
        let staging = directory.path("staging.lmdb")
        try FileManager.default.createSymbolicLink(atPath: staging, withDestinationPath: new)
        #expect(rename(staging, link) == 0)
        await expectStoppedAsReplaced(follower, errors: errors, path: link)
    }

    /// Cut to 0 or to one page, the file no longer holds the meta pages that beginning a
    /// transaction reads (`SIGBUS` in LMDB); zeroed, they failed LMDB's assertion `root > 1`.
    @Test(
        "tail --follow stops with status 2, and reading commands refuse the log, once its data file is cut short",
        arguments: ["cut to 20,000 bytes", "cut to 0", "cut to 1 page", "meta pages zeroed"])
    func truncatedLog(damage: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        #expect(try await ToolRunner.run(["demo", "--log", log, "--revisions", "50"]).status == 0)
        let follower = try startFollower(["tail", "--log", log, "--follow", "--from", "50"])
        #expect(await firstLine(of: follower.stdout).hasPrefix("50 "))
        let errors = ReadAll(follower.stderr.fileHandleForReading)
        // A partial copy: LMDB would read its pages past the file's end and die of SIGBUS.
        switch damage {
        case "cut to 20,000 bytes": #expect(truncate(log + "/data.mdb", 20_000) == 0)
        case "cut to 0": #expect(truncate(log + "/data.mdb", 0) == 0)
        // LMDB's pages are the system's.
        case "cut to 1 page": #expect(truncate(log + "/data.mdb", off_t(sysconf(Int32(_SC_PAGESIZE)))) == 0)
        default:
            let descriptor = open(log + "/data.mdb", O_WRONLY)
            #expect(descriptor >= 0)
            let zeros = [UInt8](repeating: 0, count: 2 * sysconf(Int32(_SC_PAGESIZE)))
            #expect(pwrite(descriptor, zeros, zeros.count, 0) == zeros.count)
            close(descriptor)
        }
        await follower.process.exited()
        #expect(follower.process.terminationReason == .exit)
        #expect(follower.process.terminationStatus == 2)
        #expect(
            String(decoding: await errors.wait(), as: UTF8.self).hasPrefix(
                "replay: LMDB failed while reading the log at \(log): its data file is damaged, or was cut short "
                    + "behind its back; restore the log from a backup"))
        // The reading commands' refusal of a file whose header names pages past its end.
        guard damage == "cut to 20,000 bytes" else { return }
        for command in [
            ["verify"], ["export"], ["log"], ["show", "50"], ["play"], ["stats"], ["tail", "--from", "1"],
        ] {
            let run = try await ToolRunner.run(command + ["--log", log])
            #expect(run.status == 2, "\(command): \(run)")
            #expect(
                run.stderr.hasPrefix(
                    "replay: cannot open the log at \(log): its data file is damaged, or shorter than the pages its "
                        + "header says are in use"), "\(command): \(run)")
        }
    }

    /// Starts `replay` with `arguments`, and terminates it after `seconds` if it still runs: a
    /// hang guard, not a time limit. A follower that never writes or stops would block the reads
    /// of a test forever; stopped, it closes its pipes, the reads end and the expectations fail.
    private func startFollower(_ arguments: [String], stoppedAfter seconds: Double = 300) throws -> ToolRunner.Running {
        let follower = try ToolRunner.start(arguments)
        let process = follower.process
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            if process.isRunning { process.terminate() }
        }
        return follower
    }

    /// Waits for `follower` to exit, and expects it to have stopped because the log it followed
    /// at `path` was deleted or replaced; `errors` reads its standard error.
    private func expectStoppedAsReplaced(_ follower: ToolRunner.Running, errors: ReadAll, path: String) async {
        await follower.process.exited()
        #expect(follower.process.terminationStatus == 2)
        #expect(
            String(decoding: await errors.wait(), as: UTF8.self)
                == "replay: the log at \(path) was deleted or replaced while it was followed; run tail again to follow "
                + "the log there now\n")
    }

    /// What `pipe` delivers up to and including its first line break, or up to its end.
    private func firstLine(of pipe: Pipe) async -> String {
        let handle = pipe.fileHandleForReading
        return await offThePool {
            var data = Data()
            while !data.contains(UInt8(ascii: "\n")) {
                let chunk = handle.nextChunk()
                if chunk.isEmpty { break }
                data.append(chunk)
            }
            return String(decoding: data, as: UTF8.self)
        }
    }

    @Test("demo records, verifies and replays a few hundred revisions")
    func demo() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("demo.lmdb")
        let result = try await ToolRunner.run(["demo", "--log", log])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Recorded a simulated chat inbox: ") == true)
        #expect(lines.contains { $0.hasPrefix("Verified revisions 1 to ") })
        #expect(lines.contains { $0.hasPrefix("Replayed ") && $0.hasSuffix("all accepted.") })
        #expect(lines.contains("The log is at \(log). Next, try:"))
        let opened = try ChangeLog(path: log, options: .init(createIfMissing: false))
        let latest = try opened.latestRevision
        #expect(latest >= 200)
        // The demo's log verifies with the tool as well, and its history has every kind of change.
        #expect(try await ToolRunner.run(["verify", "--log", log]).status == 0)
        let stats = try await ToolRunner.run(["stats", "--log", log])
        let operations = stats.stdout.split(separator: "\n").first { $0.hasPrefix("operations") }.map(String.init) ?? ""
        let counts = operations.matches(of: /[-+~*](\d+)/).map { Int($0.output.1)! }
        // sections +inserted -deleted ~moved *updated, items +inserted -deleted ~moved *updated
        #expect(counts.count == 8, "\(operations)")
        if counts.count == 8 {
            #expect(counts[0] > 0 && counts[1] > 0, "sections come and go: \(operations)")
            #expect(counts[4] > 0 && counts[5] > 0 && counts[6] > 0 && counts[7] > 0, "\(operations)")
        }
    }

    @Test("demo with a single revision, and a second demo appending to the same log")
    func smallDemo() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("small.lmdb")
        let first = try await ToolRunner.run(["demo", "--log", log, "--revisions", "1"])
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.hasPrefix("Recorded a simulated chat inbox: 1 revisions (1 to 1)"))
        let second = try await ToolRunner.run(["demo", "--log", log, "--revisions", "5", "--seed", "7"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.hasPrefix("Recorded a simulated chat inbox: 5 revisions (2 to 6)"))
        #expect(second.stdout.contains("Verified revisions 1 to 6"))
    }

    /// Each demo reports the revisions it appended, not every revision after the ones it found.
    @Test("two demos recording into one log at once each report their own revisions, and the log verifies")
    func concurrentDemos() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("shared.lmdb")
        #expect(try await ToolRunner.run(["demo", "--log", log, "--revisions", "1"]).status == 0)
        let result = try await StreamFailureTests.shell(
            """
            "$REPLAY" demo --log '\(log)' --revisions 300 --seed 1 > '\(directory.path("one"))' &
            one=$!
            "$REPLAY" demo --log '\(log)' --revisions 300 --seed 2 > '\(directory.path("two"))' || exit 1
            wait $one || exit 2
            """)
        #expect(result.status == 0, "\(result)")
        for name in ["one", "two"] {
            let output = try String(contentsOfFile: directory.path(name), encoding: .utf8)
            #expect(output.hasPrefix("Recorded a simulated chat inbox: 300 revisions ("), "\(name): \(output)")
        }
        let verified = try await ToolRunner.run(["verify", "--log", log])
        #expect(verified.stdout == "verified revisions 1 to 601 (601): ok\n", "\(verified)")
    }

    @Test("demo refuses a log it did not record, and leaves it as it was")
    func demoRefusesOtherLogs() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("real.lmdb")
        let imported = try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.history)
        #expect(imported.status == 0, "\(imported)")
        let before = try await ToolRunner.run(["export", "--log", log])
        // Through --log, and through $REPLAY_LOG, which every command reads.
        for run in [
            try await ToolRunner.run(["demo", "--log", log, "--revisions", "3"]),
            try await ToolRunner.run(["demo", "--revisions", "3"], environment: ["REPLAY_LOG": log]),
        ] {
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.contains("holds revisions the demo did not record"), "\(run)")
            #expect(run.stdout == "")
        }
        #expect(try await ToolRunner.run(["export", "--log", log]).stdout == before.stdout)
    }

    @Test("--help documents exit codes and every command has an example; --version answers")
    func help() async throws {
        let root = try await ToolRunner.run(["--help"])
        #expect(root.status == 0)
        #expect(root.stdout.contains("Exit codes: 0 success; 1"))
        for command in ["demo", "import", "export", "diff", "log", "show", "verify", "play", "tail", "stats"] {
            let help = try await ToolRunner.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("Example"), "\(command) --help has no example")
        }
        let version = try await ToolRunner.run(["--version"])
        #expect(version.stdout == "0.1.0\n")
    }

    @Test(
        "help for a command that does not exist is a usage error naming it",
        arguments: [["foo", "--help"], ["help", "foo"], ["foo", "--version"]])
    func helpForUnknownCommand(arguments: [String]) async throws {
        let run = try await ToolRunner.run(arguments)
        #expect(run.status == 64, "\(run)")
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("replay: unknown command 'foo'; the commands are demo, import, export"), "\(run)")
        #expect(try await ToolRunner.run(["help", "show"]).stdout.contains("USAGE: replay show"))
    }

    @Test(
        "a mistyped command is named, with the command meant when it is close",
        arguments: [
            (["verfy", "--log", "x"], "replay: unknown command 'verfy' (did you mean 'verify'?); the commands are "),
            (["help", "exprot"], "replay: unknown command 'exprot' (did you mean 'export'?); the commands are "),
            (["foo"], "replay: unknown command 'foo'; the commands are demo, import, export, copy, diff, log, show, "),
        ])
    func mistypedCommand(arguments: [String], message: String) async throws {
        let run = try await ToolRunner.run(arguments)
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.hasPrefix(message), "\(run)")
    }

    @Test("a negative revision given to show is named, not called missing")
    func negativeRevision() async throws {
        for arguments in [["show", "-1", "--log", "x"], ["show", "--log", "x", "-20"]] {
            let run = try await ToolRunner.run(arguments)
            #expect(run.status == 64, "\(run)")
            #expect(run.stderr == "replay: revisions count from 1, not \(arguments.last == "-20" ? "-20" : "-1")\n")
        }
    }
}
