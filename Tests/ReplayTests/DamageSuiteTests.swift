import ChangeLog
import ChangeLogTestSupport
import Foundation
import Testing

/// Damaged copies of a demo log (``DamagedCopies``: bit flips, truncations, swapped pages, a
/// page of random bytes, meta-page edits) read by `verify`, `export`, `show 1` and `stats`:
/// each run answers (exit 0, or 1 for a verification that found the damage) or refuses with
/// one line (exit 2), and never dies of a signal. An answer of `export` or `show 1` is the
/// undamaged log's, or for `export` the undamaged log's first revisions (a copy whose latest
/// revisions are lost with the pages that held them). A hang shows as a run that never ends.
///
/// `DAMAGE_COPIES` (default 40) and `DAMAGE_SEED` (default 2026) set the copies tried;
/// `scripts/damage.sh N` runs N of them and prints the counts.
@Suite("replay on damaged copies of a log")
struct DamageSuiteTests {
    static let commands = [["verify"], ["export"], ["show", "1"], ["stats"]]

    /// What one run of the tool on one copy did.
    enum Outcome: Equatable {
        /// Exit 0 with output.
        case answered
        /// Exit 1 from `verify`, naming a failing revision.
        case failedCheck
        /// Exit 2 with one line on standard error.
        case refused
        /// Ended by this signal.
        case crashed(Int32)
        /// Anything else: another status, or no output.
        case unexpected(String)
    }

    @Test("every reading command answers or refuses each damaged copy with one line, and never crashes")
    func damagedCopies() async throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["DAMAGE_COPIES"].flatMap { Int($0) } ?? 40
        let seed = environment["DAMAGE_SEED"].flatMap { UInt64($0) } ?? 2026
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let base = directory.path("base")
        let demo = try await ToolRunner.run(["demo", "--log", base, "--revisions", "120"])
        try #require(demo.status == 0, "\(demo)")
        let used = try ChangeLog(path: base, options: .init(readOnly: true)).bytesInUse
        let file = try #require(FileManager.default.contents(atPath: base + "/data.mdb"))
        let copies = DamagedCopies(of: [UInt8](file.prefix(used)), seed: seed)
        var expected: [[String]: String] = [:]
        for command in Self.answersChecked {
            let run = try await ToolRunner.run(command + ["--log", base])
            try #require(run.status == 0, "\(command): \(run)")
            expected[command] = run.stdout
        }
        var tally: [String: Int] = [:]
        var problems: [String] = []
        var crashes: [String] = []
        for index in 0..<count {
            let copy = copies.copy(index)
            let log = directory.path("copy-\(index)")
            try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: false)
            try Data(copy.bytes).write(to: URL(fileURLWithPath: log + "/data.mdb"))
            for command in Self.commands {
                let outcome = try await Self.run(command + ["--log", log], expected: expected[command])
                switch outcome {
                case .answered: tally["answered", default: 0] += 1
                case .failedCheck: tally["failed a check", default: 0] += 1
                case .refused: tally["refused", default: 0] += 1
                case .crashed(let signal):
                    tally["crashed", default: 0] += 1
                    crashes.append("seed \(seed), \(copy), `\(command.joined(separator: " "))`: signal \(signal)")
                case .unexpected(let what):
                    tally["unexpected", default: 0] += 1
                    problems.append("seed \(seed), \(copy), `\(command.joined(separator: " "))`: \(what)")
                }
            }
            try FileManager.default.removeItem(atPath: log)
        }
        let runs = count * Self.commands.count
        let summary =
            "damage suite: seed \(seed), \(count) copies × \(Self.commands.count) commands = \(runs) runs: "
            + ["answered", "failed a check", "refused", "crashed", "unexpected"].map {
                "\(tally[$0, default: 0]) \($0)"
            }
            .joined(separator: ", ")
        print(summary)
        for problem in crashes + problems { print("damage suite: \(problem)") }
        #expect(problems.isEmpty, "\(summary)\n\(problems.joined(separator: "\n"))")
        #expect(crashes.isEmpty, "\(summary)\n\(crashes.joined(separator: "\n"))")
    }

    /// The commands whose answers are compared with the undamaged log's.
    static let answersChecked = [["export"], ["show", "1"]]

    /// Runs the tool with `arguments` and classifies how it ended; an answer must be `expected`
    /// when given (for `export`, its first lines will do). A first line of standard error that
    /// starts with `warning`, when given, is expected and set aside.
    static func run(_ arguments: [String], expected: String? = nil, warning: String? = nil) async throws -> Outcome {
        let running = try ToolRunner.start(arguments)
        try running.stdin.fileHandleForWriting.close()
        let errors = ReadAll(running.stderr.fileHandleForReading)
        let output = await running.stdout.fileHandleForReading.readToEndOffThePool()
        var stderr = String(decoding: await errors.wait(), as: UTF8.self)
        if let warning, stderr.hasPrefix(warning), let end = stderr.firstIndex(of: "\n") {
            stderr.removeSubrange(...end)
        }
        await running.process.exited()
        let status = running.process.terminationStatus
        if running.process.terminationReason == .uncaughtSignal { return .crashed(status) }
        let oneLine = stderr.hasPrefix("replay: ") && stderr.filter { $0 == "\n" }.count == 1
        switch status {
        case 0 where !output.isEmpty:
            let answer = String(decoding: output, as: UTF8.self)
            guard let expected, answer != expected else { return .answered }
            if arguments.first == "export", expected.hasPrefix(answer), answer.hasSuffix("\n") { return .answered }
            return .unexpected(
                "exit 0, but an answer that is not the undamaged log's: \(answer.prefix(200).debugDescription)")
        case 1 where arguments.first == "verify" && (oneLine || !output.isEmpty): return .failedCheck
        case 2 where oneLine: return .refused
        default:
            return .unexpected("exit \(status), \(output.count) bytes out, stderr \(stderr.debugDescription)")
        }
    }
}
