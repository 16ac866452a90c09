import ChangeLog
import Foundation
import Testing

/// `replay copy`: a history copied between the LMDB and file engines keeps every revision as
/// stored, verifies, resumes, and refuses a target that is not a copy.
@Suite("replay copy")
struct CopyCommandTests {
    /// A demo log of `revisions` revisions in a fresh temporary directory.
    static func demoLog(_ revisions: Int) async throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let log = directory.path("demo.lmdb")
        let demo = try await ToolRunner.run(["demo", "--log", log, "--revisions", "\(revisions)"])
        try #require(demo.status == 0, "\(demo)")
        return (directory, log)
    }

    @Test("LMDB to a file and back: export, verify and log read the same on all three logs")
    func roundTrip() async throws {
        let (directory, lmdb) = try await Self.demoLog(300)
        defer { directory.remove() }
        let file = "file:" + directory.path("demo.changelog")
        let back = directory.path("back.lmdb")
        let toFile = try await ToolRunner.run(["copy", "--from", lmdb, "--to", file, "--batch", "64"])
        #expect(toFile.status == 0, "\(toFile)")
        #expect(toFile.stdout.contains("copied revisions 1 to 300"), "\(toFile)")
        #expect(toFile.stdout.contains("verified 300 revisions"), "\(toFile)")
        let toLMDB = try await ToolRunner.run(["copy", "--from", file, "--to", back])
        #expect(toLMDB.status == 0, "\(toLMDB)")
        let exports = try await [lmdb, file, back].asyncMap { try await ToolRunner.run(["export", "--log", $0]) }
        #expect(exports.allSatisfy { $0.status == 0 && !$0.stdout.isEmpty })
        #expect(exports[1].stdout == exports[0].stdout)
        #expect(exports[2].stdout == exports[0].stdout)
        for log in [file, back] {
            let verify = try await ToolRunner.run(["verify", "--log", log])
            #expect(verify.status == 0, "\(verify)")
        }
        let again = try await ToolRunner.run(["copy", "--from", lmdb, "--to", back])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("already holds the 300 revisions"), "\(again)")
    }

    @Test("a copy resumes after the target's latest revision when the source grew")
    func resumes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.path("source.lmdb")
        let target = "file:" + directory.path("target.changelog")
        let lines = Fixtures.growing(12).split(separator: "\n").map(String.init)
        let first = try await ToolRunner.run(
            ["import", "-", "--log", source], input: lines[..<5].joined(separator: "\n") + "\n")
        try #require(first.status == 0, "\(first)")
        let partial = try await ToolRunner.run(["copy", "--from", source, "--to", target, "--batch", "2"])
        #expect(partial.stdout.contains("copied revisions 1 to 5"), "\(partial)")
        let rest = try await ToolRunner.run(
            ["import", "-", "--log", source], input: lines[5...].joined(separator: "\n") + "\n")
        try #require(rest.status == 0, "\(rest)")
        let resumed = try await ToolRunner.run(["copy", "--from", source, "--to", target, "--batch", "2"])
        #expect(resumed.status == 0, "\(resumed)")
        #expect(resumed.stdout.contains("copied revisions 6 to 12"), "\(resumed)")
        let original = try await ToolRunner.run(["export", "--log", source])
        let copied = try await ToolRunner.run(["export", "--log", target])
        #expect(copied.stdout == original.stdout)
        #expect(original.stdout.split(separator: "\n").count == 12)
    }

    @Test("an interrupted copy keeps the batches written, says so, and the same command finishes it")
    func interrupted() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.path("source.lmdb")
        let target = directory.path("target.lmdb")
        // One durable transaction per revision: far more than are written before the signal.
        let lines = (1...5_000).map { #"{"sections": [{"title": "A", "items": [{"id": "i\#($0 % 7)"}]}]}"# }
        let imported = try await ToolRunner.run(["import", "-", "--log", source], input: lines.joined(separator: "\n"))
        try #require(imported.status == 0, "\(imported)")
        let running = try ToolRunner.start(["copy", "--from", source, "--to", target, "--batch", "1"])
        let errorData = ReadAll(running.stderr.fileHandleForReading)
        let outputData = ReadAll(running.stdout.fileHandleForReading)
        while (try? ChangeLog(path: target, options: .init(createIfMissing: false, readOnly: true)).latestRevision)
            ?? 0 == 0
        {
            try #require(running.process.isRunning, "the copy ended before it appended")
            try await Task.sleep(nanoseconds: UInt64(2_000) * 1_000)
        }
        kill(running.process.processIdentifier, SIGINT)
        let stderr = String(decoding: await errorData.wait(), as: UTF8.self)
        _ = await outputData.wait()
        await running.process.exited()
        #expect(running.process.terminationReason == .uncaughtSignal, "\(stderr)")
        let kept = try ChangeLog(path: target, options: .init(createIfMissing: false, readOnly: true)).latestRevision
        try #require(kept >= 1 && kept < 5_000, "\(stderr)")
        #expect(stderr.hasSuffix("copied revisions 1 to \(kept); run the same command to resume\n"), "\(stderr)")
        let resumed = try await ToolRunner.run(["copy", "--from", source, "--to", target])
        #expect(resumed.status == 0, "\(resumed)")
        #expect(resumed.stdout.contains("copied revisions \(kept + 1) to 5000"), "\(resumed)")
        let original = try await ToolRunner.run(["export", "--log", source])
        let copied = try await ToolRunner.run(["export", "--log", target])
        #expect(copied.stdout == original.stdout)
    }

    @Test("a target that is not a copy of the source, and a trimmed source, are refused with one line")
    func refusals() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.path("source.lmdb")
        let other = directory.path("other.lmdb")
        for (log, input) in [(source, Fixtures.history), (other, Fixtures.growing(2))] {
            let result = try await ToolRunner.run(["import", "-", "--log", log], input: input)
            try #require(result.status == 0, "\(result)")
        }
        let exportBefore = try await ToolRunner.run(["export", "--log", other])
        let differs = try await ToolRunner.run(["copy", "--from", source, "--to", other])
        #expect(differs.status == 2, "\(differs)")
        #expect(differs.stderr.contains("differs from \(source) at revision 2"), "\(differs)")
        #expect(differs.stderr.split(separator: "\n").count == 1, "\(differs)")
        let exportAfter = try await ToolRunner.run(["export", "--log", other])
        #expect(exportAfter.stdout == exportBefore.stdout, "a refused copy leaves the target as it was")
        let same = try await ToolRunner.run(["copy", "--from", source, "--to", source])
        #expect(same.status == 64, "\(same)")
        let missing = try await ToolRunner.run(["copy", "--from", directory.path("none"), "--to", other])
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains(directory.path("none")), "\(missing)")

        let log = try ChangeLog(path: source, options: .init(createIfMissing: false))
        _ = try await log.dropRevisions(before: 2)
        let trimmed = try await ToolRunner.run(
            ["copy", "--from", source, "--to", "file:" + directory.path("new.changelog")])
        #expect(trimmed.status == 2, "\(trimmed)")
        #expect(trimmed.stderr.contains("holds revisions 2 to 3"), "\(trimmed)")
    }
}

extension Array {
    /// The results of `transform` over the elements, in order, one at a time.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
