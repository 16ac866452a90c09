import ChangeLog
import ChangeLogFile
import ChangeLogTestSupport
import Foundation
import Testing

/// The reading commands on a log file (`--log file:PATH`): the same output as on the LMDB log
/// that holds the same revisions.
@Suite("replay on a log file")
struct FileLogCommandTests {
    /// An LMDB log imported from `Fixtures.history` and a log file holding the same revisions
    /// (times and annotations included), in a fresh temporary directory.
    static func makeLogs() async throws -> (TemporaryDirectory, lmdb: String, file: String) {
        let directory = try TemporaryDirectory()
        let lmdb = directory.path("app.lmdb")
        let result = try await ToolRunner.run(["import", "-", "--log", lmdb], input: Fixtures.history)
        #expect(result.status == 0, "\(result)")
        let file = directory.path("app.changelog")
        let source = try ChangeLog(path: lmdb, options: .init(createIfMissing: false, readOnly: true))
        let copy = try ChangeLog(fileAt: file, options: .init(durability: .noSync))
        for revision in UInt64(1)...(try source.latestRevision) {
            let record = try source.record(at: revision)
            _ = try await copy.append(contentsOf: [
                ChangeLog.AppendEntry(
                    record.snapshot, changes: record.changes, meta: record.meta,
                    millisecondsSince1970: record.millisecondsSince1970)
            ])
        }
        try copy.flush()
        return (directory, lmdb, file)
    }

    @Test("export, show, verify and log read a log file, named file:PATH or by its path, as they read the LMDB log")
    func readingCommands() async throws {
        let (directory, lmdb, file) = try await Self.makeLogs()
        defer { directory.remove() }
        for command in [["export"], ["show", "2"], ["verify"], ["log"]] {
            let fromLMDB = try await ToolRunner.run(command + ["--log", lmdb])
            let fromFile = try await ToolRunner.run(command + ["--log", "file:" + file])
            #expect(fromLMDB.status == 0, "\(fromLMDB)")
            #expect(fromFile.status == 0, "\(fromFile)")
            #expect(fromFile.stdout == fromLMDB.stdout.replacingOccurrences(of: lmdb, with: "file:" + file))
            let byPath = try await ToolRunner.run(command + ["--log", file])
            #expect(byPath.status == 0, "\(byPath)")
            #expect(byPath.stdout == fromLMDB.stdout.replacingOccurrences(of: lmdb, with: file))
        }
        let notALog = try directory.write("notes.txt", "not a log\n")
        let refused = try await ToolRunner.run(["verify", "--log", notALog])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr == "replay: \(notALog) is a file; a log is a directory: pass the directory's path\n")
    }

    @Test("a missing or damaged log file is refused with one line, and writing commands refuse file:PATH")
    func refusals() async throws {
        let (directory, _, file) = try await Self.makeLogs()
        defer { directory.remove() }
        let missing = try await ToolRunner.run(["verify", "--log", "file:" + directory.path("none")])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains(directory.path("none")), "\(missing)")
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[20] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let damaged = try await ToolRunner.run(["verify", "--log", "file:" + file])
        #expect(damaged.status != 0)
        #expect(damaged.stderr.contains("damaged"), "\(damaged)")
        #expect(damaged.stderr.split(separator: "\n").count == 1, "\(damaged)")
        let importing = try await ToolRunner.run(["import", "-", "--log", "file:" + file], input: Fixtures.history)
        #expect(importing.status != 0)
        #expect(importing.stderr.contains("log directories only"), "\(importing)")
    }

    /// Waits for `server` to end; its status.
    private static func finish(_ server: ToolRunner.Running) async -> Int32 {
        await LoopbackHTTP.onThread {
            _ = server.stderr.fileHandleForReading.readToEndRetryingInterruptions()
            server.process.waitUntilExit()
            return server.process.terminationStatus
        }
    }

    @Test("serve --log file:PATH answers as it does on the LMDB log, and sees what a writer appends meanwhile")
    func serving() async throws {
        let (directory, lmdb, file) = try await Self.makeLogs()
        defer { directory.remove() }
        let (fromLMDB, lmdbPort) = try await ToolRunner.serve(["--log", lmdb])
        let (fromFile, filePort) = try await ToolRunner.serve(["--log", "file:" + file])
        for target in ["/api/revisions/2", "/api/revisions?from=1&to=3"] {
            let expected = try await LoopbackHTTP.get(port: lmdbPort, target: target)
            let served = try await LoopbackHTTP.get(port: filePort, target: target)
            #expect(expected.status == 200, "\(target): \(expected.status)")
            #expect(served.status == 200, "\(target): \(served.status)")
            #expect(served.body == expected.body, "\(target)")
        }
        let before = try await LoopbackHTTP.get(port: filePort, target: "/api/log")
        let latest = try ChangeLog(fileAt: file, options: .init(readOnly: true)).latestRevision
        #expect(before.body.hasPrefix(#"{"oldest":1,"latest":\#(latest),"#), "\(before.body)")

        // A writer in this process appends while the server (another process) serves the file.
        let writer = try ChangeLog(fileAt: file)
        _ = try await writer.append(try writer.snapshot(at: latest))
        let after = try await LoopbackHTTP.get(port: filePort, target: "/api/log")
        #expect(after.body.hasPrefix(#"{"oldest":1,"latest":\#(latest + 1),"#), "\(after.body)")
        let appended = try await LoopbackHTTP.get(port: filePort, target: "/api/revisions/\(latest + 1)")
        #expect(appended.status == 200)
        for server in [fromLMDB, fromFile] {
            server.process.terminate()
            #expect(await Self.finish(server) == 0)
        }
    }

    @Test("verify passes on a log file kept within a size budget, whose oldest revisions were dropped")
    func verifyUnderABudget() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("budget.changelog")
        let log = try ChangeLog(fileAt: file, sizeBudget: 16 << 10)
        var sections = [LogSnapshot.Section(title: "A", items: [])]
        for index in 0..<300 {
            sections[0].items.insert(.init(id: "item \(index)", summary: "summary \(index)"), at: index % 7)
            if sections[0].items.count > 40 { sections[0].items.removeLast() }
            _ = try await log.append(try LogSnapshot(sections: sections))
        }
        #expect(try log.firstRevision > 1, "the budget dropped the oldest revisions")
        let verified = try await ToolRunner.run(["verify", "--log", "file:" + file])
        #expect(verified.status == 0, "\(verified)")
    }
}
