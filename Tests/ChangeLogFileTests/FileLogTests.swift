import ChangeLog
import ChangeLogFile
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

/// The file engine through the public ``ChangeLog`` API, on real files: what it stores, reads
/// back, verifies and shares with readers.
@Suite struct FileLogTests {
    @Test func appendsReadBackAndVerifyWithTheSameBytesAsLMDB() async throws {
        try await withTemporaryDirectory { directory in
            var random = RandomSnapshots(seed: 33)
            let snapshots = random.take(300)
            let stamped = entries(snapshots)
            let file = try ChangeLog(fileAt: directory + "/log.changelog")
            try await appendInGroups(stamped, to: file, seed: 1)
            let lmdb = try ChangeLog(path: directory + "/log.lmdb")
            try await appendInGroups(stamped, to: lmdb, seed: 2)

            #expect(try file.latestRevision == 300)
            let report = try await file.verify()
            #expect(report.isValid && report.revisionsChecked == 300)
            let (fileRecords, fileChunks) = try storedBytes(of: file)
            let (lmdbRecords, lmdbChunks) = try storedBytes(of: lmdb)
            #expect(fileRecords.count == 300)
            #expect(fileRecords == lmdbRecords)
            #expect(fileChunks.count == lmdbChunks.count)
            #expect(fileChunks == lmdbChunks)

            // Another instance, reading only, finds the same revisions in the file.
            let reader = try ChangeLog(fileAt: directory + "/log.changelog", options: .init(readOnly: true))
            for revision in [UInt64(1), 150, 300] {
                #expect(try reader.record(at: revision).snapshot == snapshots[Int(revision) - 1])
                #expect(
                    try reader.record(at: revision).millisecondsSince1970
                        == stamped[Int(revision) - 1].millisecondsSince1970)
            }
            #expect(reader.fileTornTail == nil)
            #expect(try await reader.verify().isValid)
        }
    }

    @Test func aSubscriptionCatchesUpThenFollowsLiveAppends() async throws {
        try await withTemporaryDirectory { directory in
            var random = RandomSnapshots(seed: 7)
            let snapshots = random.take(30)
            let log = try ChangeLog(fileAt: directory + "/log.changelog")
            for snapshot in snapshots.prefix(20) { _ = try await log.append(snapshot) }
            var iterator = log.subscribe(from: 1).makeAsyncIterator()
            for expected in snapshots.prefix(20) {
                #expect(try await iterator.next().map(snapshotOf) == expected)
            }
            #expect(try await iterator.next() == .caughtUp(latest: 20))
            for snapshot in snapshots.suffix(10) { _ = try await log.append(snapshot) }
            for (offset, expected) in snapshots.suffix(10).enumerated() {
                guard case .revision(let record)? = try await iterator.next() else {
                    Issue.record("the subscription ended or sent no revision")
                    return
                }
                #expect(record.revision == UInt64(21 + offset))
                #expect(record.snapshot == expected)
            }
        }
    }

    @Test func aReaderOfTheSameFileSeesWhatTheWriterAppends() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log.changelog"
            var random = RandomSnapshots(seed: 11)
            let snapshots = random.take(12)
            let writer = try ChangeLog(fileAt: path, options: .init(durability: .noSync))
            _ = try await writer.append(snapshots[0])
            let reader = try ChangeLog(fileAt: path, options: .init(readOnly: true))
            #expect(try reader.latestRevision == 1)
            // A subscription of the reader follows the writer's appends through file events and the poll.
            let follower = Task {
                var seen: [LogSnapshot] = []
                for try await event in reader.subscribe(from: 1) {
                    guard case .revision(let record) = event else { continue }
                    seen.append(record.snapshot)
                    if seen.count == snapshots.count { break }
                }
                return seen
            }
            for snapshot in snapshots.dropFirst() {
                _ = try await writer.append(snapshot)
                #expect(try reader.record(at: try writer.latestRevision).snapshot == snapshot)
            }
            #expect(try await follower.value == snapshots)
            // Not flushed, yet every committed append is in the file for the reader.
            try writer.flush()
            #expect(try await reader.verify().isValid)
        }
    }

    @Test func aSecondWriterIsRefusedAndAReaderIsNot() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log.changelog"
            let writer = try ChangeLog(fileAt: path)
            _ = try await writer.append(try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "a")])]))
            #expect {
                _ = try ChangeLog(fileAt: path)
            } throws: { error in
                let error = error as? ChangeLogError
                return error?.code == .cannotOpen && error?.message.contains("one writer at a time") == true
            }
            let reader = try ChangeLog(fileAt: path, options: .init(readOnly: true))
            #expect(try reader.latestRevision == 1)
            await #expect(throws: ChangeLogError.self) {
                _ = try await reader.append(LogSnapshot())
            }
        }
    }

    @Test func openingRefusesWhatIsNoLogFile() async throws {
        try await withTemporaryDirectory { directory in
            func refusal(_ path: String, _ options: ChangeLog.Options = .init()) -> ChangeLogError? {
                do {
                    _ = try ChangeLog(fileAt: path, options: options)
                    return nil
                } catch {
                    return error
                }
            }
            #expect(refusal(directory + "/missing", .init(createIfMissing: false))?.code == .logNotFound)
            #expect(refusal(directory + "/missing", .init(readOnly: true))?.code == .logNotFound)
            #expect(refusal(directory)?.code == .cannotOpen)
            let text = directory + "/text"
            try Data("not a log at all, just some text".utf8).write(to: URL(fileURLWithPath: text))
            let notALog = refusal(text)
            #expect(notALog?.code == .cannotOpen)
            #expect(notALog?.message.contains("not a log file") == true)
            try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: text)
            #expect(refusal(directory + "/link")?.code == .cannotOpen)
            // A file whose creation was cut short before its header was whole becomes a log.
            let empty = directory + "/empty"
            _ = FileManager.default.createFile(atPath: empty, contents: Data())
            #expect(refusal(empty, .init(readOnly: true))?.code == .logNotFound)
            let log = try ChangeLog(fileAt: empty)
            #expect(try log.latestRevision == 0)
        }
    }
}
