import ChangeLog
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

@testable import ChangeLogFile

/// What the order of writes and syncs lets an open tell apart (``FileLogLayout``): damage to a
/// synced transaction is refused, what a `noSync` writer had not flushed is a tail after a
/// power loss, a reader does not scan a tail again, crafted frames cost no memory out of
/// proportion, version 1 files still open.
@Suite struct FileLogOrderingTests {
    /// A log at `path` written with `durability`: `count` revisions in groups, the sizes of the
    /// file after each transaction (the header's first).
    private func makeLog(
        at path: String, count: Int, durability: ChangeLog.Durability, seed: UInt64
    ) async throws -> (log: ChangeLog, ends: [Int]) {
        var random = RandomSnapshots(seed: seed)
        let log = try ChangeLog(fileAt: path, options: .init(durability: durability))
        var ends = [FileLogLayout.headerSize]
        var generator = SplitMix64(seed: seed)
        var remaining = entries(random.take(count))[...]
        while !remaining.isEmpty {
            let group = remaining.prefix(Int.random(in: 1...4, using: &generator))
            remaining = remaining.dropFirst(group.count)
            _ = try await log.append(contentsOf: Array(group))
            ends.append(try fileSize(path))
        }
        return (log, ends)
    }

    private func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// The error opening `path` with `options` throws, or `nil`.
    private func refusal(_ path: String, _ options: ChangeLog.Options = .init()) -> ChangeLogError? {
        do {
            _ = try ChangeLog(fileAt: path, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [ChangeLog.Durability.durable, .noMetaSync])
    func damageToTheLastSyncedTransactionIsRefusedNotCut(durability: ChangeLog.Durability) async throws {
        try await withTemporaryDirectory { directory in
            let whole = directory + "/whole"
            let (log, ends) = try await makeLog(at: whole, count: 20, durability: durability, seed: 11)
            _ = consume log
            let original = try bytes(whole)
            let last = ends[ends.count - 2]
            let commitAt = original.count - FileLogLayout.commitFrameSize
            #expect(original[commitAt] == FileLogLayout.Kind.orderedCommit.rawValue)
            let path = directory + "/damaged"
            var generator = SplitMix64(seed: 11)
            let offsets =
                [last, last + 1, last + 5, commitAt - 1]
                + (0..<20).map { _ in
                    Int.random(in: last..<commitAt, using: &generator)
                }
            for offset in offsets {
                var damaged = original
                damaged[offset] ^= 0x40
                try write(damaged, to: path)
                for options in [ChangeLog.Options(), ChangeLog.Options(readOnly: true)] {
                    let error = refusal(path, options)
                    #expect(error?.code == .cannotOpen, "a flip at offset \(offset) was not refused")
                    #expect(error?.message.contains("ordered commit frame") == true, "\(String(describing: error))")
                    #expect(error?.message.contains("\n") == false)
                }
                #expect(try bytes(path) == damaged, "a refused open changed the file")
            }
            // Damage to the commit frame itself looks like a commit cut short: the transaction is a tail.
            var damaged = original
            damaged[commitAt + 30] ^= 0x40
            try write(damaged, to: path)
            let writer = try ChangeLog(fileAt: path)
            #expect(
                writer.fileTornTail
                    == FileLogTornTail(offset: UInt64(last), length: UInt64(original.count - last), wasCut: true))
            #expect(try await writer.verify().isValid)
        }
    }

    @Test func aNoSyncLogOpensAtTheFirstTransactionLostAfterItsLastFlush() async throws {
        try await withTemporaryDirectory { directory in
            let whole = directory + "/whole"
            let (log, before) = try await makeLog(at: whole, count: 8, durability: .noSync, seed: 12)
            try log.flush()
            let flushed = try fileSize(whole)
            #expect(flushed == before.last! + FileLogLayout.commitFrameSize, "a flush appends one ordered commit")
            let flushedRevisions = try log.latestRevision
            var random = RandomSnapshots(seed: 13)
            var ends = [flushed]
            for group in [2, 3, 1, 2] {
                _ = try await log.append(contentsOf: entries(random.take(group)))
                ends.append(try fileSize(whole))
            }
            let latest = try log.latestRevision
            _ = consume log
            let original = try bytes(whole)
            #expect(original[ends[1] - FileLogLayout.commitFrameSize] == FileLogLayout.Kind.commit.rawValue)

            // A power loss kept the first and third transactions after the flush, lost the second's pages.
            var lost = original
            for offset in ends[1]..<ends[2] { lost[offset] = 0 }
            let path = directory + "/lost"
            try write(lost, to: path)
            let reader = try ChangeLog(fileAt: path, options: .init(readOnly: true))
            #expect(try reader.latestRevision == flushedRevisions + 2)
            let writer = try ChangeLog(fileAt: path, options: .init(durability: .noSync))
            #expect(
                writer.fileTornTail
                    == FileLogTornTail(offset: UInt64(ends[1]), length: UInt64(original.count - ends[1]), wasCut: true))
            #expect(try writer.latestRevision == flushedRevisions + 2)
            #expect(try fileSize(path) == ends[1])
            #expect(try await writer.verify().isValid)
            #expect(latest == flushedRevisions + 8)

            // Damage before the flush's ordered commit frame is refused.
            var damaged = original
            damaged[before[2] - 20] ^= 0x01
            try write(damaged, to: path)
            #expect(refusal(path)?.code == .cannotOpen)
            #expect(try bytes(path) == damaged)
        }
    }

