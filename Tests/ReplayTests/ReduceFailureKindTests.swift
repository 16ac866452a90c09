import ChangeLog
import ChangeLogTestSupport
import ChangeLogTools
import Foundation
import Testing

/// `replay reduce` keeps the original failure's kind: on an export whose revision 7 stores a move
/// with its `to` off by one (``BrokenMoveHistory``), the reduced history still fails on that move,
/// and its emitted test fails with the message `reduce` printed.
@Suite("replay reduce keeps the failure")
struct ReduceFailureKindTests {
    /// The revision lines of ``BrokenMoveHistory``, written to `directory`.
    static func brokenExport(in directory: TemporaryDirectory) async throws -> String {
        try directory.write("broken.jsonl", ReducibleHistory(records: BrokenMoveHistory.records).jsonLines())
    }

    /// The value of the output line that starts with `prefix`.
    static func line(_ prefix: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    @Test(
        "--until verify and --until strict keep a move in the reduced history, and the test fails with its message",
        arguments: [
            ("verify", "(verify snapshotMismatch, item move)"),
            ("strict", "(strict identifiersDiffer, item move)"),
        ])
    func keepsTheMove(oracle: String, kind: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try await Self.brokenExport(in: directory)
        let out = directory.url.appendingPathComponent("out")
        let result = try await ToolRunner.run(["reduce", "--input", input, "--until", oracle, "--out", out.path])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("original failure \(kind): revision 7") == true, "\(result)")
        let reducedFailure = try #require(Self.line("reduced failure ", in: result.stdout), "\(result)")
        #expect(reducedFailure.hasPrefix(kind), "\(result)")
        let message = try #require(Self.line("the test fails with: ", in: result.stdout), "\(result)")
        #expect(lines.last == "the test fails with: \(message)")
        #expect(message.contains("(original 7)"), "\(message)")

        let reduced = try ReducibleHistory(
            jsonLines: String(contentsOf: out.appendingPathComponent("history.jsonl"), encoding: .utf8))
        #expect(reduced.records.contains { !$0.changes.movedItems.isEmpty }, "\(reduced.jsonLines())")
        let test = try String(contentsOf: out.appendingPathComponent("ReducedTest.swift"), encoding: .utf8)
        #expect(test.contains("let reducedFailure = \""))
        try await ReduceFixtures.expectReducedTestFails(in: out, saying: message)
    }

    @Test("--any-failure accepts another failure; the default does not, and a predicate's failures have no kind")
    func anyFailure() async throws {
        let history = ReducibleHistory(records: BrokenMoveHistory.records)
        let kept = try await HistoryReducer(history: history, oracle: .verify).reduce()
        let any = try await HistoryReducer(history: history, oracle: .verify, keepsFailureKind: false).reduce()
        guard case .fails(let original, _, _) = kept.originalVerdict, case .fails(let reduced, _, _) = kept.verdict
        else {
            Issue.record("the reductions do not fail: \(kept.verdict)")
            return
        }
        #expect(original == "verify snapshotMismatch, item move")
        #expect(reduced == original)
        #expect(ReductionSize(any.reduced) <= ReductionSize(kept.reduced))

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try await Self.brokenExport(in: directory)
        let out = directory.path("out")
        let result = try await ToolRunner.run([
            "reduce", "--input", input, "--until", "verify", "--any-failure", "--out", out,
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("reduced failure (verify "), "\(result)")
        let help = try await ToolRunner.run(["reduce", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("A --predicate's failures have no kind"), "\(help)")
        #expect(words.contains("--any-failure"), "\(help)")
    }
}
