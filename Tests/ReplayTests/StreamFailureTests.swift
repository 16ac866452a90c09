import ChangeLogTestSupport
import Foundation
import Testing

/// What `replay` does when its standard streams fail: a full disk behind standard output, a
/// closed or unreadable standard input, a full standard error. It reports the failure and
/// exits with its documented status; it neither traps nor exits 0 having written nothing.
@Suite("replay with failing standard streams")
struct StreamFailureTests {
    /// Runs `script` with `/bin/sh`, `$REPLAY` being the built tool.
    static func shell(_ script: String) async throws -> ToolRunner.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "REPLAY_LOG")
        environment["REPLAY"] = ToolRunner.binary.path
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = await errors.fileHandleForReading.readToEndOffThePool()
        await process.exited()
        return ToolRunner.Result(
            status: process.terminationStatus, stdout: "", stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test(
        "output to a full disk is reported with exit status 74",
        arguments: [["export"], ["log"], ["show", "2"], ["show", "2", "--json"], ["stats"], ["verify"], ["tail"]])
    func fullDisk(command: [String]) async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let arguments = (command + ["--log", log]).map { "'\($0)'" }.joined(separator: " ")
        let result = try await Self.shell("\"$REPLAY\" \(arguments) > /dev/full")
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr == "replay: cannot write to standard output: No space left on device\n")
    }

    @Test("an error message to a full standard error still exits with the error's status")
    func fullStandardError() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let result = try await Self.shell("\"$REPLAY\" show 0 --log '\(log)' 2> /dev/full")
        #expect(result.status == 2, "\(result)")
    }

    @Test(
        "an unreadable standard input is bad input, named",
        arguments: [("<&-", "it was closed when replay started\n"), ("< /", "Is a directory\n")])
    func unreadableInput(redirection: String, reason: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for command in ["import - --log '\(directory.path("new.lmdb"))'", "diff - /dev/null"] {
            let result = try await Self.shell("\"$REPLAY\" \(command) \(redirection)")
            #expect(result.status == 2, "\(command): \(result)")
            #expect(
                result.stderr.hasPrefix("replay: standard input cannot be read: \(reason)"), "\(command): \(result)")
            #expect(result.stderr.hasSuffix("\n") && result.stderr.split(separator: "\n").count == 1)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("new.lmdb") + "/data.mdb"))
    }

    /// A closed standard stream's number would be handed to the next descriptor the process
    /// opens (an LMDB file, or the Swift runtime's event descriptor), and what the tool prints
    /// would go there. It is taken before `main`, and using it fails as on a closed one.
    @Test(
        "a closed standard output is reported with exit status 74, and the log is left as it was",
        arguments: [["export"], ["log"], ["show", "2"], ["show", "2", "--json"], ["stats"], ["verify"], ["tail"]])
    func closedOutput(command: [String]) async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: log + "/data.mdb"))
        let arguments = (command + ["--log", log]).map { "'\($0)'" }.joined(separator: " ")
        let result = try await Self.shell("\"$REPLAY\" \(arguments) >&-")
        #expect(result.status == 74, "\(command): \(result)")
        #expect(result.stderr == "replay: cannot write to standard output: it was closed when replay started\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log + "/data.mdb")) == before)
        #expect(try await ToolRunner.run(["verify", "--log", log]).status == 0)
    }

    #if os(Linux)
        /// Which descriptor takes a closed number first depends on the runtime's threads, so
        /// what the tool writes does not show it; the descriptor table does.
        @Test("a standard output closed at start holds /dev/null while the tool runs")
        func closedOutputIsTaken() async throws {
            let (directory, log) = try await ReadingCommandTests.makeLog()
            defer { directory.remove() }
            let errors = directory.path("errors")
            let target = directory.path("target")
            // `tail --follow` from beyond the end waits, and says so on standard error first.
            let result = try await Self.shell(
                """
                "$REPLAY" tail --follow --from 1000 --log '\(log)' >&- 2> '\(errors)' &
                tool=$!
                tries=0
                until grep -q waiting '\(errors)' 2> /dev/null || [ $tries -ge 1000 ]; do
                    tries=$((tries + 1)); sleep 0.01
                done
                readlink /proc/$tool/fd/1 > '\(target)'
                kill $tool; wait $tool
                """)
            let notice = try String(contentsOfFile: errors, encoding: .utf8)
            #expect(notice.contains("waiting for revision 1000"), "\(result)")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "/dev/null\n", "\(result)")
        }
    #endif

    /// Here the runtime's own descriptors take the closed numbers before the log's files do; the
    /// test shows that the import itself is unaffected.
    @Test("an import with all three standard streams closed appends every line and keeps the log intact")
    func importWithStreamsClosed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("closed.lmdb")
        let input = try directory.write("input.jsonl", Fixtures.growing(40))
        // The import succeeds; only its closing line cannot be written.
        let result = try await Self.shell("\"$REPLAY\" import '\(input)' --log '\(log)' 0<&- 1>&- 2>&-")
        #expect(result.status == 74, "\(result)")
        let verified = try await ToolRunner.run(["verify", "--log", log])
        #expect(verified.status == 0, "\(verified)")
        #expect(verified.stdout == "verified revisions 1 to 40 (40): ok\n")
    }

    /// With SIGPIPE at its default the tool simply ends, as any tool in a pipeline does; here
    /// SIGPIPE is ignored (a parent such as this test runner may ignore it for its children).
    @Test("a reader that closes the pipe early is reported when SIGPIPE is ignored")
    func closedPipe() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        // About 2 MB of export, more than the pipe and the tool's buffer hold.
        let grown = try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.growing(300))
        #expect(grown.status == 0, "\(grown)")
        let status = directory.path("status")
        let result = try await Self.shell(
            "trap '' PIPE; { \"$REPLAY\" export --log '\(log)'; echo $? > '\(status)'; } | head -c 10 > /dev/null")
        #expect(result.stderr == "replay: cannot write to standard output: Broken pipe\n", "\(result)")
        #expect(try String(contentsOfFile: status, encoding: .utf8) == "74\n")
    }

    @Test(
        "an error follows the lines written before it when both streams go to one file",
        arguments: [["export"], ["play", "--into", "jsonl"]])
    func errorAfterOutput(command: [String]) async throws {
        let (directory, log) = try await Tampering.damagedLog(revisions: 6, damaged: 4)
        defer { directory.remove() }
        let output = directory.path("output")
        let arguments = (command + ["--log", log]).map { "'\($0)'" }.joined(separator: " ")
        let result = try await Self.shell("\"$REPLAY\" \(arguments) > '\(output)' 2>&1")
        #expect(result.status != 0, "\(command): \(result)")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 2, "\(command): \(lines)")
        #expect(lines.last?.hasPrefix("replay: ") == true, "\(command): \(lines)")
        #expect(lines.dropLast().allSatisfy { !$0.contains("replay: ") }, "\(command): \(lines)")
    }

    @Test(
        "an error after output to a full disk also says, once, that the output is incomplete",
        arguments: [["export"], ["play", "--into", "jsonl"]])
    func errorWithFullOutput(command: [String]) async throws {
        let (directory, log) = try await Tampering.damagedLog(revisions: 6, damaged: 4)
        defer { directory.remove() }
        let arguments = (command + ["--log", log]).map { "'\($0)'" }.joined(separator: " ")
        let result = try await Self.shell("\"$REPLAY\" \(arguments) > /dev/full")
        #expect(result.status != 0 && result.status != 74, "\(command): \(result)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(command): \(result)")
        #expect(lines.first?.contains("revision 4") == true, "\(command): \(result)")
        #expect(lines.dropFirst().first == "replay: cannot write to standard output: No space left on device")
    }

    @Test("--help and --version to a full disk exit 74 too", arguments: ["--help", "--version", "help"])
    func helpToFullDisk(argument: String) async throws {
        let result = try await Self.shell("\"$REPLAY\" \(argument) > /dev/full")
        #expect(result.status == 74, "\(argument): \(result)")
        #expect(result.stderr == "replay: cannot write to standard output: No space left on device\n")
        #expect(try await ToolRunner.run([argument]).status == 0)
    }

    /// The error comes while hundreds of kilobytes wait in the output buffer for a reader that
    /// has gone: flushing them first must not kill the tool (SIGPIPE) before it says why.
    @Test("an error still reaches standard error when the reader of standard output has gone")
    func errorAfterReaderLeft() async throws {
        let (directory, log) = try await Tampering.damagedLog(revisions: 300, damaged: 150)
        defer { directory.remove() }
        let status = directory.path("status")
        let errors = directory.path("errors")
        _ = try await Self.shell(
            "{ \"$REPLAY\" export --log '\(log)' 2> '\(errors)'; echo $? > '\(status)'; } | head -c 100 > /dev/null")
        #expect(try String(contentsOfFile: status, encoding: .utf8) == "2\n")
        #expect(try String(contentsOfFile: errors, encoding: .utf8).contains("revision 150"))
    }
}
