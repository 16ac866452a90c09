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
}
