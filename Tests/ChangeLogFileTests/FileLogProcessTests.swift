import ChangeLog
import ChangeLogFile
import ChangeLogTestSupport
import Foundation
import Testing

/// The file engine across processes: a reader here follows a writer in another process, and a
/// second writing process is refused while one writes.
@Suite struct FileLogProcessTests {
    @Test func aReaderFollowsAWriterInAnotherProcess() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log.changelog"
            let first = try await WorkerProcess.run([
                "append", "--engine", "file", "--log", path, "--count", "1", "--seed", "3",
            ])
            try #require(first.stdout == "committed 1\n", "\(first)")
            let reader = try ChangeLog(fileAt: path, options: .init(readOnly: true))
            var events = reader.subscribe(from: 1).makeAsyncIterator()
            #expect(try await events.next().map(snapshotOf) != nil)
            #expect(try await events.next() == .caughtUp(latest: 1))
            let run = try await WorkerProcess.run([
                "append", "--engine", "file", "--log", path, "--count", "25", "--seed", "4",
            ])
            // The revisions the subscription waits for are in the file only when the writer committed them.
            try #require(run.status == 0, "\(run)")
            #expect(run.stdout.split(separator: "\n").last == "committed 26")
            for revision in UInt64(2)...26 {
                guard case .revision(let record)? = try await events.next() else {
                    Issue.record("the subscription ended before revision \(revision)")
                    return
                }
                #expect(record.revision == revision)
            }
            #expect(try await reader.verify().isValid)
        }
    }

    @Test func aSecondWritingProcessIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log.changelog"
            let writer = try ChangeLog(fileAt: path)
            _ = try await writer.append(try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "a")])]))
            let run = try await WorkerProcess.run(["append", "--engine", "file", "--log", path, "--count", "1"])
            #expect(run.status != 0)
            #expect(run.stderr.contains("one writer at a time"), "\(run)")
            #expect(try writer.latestRevision == 1)
        }
    }

    @Test(arguments: [ChangeLog.Durability.durable, .noMetaSync, .noSync])
    func afterAFlushAnotherProcessReadsTheRecords(durability: ChangeLog.Durability) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log.changelog"
            let writer = try ChangeLog(fileAt: path, options: .init(durability: durability))
            var random = RandomSnapshots(seed: 21)
            let snapshots = random.take(12)
            for snapshot in snapshots { _ = try await writer.append(snapshot) }
            // The commit frame's kind says how the transaction was written: ordered (4, synced
            // after its frames) in the durable modes, in one write (3) without sync.
            let kindOfLast = { () throws -> UInt8 in
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                return bytes[bytes.count - 37]
            }
            #expect(try kindOfLast() == (durability == .noSync ? 3 : 4))
            try writer.flush()
            #expect(try kindOfLast() == 4, "after a flush the file ends with an ordered commit frame")
            let run = try await WorkerProcess.run(
                [
                    "subscribe", "--engine", "file", "--read-only", "yes", "--log", path, "--from", "1", "--count",
                    "12",
                ])
            #expect(run.status == 0, "\(run)")
            let revisions = run.stdout.split(separator: "\n").filter { !$0.hasPrefix("caughtUp") }
            #expect(revisions == (1...12).map { "\($0)"[...] }, "\(run)")
            #expect(try await writer.verify().isValid)
        }
    }
}
