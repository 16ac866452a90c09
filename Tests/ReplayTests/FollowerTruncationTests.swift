import ChangeLog
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

/// `replay tail --follow` while its log's data file is cut short behind its back, at a random
/// moment of its reading and to a random length short of the pages in use: the follower stops
/// with status 2 and one line, never by a signal. A cut between two transactions is caught by
/// the length check each transaction begins with; a cut during one raises `SIGBUS` in LMDB's
/// read of the map, which the tool turns into its refusal (`DataFileFault`).
@Suite("replay tail --follow on a data file cut short while it reads")
struct FollowerTruncationTests {
    @Test("every follower whose data file is cut short stops with status 2 and one line, never a signal")
    func truncatedWhileFollowing() async throws {
        let trials = ProcessInfo.processInfo.environment["FOLLOW_TRUNCATIONS"].flatMap { Int($0) } ?? 20
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let base = directory.path("base")
        try #require(try await ToolRunner.run(["demo", "--log", base, "--revisions", "400"]).status == 0)
        let used = try ChangeLog(path: base, options: .init(readOnly: true)).bytesInUse
        let file = try #require(FileManager.default.contents(atPath: base + "/data.mdb"))
        var random = SplitMix64(seed: 2_026)
        var problems: [String] = []
        for trial in 0..<trials {
            let log = directory.path("copy-\(trial)")
            try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: false)
            try file.write(to: URL(fileURLWithPath: log + "/data.mdb"))
            let length = Int.random(in: 0..<used, using: &random)
            let delay = UInt32.random(in: 0..<5_000, using: &random)
            let follower = try ToolRunner.start(["tail", "--log", log, "--follow", "--from", "1"])
            try follower.stdin.fileHandleForWriting.close()
            let process = follower.process
            // A hang guard, not a time limit: a follower that never stops fails the test below.
            DispatchQueue.global().asyncAfter(deadline: .now() + 300) {
                if process.isRunning { process.terminate() }
            }
            let errors = ReadAll(follower.stderr.fileHandleForReading)
            // Cut while the follower prints the revisions it catches up on.
            _ = await follower.stdout.fileHandleForReading.nextChunkOffThePool()
            try await Task.sleep(nanoseconds: UInt64(delay) * 1_000)
            #expect(truncate(log + "/data.mdb", off_t(length)) == 0)
            let output = ReadAll(follower.stdout.fileHandleForReading)
            await process.exited()
            _ = await output.wait()
            let stderr = String(decoding: await errors.wait(), as: UTF8.self)
            let oneLine = stderr.hasPrefix("replay: ") && stderr.filter { $0 == "\n" }.count == 1
            if process.terminationReason != .exit || process.terminationStatus != 2 || !oneLine {
                let ended = process.terminationReason == .exit ? "exit" : "signal"
                problems.append(
                    "trial \(trial) (cut to \(length) bytes after \(delay) µs): \(ended) \(process.terminationStatus), "
                        + "stderr \(stderr.debugDescription)")
            }
            try FileManager.default.removeItem(atPath: log)
        }
        #expect(problems.isEmpty, "\(problems.count) of \(trials) followers:\n\(problems.joined(separator: "\n"))")
    }

    /// `export` blocks on its full output pipe in the middle of its reading; the cut comes then.
    /// Whether the next read is refused by a check (a transaction's length check, the bounds of a
    /// value lent) or faults in LMDB's map (`DataFileFault`) depends on where the export stood;
    /// either way it is one line that says the file was cut short.
    @Test("a data file cut short while export reads ends it with status 2 and one line, never a signal")
    func truncatedInsideTransaction() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("log")
        let lines = (0..<120).map { revision in
            let items = (0..<400).map {
                "{\"id\":\"r\(revision)-\($0)\",\"summary\":\"\(String(repeating: "x", count: 60))\"}"
            }
            return "{\"sections\":[{\"title\":\"s\",\"items\":[\(items.joined(separator: ","))]}]}"
        }
        let imported = try await ToolRunner.run(
            ["import", "-", "--log", log], input: lines.joined(separator: "\n") + "\n")
        try #require(imported.status == 0, "\(imported)")
        let export = try ToolRunner.start(["export", "--log", log])
        try export.stdin.fileHandleForWriting.close()
        let errors = ReadAll(export.stderr.fileHandleForReading)
        // The first output: the export is reading, and soon fills the pipe.
        _ = await export.stdout.fileHandleForReading.nextChunkOffThePool()
        #expect(truncate(log + "/data.mdb", 1 << 20) == 0)
        let output = ReadAll(export.stdout.fileHandleForReading)
        await export.process.exited()
        _ = await output.wait()
        #expect(export.process.terminationReason == .exit)
        #expect(export.process.terminationStatus == 2)
        let stderr = String(decoding: await errors.wait(), as: UTF8.self)
        #expect(stderr.hasPrefix("replay: ") && stderr.filter { $0 == "\n" }.count == 1, "\(stderr)")
        #expect(stderr.contains("was cut short"), "\(stderr)")
    }
}
