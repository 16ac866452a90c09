import ChangeLog
import ChangeLogTestSupport
import Foundation
import Testing

/// Imports that stop while appending: what they say they appended must be what the log holds,
/// and they must say where to resume, since retrying the whole input appends its prefix twice.
@Suite("replay import, stopped while appending")
struct ImportStoppedTests {
    /// `count` snapshot lines of `items` items each, no item shared between lines, so that
    /// every revision stores new chunks and the log grows by about the same bytes per line.
    static func distinctLines(_ count: Int, items: Int) -> String {
        (1...count).map { line in
            let list = (1...items).map { #"{"id": "line-\#(line)-item-\#($0)", "summary": "summary \#($0)"}"# }
            return #"{"sections": [{"title": "S", "items": [\#(list.joined(separator: ", "))]}]}"#
        }.joined(separator: "\n") + "\n"
    }

    @Test("an append refused midway (the file-size limit) names the revisions kept and the line to resume from")
    func appendFailsMidway() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("limited.lmdb")
        let file = try directory.write("big.jsonl", Self.distinctLines(60, items: 200))
        let result = try await ToolRunner.run(
            ["import", file, "--log", log, "--commit-every", "2"], fileSizeLimit: 256 << 10)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout == "")
        let kept = try ChangeLog(path: log, options: .init(createIfMissing: false, readOnly: true)).latestRevision
        try #require(kept >= 2 && kept < 60, "the limit must stop the import after some transactions: \(result)")
        let next = kept + 1
        #expect(result.stderr.hasPrefix("replay: \(file): appending line \(next) and the lines after it failed: "))
        #expect(
            result.stderr.hasSuffix(
                "; revisions 1 to \(kept) (\(kept)), from the lines before line \(next), were appended to \(log) and "
                    + "stay there (to finish, run: replay import \(file) --log \(log) --from-line \(next) "
                    + "--commit-every 2)\n"), "\(result)")
        #expect(try await ToolRunner.run(["verify", "--log", log]).status == 0)
    }

    /// Exit status 74 alone read as a failed import, though every line was appended.
    @Test("an import whose report cannot be written says on standard error what it appended")
    func reportToFullDisk() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let file = try directory.write("history.jsonl", Fixtures.history)
        let result = try await StreamFailureTests.shell("\"$REPLAY\" import '\(file)' --log '\(log)' > /dev/full")
        #expect(result.status == 74)
        #expect(
            result.stderr
                == "replay: appended revisions 1 to 3 (3) to \(log); this report could not be written to standard "
                + "output\nreplay: cannot write to standard output: No space left on device\n")
        #expect(try ChangeLog(path: log, options: .init(createIfMissing: false, readOnly: true)).latestRevision == 3)
    }

    @Test("an append refused in the import's one transaction says that nothing was appended")
    func oneTransactionFails() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("limited.lmdb")
        let result = try await ToolRunner.run(
            ["import", "-", "--log", log], input: Self.distinctLines(60, items: 200), fileSizeLimit: 256 << 10)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("replay: standard input: appending line 1 and the lines after it failed: "))
        #expect(result.stderr.hasSuffix("; nothing was appended\n"), "\(result)")
        #expect(try ChangeLog(path: log, options: .init(createIfMissing: false, readOnly: true)).latestRevision == 0)
    }
}

/// `replay import` interrupted by SIGINT or SIGTERM while it appends.
@Suite("replay import, interrupted")
struct ImportInterruptedTests {
    @Test(
        "a signal while appending stops before the next transaction and names what was appended",
        arguments: [SIGINT, SIGTERM])
    func signalWhileAppending(signal: Int32) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        // One durable transaction per line, far more lines than are appended before the signal.
        let file = try directory.write(
            "many.jsonl",
            String(repeating: #"{"sections": [{"title": "A", "items": [{"id": "a"}]}]}"# + "\n", count: 100_000))
        let running = try ToolRunner.start(["import", file, "--log", log, "--commit-every", "1"])
        let errorData = ReadAll(running.stderr.fileHandleForReading)
        let outputData = ReadAll(running.stdout.fileHandleForReading)
        // Wait for the first revision: the import is then appending.
        while (try? ChangeLog(path: log, options: .init(createIfMissing: false, readOnly: true)).latestRevision) ?? 0
            == 0
        {
            try #require(running.process.isRunning, "the import ended before it appended")
            try await Task.sleep(nanoseconds: UInt64(2_000) * 1_000)
        }
        kill(running.process.processIdentifier, signal)
        let stderr = String(decoding: await errorData.wait(), as: UTF8.self)
        let stdout = String(decoding: await outputData.wait(), as: UTF8.self)
        await running.process.exited()
        #expect(running.process.terminationReason == .uncaughtSignal, "\(stderr)")
        #expect(running.process.terminationStatus == signal)
        #expect(stdout == "")
        let kept = try ChangeLog(path: log, options: .init(createIfMissing: false, readOnly: true)).latestRevision
        try #require(kept >= 1 && kept < 100_000)
        let next = kept + 1
        #expect(
            stderr.hasSuffix(
                "replay: \(file): interrupted before line \(next); revisions 1 to \(kept) (\(kept)), from the lines "
                    + "before line \(next), were appended to \(log) and stay there (to finish, run: replay import "
                    + "\(file) --log \(log) --from-line \(next) --commit-every 1)\n"), "\(stderr)")
        #expect(try await ToolRunner.run(["verify", "--log", log]).status == 0)
    }

    @Test("a signal while the one transaction is prepared abandons it: nothing is appended")
    func signalWhilePreparing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        // Every line replaces all 300 items: preparing the transaction takes seconds (about 15 in a
        // debug build), far longer than a busy test process may take to notice the log.
        let file = try directory.write("lines.jsonl", ImportStoppedTests.distinctLines(4_500, items: 300))
        let running = try ToolRunner.start(["import", file, "--log", log])
        let errorData = ReadAll(running.stderr.fileHandleForReading)
        let outputData = ReadAll(running.stdout.fileHandleForReading)
        // The log is created once every line is checked, right before the transaction; preparing
        // it takes seconds, so a signal a tenth of a second later lands in it.
        // The watch runs on a thread of its own: a busy cooperative pool cannot hold it back
        // until the transaction is written.
        let process = running.process
        let signalled = await offThePool { () -> String? in
            while !FileManager.default.fileExists(atPath: log + "/data.mdb") {
                guard process.isRunning else { return "the import ended before it created the log" }
                usleep(2_000)
            }
            usleep(100_000)
            guard process.isRunning else { return "the import ended before the signal" }
            kill(process.processIdentifier, SIGINT)
            return nil
        }
        try #require(signalled == nil, "\(signalled ?? "")")
        let stderr = String(decoding: await errorData.wait(), as: UTF8.self)
        let stdout = String(decoding: await outputData.wait(), as: UTF8.self)
        await running.process.exited()
        #expect(running.process.terminationReason == .uncaughtSignal, "\(stderr)")
        #expect(running.process.terminationStatus == SIGINT)
        #expect(stdout == "")
        #expect(stderr.hasSuffix("replay: \(file): interrupted before line 1; nothing was appended\n"), "\(stderr)")
        #expect(try ChangeLog(path: log, options: .init(createIfMissing: false, readOnly: true)).latestRevision == 0)
    }
}
