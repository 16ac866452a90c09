import ChangeLog
import ChangeLogFile
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

/// SIGKILL of a process writing a log file at random moments, under each durability mode:
/// each kill leaves revisions 1 to some latest without a gap that verify, every revision the
/// worker reported committed among them with the content it wrote, a torn tail ignored by a
/// reader and cut by the next writer (reported by both), and the log takes the next writer's
/// appends. The workers are `ChangeLogWorker write --engine file` (Tests/ChangeLogWorker).
@Suite(.serialized) struct FileLogCrashTests {
    static let contentSeed: UInt64 = 0xF11E_C0DE
    static let items = 400

    @Test func writersKilledAtRandomMomentsLeaveAVerifyingPrefix() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log.changelog"
            let modes = ["durable", "noMetaSync", "noSync"]
            var generator = SplitMix64(seed: 0xC4A5)
            var latest: UInt64 = 0
            var tails: [FileLogTornTail] = []
            var delays: [Int] = []
            for round in 0..<24 {
                let mode = modes[round % modes.count]
                let batch = [1, 7, 3][round % 3 == 0 ? 0 : (round / 3) % 3]
                let worker = try KilledWorker(
                    [
                        "write", "--engine", "file", "--log", path, "--content-seed", "\(Self.contentSeed)",
                        "--items", "\(Self.items)", "--durability", mode, "--batch", "\(batch)", "--writer",
                        "round\(round)",
                    ], in: directory)
                let delay = Int.random(in: 0..<40_000, using: &generator)
                delays.append(delay)
                if round % 4 != 2 {
                    // Most kills after the open, some anywhere from the start.
                    let ready = try await worker.waitForLine { $0.hasPrefix("ready ") }
                    try #require(ready, "round \(round): \(worker.errorText)")
                }
                try await Task.sleep(for: .microseconds(delay))
                worker.kill()
                let status = await worker.waitForExit()
                #expect(status == SIGKILL, "round \(round) ended by itself (\(status)): \(worker.errorText)")
                let committed =
                    worker.lines.compactMap { line -> UInt64? in
                        let words = line.split(separator: " ")
                        return words.first == "committed" ? UInt64(words[2]) : nil
                    }.max() ?? latest

                guard FileManager.default.fileExists(atPath: path) else { continue }
                let reader = try ChangeLog(fileAt: path, options: .init(readOnly: true))
                let seen = try reader.latestRevision
                #expect(seen >= committed, "round \(round): revision \(committed) was reported committed, lost")
                #expect(seen >= latest, "round \(round): revisions before the kill were lost")
                let report = try await reader.verify()
                #expect(report.isValid, "round \(round): \(report)")
                #expect(report.revisionsChecked == Int(seen), "round \(round): the revisions have a gap")
                for revision in stride(from: latest + 1, through: seen, by: 1) {
                    #expect(
                        try reader.snapshot(at: revision)
                            == CrashContent.snapshot(seed: Self.contentSeed, revision: revision, items: Self.items),
                        "round \(round): revision \(revision)")
                }
                let sizeBefore = try fileSize(path)
                let writer = try ChangeLog(fileAt: path)
                if let tail = reader.fileTornTail {
                    tails.append(tail)
                    #expect(tail.offset + tail.length == UInt64(sizeBefore))
                    #expect(
                        writer.fileTornTail == FileLogTornTail(offset: tail.offset, length: tail.length, wasCut: true))
                    #expect(try fileSize(path) == Int(tail.offset))
                } else {
                    #expect(writer.fileTornTail == nil)
                    #expect(try fileSize(path) == sizeBefore)
                }
                #expect(try writer.latestRevision == seen)
                latest = seen
            }
            // A last writer appends after all of them.
            let last = try await WorkerProcess.run(
                [
                    "write", "--engine", "file", "--log", path, "--content-seed", "\(Self.contentSeed)", "--items",
                    "\(Self.items)", "--transactions", "2",
                ])
            #expect(last.status == 0, "\(last)")
            let log = try ChangeLog(fileAt: path, options: .init(readOnly: true))
            #expect(try log.latestRevision == latest + 2)
            #expect(try await log.verify().isValid)
            print(
                "file engine crash safety: 24 SIGKILLs (delays in µs: \(delays)); revisions 1 to \(latest) kept; "
                    + "torn tails: \(tails.map(\.description))")
            #expect(latest > 0, "no kill came after a commit")
        }
    }
}
