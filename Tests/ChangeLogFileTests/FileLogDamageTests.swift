import ChangeLog
import ChangeLogFile
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

/// A log file cut short or damaged: a torn tail is ignored by readers and cut by the next
/// writer, earlier revisions intact; damage before the tail is refused with one line.
@Suite struct FileLogDamageTests {
    /// A log file of `count` revisions appended in groups, with the file's size before its
    /// last transaction; the file's bytes.
    private func makeLog(at path: String, count: Int, seed: UInt64) async throws -> (before: Int, bytes: [UInt8]) {
        var random = RandomSnapshots(seed: seed)
        let stamped = entries(random.take(count))
        let log = try ChangeLog(fileAt: path)
        try await appendInGroups(Array(stamped.dropLast(2)), to: log, seed: seed)
        let before = try fileSize(path)
        _ = try await log.append(contentsOf: Array(stamped.suffix(2)))
        return (before, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
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

    @Test func aTailCutAtEveryOffsetOfTheLastTransactionIsIgnoredThenCut() async throws {
        try await withTemporaryDirectory { directory in
            let (before, bytes) = try await makeLog(at: directory + "/whole", count: 24, seed: 3)
            #expect(bytes.count > before)
            for end in before..<bytes.count {
                // A file of its own each time: a writer released at the end of an iteration lets its
                // file go only when its background work does, which a busy machine delays.
                let path = directory + "/cut-\(end)"
                try write(Array(bytes[..<end]), to: path)
                let reader = try ChangeLog(fileAt: path, options: .init(readOnly: true))
                #expect(try reader.latestRevision == 22)
                let torn =
                    end > before
                    ? FileLogTornTail(offset: UInt64(before), length: UInt64(end - before), wasCut: false) : nil
                #expect(reader.fileTornTail == torn)
                #expect(try fileSize(path) == end)
                if end == before || end == bytes.count - 1 {
                    #expect(try await reader.verify().isValid)
                }
                let writer = try ChangeLog(fileAt: path)
                #expect(
                    writer.fileTornTail
                        == torn.map { FileLogTornTail(offset: $0.offset, length: $0.length, wasCut: true) })
                #expect(try fileSize(path) == before)
                #expect(try writer.latestRevision == 22)
            }
            // After the cut, the log takes appends again and verifies.
            let path = directory + "/cut"
            try write(Array(bytes[..<(before + 5)]), to: path)
            let log = try ChangeLog(fileAt: path)
            var random = RandomSnapshots(seed: 99)
            for snapshot in random.take(3) { _ = try await log.append(snapshot) }
            #expect(try log.latestRevision == 25)
            #expect(try await log.verify().isValid)
        }
    }

    @Test func garbageAppendedIsATail() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let (_, bytes) = try await makeLog(at: directory + "/whole", count: 10, seed: 4)
            var generator = SplitMix64(seed: 4)
            var garbage = (0..<3000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // A commit frame's magic inside the garbage: still no committed transaction.
            garbage.replaceSubrange(100..<108, with: [0x89, 0x43, 0x4F, 0x4D, 0x4D, 0x49, 0x54, 0x0A])
            try write(bytes + garbage, to: path)
            let log = try ChangeLog(fileAt: path)
            #expect(log.fileTornTail == FileLogTornTail(offset: UInt64(bytes.count), length: 3000, wasCut: true))
            #expect(try fileSize(path) == bytes.count)
            #expect(try await log.verify().isValid)
        }
    }

    @Test func damageBeforeTheTailIsRefusedWithOneLine() async throws {
        try await withTemporaryDirectory { directory in
            let (before, bytes) = try await makeLog(at: directory + "/whole", count: 12, seed: 5)
            let path = directory + "/damaged"
            // A byte of every kind of place before the last transaction: the header, a frame's
            // kind, its length, its key, its payload, a commit frame.
            var generator = SplitMix64(seed: 5)
            var offsets = Array(0..<80)
            offsets += (0..<150).map { _ in Int.random(in: 16..<before, using: &generator) }
            for offset in offsets {
                for flip in [UInt8(0x01), 0x80, 0xFF] {
                    var damaged = bytes
                    damaged[offset] ^= flip
                    try write(damaged, to: path)
                    for options in [ChangeLog.Options(), ChangeLog.Options(readOnly: true)] {
                        let error = refusal(path, options)
                        #expect(error != nil, "a flip of \(flip) at offset \(offset) went unnoticed")
                        guard let error else { continue }
                        #expect([.cannotOpen, .unsupportedFormat].contains(error.code), "\(error)")
                        #expect(!error.message.contains("\n"))
                        #expect(try fileSize(path) == bytes.count, "a refused open changed the file")
                    }
                }
            }
        }
    }

    @Test func hostileLengthsAreRefusedNotFollowed() async throws {
        try await withTemporaryDirectory { directory in
            let (_, bytes) = try await makeLog(at: directory + "/whole", count: 6, seed: 6)
            let path = directory + "/hostile"
            // The first frame's length set to the largest value, then to one past the file.
            for length in [UInt32.max, UInt32(bytes.count)] {
                var damaged = bytes
                withUnsafeBytes(of: length.littleEndian) { damaged.replaceSubrange(17..<21, with: $0) }
                try write(damaged, to: path)
                #expect(refusal(path)?.code == .cannotOpen)
                #expect(try fileSize(path) == bytes.count)
            }
        }
    }
}
