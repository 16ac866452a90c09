import ChangeLog
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `replay import` while its log's data file is cut short behind its back, at a random moment
/// and to a random length short of the pages in use: the writer stops with status 2 and one line,
/// never by a signal (a bus error in LMDB's read of its map is turned into that line,
/// `DataFileFault`), and never commits over the cut (a commit checks the file's length first).
/// Afterwards a reading command reads the log or refuses it with one line: the pages the cut
/// took are gone, and nothing says more than that.
@Suite("replay import on a data file cut short while it writes")
struct WriterTruncationTests {
    /// Lines of snapshots large enough that each revision writes and reads many pages.
    static let lines: [String] = (0..<60).map { revision in
        let items = (0..<300).map {
            "{\"id\":\"r\(revision % 7)-\($0)\",\"summary\":\"\(revision)-\(String(repeating: "y", count: 40))\"}"
        }
        return "{\"sections\":[{\"title\":\"s\",\"items\":[\(items.joined(separator: ","))]}]}\n"
    }

    /// The bytes in use by the newest meta page of the data file at `path` (`(last page + 1)`
    /// times the page size), read with `pread` so the test opens no environment.
    static func usedBytes(ofDataFileAt path: String) -> Int {
        guard let file = FileHandle(forReadingAtPath: path) else { return 0 }
        defer { try? file.close() }
        let pageSize = Int(getpagesize())
        let bytes = [UInt8]((try? file.read(upToCount: 2 * pageSize)) ?? Data())
        guard bytes.count == 2 * pageSize else { return bytes.count }
        func load(_ offset: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } }
        let newer = load(144) < load(pageSize + 144) ? 1 : 0
        return (load(newer * pageSize + 136) + 1) * pageSize
    }

    @Test(
        "every import whose data file is cut short stops with status 2 and one line; the log then reads or is refused")
    func truncatedWhileImporting() async throws {
        let trials = ProcessInfo.processInfo.environment["WRITER_TRUNCATIONS"].flatMap { Int($0) } ?? 32
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var random = SplitMix64(seed: 2_027)
        var problems: [String] = []
        var endings: [String: Int] = [:]
        for trial in 0..<trials {
            let log = directory.path("log-\(trial)")
            // Two lines a transaction: the writer commits while the test feeds it.
            let importer = try ToolRunner.start(["import", "-", "--log", log, "--commit-every", "2"])
            let process = importer.process
            // A hang guard, not a time limit: an importer that never stops fails the test below.
            DispatchQueue.global().asyncAfter(deadline: .now() + 300) {
                if process.isRunning { process.terminate() }
            }
            let errors = ReadAll(importer.stderr.fileHandleForReading)
            let output = ReadAll(importer.stdout.fileHandleForReading)
            let before = Int.random(in: 4..<40, using: &random)
            let delay = UInt32.random(in: 0..<20_000, using: &random)
            let first = WriteAll(
                Array(Self.lines[..<before].joined().utf8), to: importer.stdin.fileHandleForWriting, closing: false)
            try await first.wait()
            // Until a revision is committed there is nothing to cut: wait for one (or for the end).
            var used = Self.usedBytes(ofDataFileAt: log + "/data.mdb")
            while used <= 2 * Int(getpagesize()), process.isRunning {
                usleep(1_000)
                used = Self.usedBytes(ofDataFileAt: log + "/data.mdb")
            }
            usleep(delay)
            used = Self.usedBytes(ofDataFileAt: log + "/data.mdb")
            let length = used > 0 ? Int.random(in: 0..<used, using: &random) : 0
            #expect(truncate(log + "/data.mdb", off_t(length)) == 0)
            try await WriteAll(Array(Self.lines[before...].joined().utf8), to: importer.stdin.fileHandleForWriting)
                .wait()
            process.waitUntilExit()
            _ = await output.wait()
            let stderr = String(decoding: await errors.wait(), as: UTF8.self)
            let oneLine = stderr.hasPrefix("replay: ") && stderr.filter { $0 == "\n" }.count == 1
            let what = "trial \(trial) (\(before) lines, cut to \(length) of \(used) bytes after \(delay) µs)"
            if process.terminationReason != .exit || process.terminationStatus != 2 || !oneLine {
                let ended = process.terminationReason == .exit ? "exit" : "signal"
                problems.append("\(what): \(ended) \(process.terminationStatus), stderr \(stderr.debugDescription)")
            } else {
                endings[stderr.contains("bus error") ? "bus error" : "refused by a check", default: 0] += 1
            }
            let verify = try await ToolRunner.run(["verify", "--log", log])
            let verifyOneLine = verify.stderr.hasPrefix("replay: ") && verify.stderr.filter { $0 == "\n" }.count == 1
            if !(verify.status == 0 || (verify.status == 2 && verifyOneLine)
                || (verify.status == 1 && !verify.stdout.isEmpty))
            {
                problems.append("\(what): verify afterwards \(verify)")
            }
            try FileManager.default.removeItem(atPath: log)
        }
        print("writer truncation: \(trials) trials: \(endings)")
        #expect(problems.isEmpty, "\(problems.count) of \(trials) imports:\n\(problems.joined(separator: "\n"))")
    }
}
