import ChangeLog
import Foundation
import ListAdapter
import ListFormat
import Testing

/// `log`, `stats` and `tail` (text, and `--json --changes-only`) read the revisions without
/// their snapshots: what they print must be what the full records say.
@Suite("replay log, stats and tail read only the changes")
struct ChangesOnlyCommandTests {
    /// A demo log of `revisions` revisions (a seeded history) and its full records, read back
    /// through `export`.
    static func makeLog(revisions: Int) async throws -> (TemporaryDirectory, String, [RevisionRecord]) {
        let directory = try TemporaryDirectory()
        let log = directory.path("app.lmdb")
        let demo = try await ToolRunner.run(["demo", "--log", log, "--revisions", "\(revisions)"])
        #expect(demo.status == 0, "\(demo)")
        let export = try await ToolRunner.run(["export", "--log", log])
        #expect(export.status == 0, "\(export)")
        let records = try export.stdout.split(separator: "\n").map { try RevisionRecord(jsonLine: $0.utf8) }
        return (directory, log, records)
    }

    @Test("tail --json --changes-only prints each full record's line without its snapshot")
    func tailChangesOnly() async throws {
        let (directory, log, records) = try await Self.makeLog(revisions: 120)
        defer { directory.remove() }
        let result = try await ToolRunner.run(["tail", "--log", log, "--from", "1", "--json", "--changes-only"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == records.map { RevisionChanges($0).jsonLine() + "\n" }.joined())
        for line in result.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(Set(object?.keys ?? [:].keys) == ["revision", "time", "meta", "changes"])
        }
        let refused = try await ToolRunner.run(["tail", "--log", log, "--changes-only"])
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("--changes-only shapes the --json lines; add --json"), "\(refused)")
    }

    /// The first `count` lines `pipe` gives (fewer when it ends first), without their newlines.
    static func lines(_ count: Int, of pipe: Pipe) async -> [String] {
        var lines: [String] = []
        var buffer = Data()
        let handle = pipe.fileHandleForReading
        while lines.count < count {
            let chunk = await handle.nextChunkOffThePool()
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
        }
        return lines
    }

    // The followers read the live revisions through the changes subscription: their lines must
    // be the ones the full records make, byte for byte.
    @Test(
        "tail --follow, as text and --json --changes-only, prints what tail prints of the same revisions, live ones too",
        .timeLimit(.minutes(10)))
    func followChangesOnly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("followed.lmdb")
        let total = 40
        let lines = Fixtures.growing(total).split(separator: "\n").map(String.init)
        let first = lines[..<10].joined(separator: "\n") + "\n"
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: first).status == 0)

        let changesOnly = try ToolRunner.start(
            ["tail", "--log", log, "--from", "1", "--follow", "--json", "--changes-only"])
        let text = try ToolRunner.start(["tail", "--log", log, "--from", "1", "--follow"])
        // Both have printed the stored revisions: what follows is live for them.
        let storedChangesOnly = await Self.lines(10, of: changesOnly.stdout)
        let storedText = await Self.lines(10, of: text.stdout)
        let rest = try directory.write("rest.jsonl", lines[10...].joined(separator: "\n") + "\n")
        let importer = try await ToolRunner.run(["import", rest, "--log", log, "--commit-every", "1"])
        #expect(importer.status == 0, "\(importer)")
        let liveChangesOnly = await Self.lines(total - 10, of: changesOnly.stdout)
        let liveText = await Self.lines(total - 10, of: text.stdout)
        for follower in [changesOnly, text] {
            follower.process.interrupt()
            await follower.process.exited()
        }

        let export = try await ToolRunner.run(["export", "--log", log])
        let records = try export.stdout.split(separator: "\n").map { try RevisionRecord(jsonLine: $0.utf8) }
        #expect(records.count == total)
        #expect(storedChangesOnly + liveChangesOnly == records.map { RevisionChanges($0).jsonLine() })
        let tail = try await ToolRunner.run(["tail", "--log", log, "--from", "1"])
        #expect(tail.status == 0, "\(tail)")
        #expect(storedText + liveText == tail.stdout.split(separator: "\n").map(String.init))
    }

    @Test("log and tail list what the full records hold, stats adds up what they hold")
    func logAndStats() async throws {
        let (directory, log, records) = try await Self.makeLog(revisions: 120)
        defer { directory.remove() }
        let listed = try await ToolRunner.run(["log", "--log", log])
        #expect(listed.status == 0, "\(listed)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == records.count)
        for (line, record) in zip(lines, records.reversed()) {
            #expect(line.hasPrefix("\(record.revision)  \(record.timeString)  "), "\(line)")
            #expect(line.hasSuffix("  " + record.changes.counts.description), "\(line)")
        }
        let tail = try await ToolRunner.run(["tail", "--log", log, "--from", "1"])
        #expect(tail.stdout.split(separator: "\n").map(String.init) == lines.reversed())

        let stats = try await ToolRunner.run(["stats", "--log", log])
        #expect(stats.status == 0, "\(stats)")
        let largest = try #require(records.max { $0.snapshot.itemCount < $1.snapshot.itemCount })
        let first = try #require(records.first { $0.snapshot.itemCount == largest.snapshot.itemCount })
        let operations = records.reduce(into: LogChanges.Counts()) { $0 += $1.changes.counts }
        let items = first.snapshot.itemCount
        let sections = first.snapshot.sectionCount
        #expect(
            stats.stdout.contains(
                "largest        revision \(first.revision): \(items) item\(items == 1 ? "" : "s") in \(sections) "
                    + "section\(sections == 1 ? "" : "s")\n"), "\(stats.stdout)")
        #expect(stats.stdout.contains("operations     \(operations.description)\n"), "\(stats.stdout)")
    }

    @Test("play --into jsonl writes the first snapshot, then each full record's changes")
    func playJSONLines() async throws {
        let (directory, log, records) = try await Self.makeLog(revisions: 80)
        defer { directory.remove() }
        for (from, to) in [(1, 80), (30, 61)] {
            let result = try await ToolRunner.run(
                ["play", "--log", log, "--into", "jsonl", "--from", "\(from)", "--to", "\(to)"])
            #expect(result.status == 0, "\(result)")
            let base = from == 1 ? LogSnapshot() : records[from - 2].snapshot
            let expected =
                [#"{"revision":\#(from - 1),"reload":\#(base.formatJSON())}"#]
                + records[(from - 1)..<to].map {
                    #"{"revision":\#($0.revision),"changes":\#($0.changes.formatJSON())}"#
                }
            #expect(result.stdout == expected.map { $0 + "\n" }.joined())
        }
    }

    @Test("a damaged record stops log, stats and tail --changes-only where it stops export, naming it")
    func damageStillReported() async throws {
        let (directory, log) = try await Tampering.damagedLog(revisions: 30, damaged: 12)
        defer { directory.remove() }
        let export = try await ToolRunner.run(["export", "--log", log])
        #expect(export.status == 2, "\(export)")
        #expect(export.stdout.split(separator: "\n").count == 11)
        for command in [["log"], ["stats"], ["tail", "--from", "1", "--json", "--changes-only"]] {
            let result = try await ToolRunner.run(command + ["--log", log])
            #expect(result.status == 2, "\(command): \(result)")
            #expect(result.stderr.contains("the record of revision 12 fails its checksum"), "\(command): \(result)")
        }
        let tail = try await ToolRunner.run(["tail", "--from", "1", "--json", "--changes-only", "--log", log])
        #expect(tail.stdout.split(separator: "\n").count == 11)
        // A replay stops at a damaged record, as verify does: exit 1, after the batches before it.
        let play = try await ToolRunner.run(["play", "--into", "jsonl", "--log", log])
        #expect(play.status == 1, "\(play)")
        #expect(play.stderr.contains("replay stopped: the record of revision 12 fails its checksum"), "\(play)")
        #expect(play.stdout.split(separator: "\n").count == 12)
    }
}