    @Test func aNoSyncWritersFirstFlushProtectsWhatAnEarlierOneLeftUnflushed() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let (log, ends) = try await makeLog(at: path, count: 5, durability: .noSync, seed: 17)
            _ = consume log
            #expect(try fileSize(path) == ends.last!)
            let next = try ChangeLog(fileAt: path, options: .init(durability: .noSync))
            try next.flush()
            let bytes = try bytes(path)
            #expect(bytes.count == ends.last! + FileLogLayout.commitFrameSize)
            #expect(bytes[ends.last!] == FileLogLayout.Kind.orderedCommit.rawValue)
            #expect(try await next.verify().isValid)
        }
    }

    @Test func aReaderScansAnUnchangedTornTailOnce() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let (log, _) = try await makeLog(at: path, count: 6, durability: .durable, seed: 14)
            _ = consume log
            let whole = try bytes(path)
            try write(whole + [UInt8](repeating: 0x2A, count: 5000), to: path)
            let reader = try ChangeLog(fileAt: path, options: .init(readOnly: true))
            let storage = try #require(reader.storage as? FileLogStorage)
            #expect(reader.fileTornTail?.length == 5000)
            for _ in 0..<10 { #expect(try reader.latestRevision == 6) }
            #expect(storage.rescans == 0)
            // The tail grows: one scan, then none again.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: 0x2B, count: 100))
            try handle.close()
            for _ in 0..<10 { #expect(try reader.latestRevision == 6) }
            #expect(storage.rescans == 1)
            #expect(try await reader.verify().isValid)
        }
    }

    @Test func framesTooShortForASealedValueAreNoTransaction() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/crafted"
            // A hundred thousand empty chunk frames under one commit frame, of each kind.
            var frames: [UInt8] = []
            for id in 1...100_000 {
                FileLogLayout.appendFrameHeader(kind: .chunk, length: 0, key: UInt64(id), to: &frames)
            }
            let start = UInt64(FileLogLayout.headerSize)
            for kind in [FileLogLayout.Kind.orderedCommit, .commit] {
                try write(
                    FileLogLayout.header() + frames + FileLogLayout.commitFrame(of: frames, start: start, kind: kind),
                    to: path)
                if kind == .orderedCommit {
                    let error = refusal(path, .init(readOnly: true))
                    #expect(error?.code == .cannotOpen)
                    #expect(
                        error?.message.contains("too short for a sealed value") == true, "\(String(describing: error))")
                } else {
                    let log = try ChangeLog(fileAt: path)
                    #expect(log.fileTornTail?.offset == start)
                    #expect(try log.latestRevision == 0)
                }
            }
        }
    }

    @Test func aVersionOneFileIsReadAndAWriterMovesItToVersionTwo() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let (log, _) = try await makeLog(at: path, count: 9, durability: .noSync, seed: 15)
            _ = consume log
            var old = try bytes(path)
            old.replaceSubrange(0..<FileLogLayout.headerSize, with: FileLogLayout.header(version: 1))
            try write(old, to: path)
            let reader = try ChangeLog(fileAt: path, options: .init(readOnly: true))
            #expect(try reader.latestRevision == 9)
            #expect(try await reader.verify().isValid)
            #expect(try bytes(path) == old)

            let writer = try ChangeLog(fileAt: path)
            #expect(Array(try bytes(path).prefix(FileLogLayout.headerSize)) == FileLogLayout.header())
            var random = RandomSnapshots(seed: 16)
            _ = try await writer.append(contentsOf: entries(random.take(2)))
            #expect(try await writer.verify().isValid)
            #expect(try reader.latestRevision == 11)

            var future = try bytes(path)
            future.replaceSubrange(0..<FileLogLayout.headerSize, with: FileLogLayout.header(version: 3))
            let other = directory + "/future"
            try write(future, to: other)
            let error = refusal(other, .init(readOnly: true))
            #expect(error?.code == .unsupportedFormat)
            #expect(error?.message.contains("layout version 3") == true)
        }
    }
}
