import ChangeLog
import ChangeLogTestSupport
import ChangeLogTools
import Foundation
import Testing

@Suite("replay reduce")
struct ReduceCommandTests {
    @Test("--until verify: two revisions, an importable history, and a test that compiles and fails")
    func verify() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (text, tampered) = ReduceFixtures.wrongUpdate()
        let input = try directory.write("bad.jsonl", text)
        let out = directory.url.appendingPathComponent("out")
        let result = try await ToolRunner.run(["reduce", "--input", input, "--until", "verify", "--out", out.path])
        #expect(result.status == 0, "\(result)")
        let original = ReductionSize(try ReducibleHistory(jsonLines: text))
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("original failure (verify snapshotMismatch, item update): revision ") == true)
        #expect(lines.dropFirst().first == "before: \(original)")
        #expect(lines.dropFirst(2).first?.hasPrefix("after:  2 revisions, ") == true, "\(result)")
        #expect(lines.contains { $0.hasPrefix("oracle calls: ") && $0.hasSuffix(" s") })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "reduced failure (verify snapshotMismatch, item update): revision 2: applying its changes to revision 1"
                )
            })
        #expect(lines.contains("wrote \(out.path)/history.jsonl"))
        #expect(lines.contains("wrote \(out.path)/ReducedTest.swift"))

        let reduced = try ReducibleHistory(
            jsonLines: String(contentsOf: out.appendingPathComponent("history.jsonl"), encoding: .utf8))
        #expect(reduced.revisionCount == 2)
        let test = try String(contentsOf: out.appendingPathComponent("ReducedTest.swift"), encoding: .utf8)
        #expect(test.contains("is original revision \(tampered) (meta: event="))

        // `replay import` takes the reduced history as recorded, its failing revision too; with
        // --recompute-changes, its snapshots only.
        let log = directory.path("imported.lmdb")
        let imported = try await ToolRunner.run([
            "import", out.appendingPathComponent("history.jsonl").path, "--log", log,
        ])
        #expect(imported.status == 0, "\(imported)")
        let verified = try await ToolRunner.run(["verify", "--log", log])
        #expect(verified.status == 1, "\(verified)")
        #expect(verified.stderr.hasPrefix("replay: verification failed: revision 2: "), "\(verified)")
        let recomputed = directory.path("recomputed.lmdb")
        let history = out.appendingPathComponent("history.jsonl").path
        #expect(try await ToolRunner.run(["import", history, "--log", recomputed, "--recompute-changes"]).status == 0)
        #expect(try await ToolRunner.run(["verify", "--log", recomputed]).status == 0)

        try await ReduceFixtures.expectReducedTestFails(
            in: out,
            saying:
                "revision 2 (original \(tampered)): applying its changes to the previous snapshot does not give its "
                + "snapshot")
    }

    @Test("--until strict from a log: two revisions and a test that fails with UIKit's refusal")
    func strict() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (text, tampered) = ReduceFixtures.doubleDeletion()
        let input = try directory.write("bad.jsonl", text)
        let out = directory.url.appendingPathComponent("out")
        let result = try await ToolRunner.run(
            ["reduce", "--input", input, "--until", "strict", "--out", out.path, "--from", "100"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("original failure (strict "), "\(result)")
        #expect(result.stdout.contains("\nbefore: 201 revisions, "), "\(result)")
        let reduced = try ReducibleHistory(
            jsonLines: String(contentsOf: out.appendingPathComponent("history.jsonl"), encoding: .utf8))
        #expect(reduced.revisionCount == 2)
        #expect(reduced.distinctItemCount <= 3)

        try await ReduceFixtures.expectReducedTestFails(
            in: out,
            saying:
                "revision 2 (original \(tampered)): the strict renderer refused the batch: attempt to delete the same "
                + "index path twice")
    }

    @Test("--predicate: a renderer bug that needs two batches in a row reduces to three revisions")
    func twoBatchPredicate() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let records = ChatHistory.records(count: 300, forced: DriftingRenderer.seed(at: 200))
        let input = try directory.write("history.jsonl", ReducibleHistory(records: records).jsonLines())
        let out = directory.url.appendingPathComponent("out")
        let predicate = "'\(ReduceFixtures.worker)' drifting-renderer"
        let result = try await ToolRunner.run(
            ["reduce", "--input", input, "--predicate", predicate, "--out", out.path, "--jobs", "2"])
        #expect(result.status == 0, "\(result)")
        let reduced = try ReducibleHistory(
            jsonLines: String(contentsOf: out.appendingPathComponent("history.jsonl"), encoding: .utf8))
        #expect(reduced.revisionCount == 3)
        #expect(reduced.distinctItemCount <= 2)
        #expect(DriftingRenderer.corruption(in: reduced) == 2)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("ReducedTest.swift").path))
        #expect(result.stdout.hasSuffix("wrote \(out.path)/history.jsonl\n"), "\(result)")
    }

    @Test("--predicate: two distant items, the same output whatever --jobs")
    func distantItems() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try directory.write(
            "history.jsonl", ReducibleHistory(records: ChatHistory.records(count: 300)).jsonLines())
        var outputs: [String] = []
        for jobs in ["1", "2"] {
            let out = directory.url.appendingPathComponent("out-\(jobs)")
            let result = try await ToolRunner.run(
                [
                    "reduce", "--input", input, "--predicate", ReduceFixtures.bothPresent("msg-4", "msg-150"),
                    "--out", out.path, "--jobs", jobs,
                ])
            #expect(result.status == 0, "\(result)")
            outputs.append(try String(contentsOf: out.appendingPathComponent("history.jsonl"), encoding: .utf8))
        }
        #expect(outputs[0] == outputs[1])
        let reduced = try ReducibleHistory(jsonLines: outputs[0])
        #expect(Set(reduced.revisions.flatMap { $0.snapshot.identifiers }) == ["msg-4", "msg-150"])
    }

    @Test(
        "an oracle that does not fail on the input, fails on nothing, or hangs is an error",
        arguments: [
            (["--predicate", "true"], "the predicate oracle does not fail on the whole history (300 revisions)"),
            (["--predicate", "false"], "the predicate oracle fails on the empty history too"),
            (["--predicate", "sleep 5", "--timeout", "0.2"], "the predicate ran longer than its timeout"),
            (["--predicate", "sleep 5", "--timeout", "0.2", "--timeout-means", "pass"], "does not fail on the whole"),
            (["--until", "verify"], "the verify oracle does not fail on the whole history"),
        ])
    func errors(oracle: [String], message: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try directory.write(
            "history.jsonl", ReducibleHistory(records: ChatHistory.records(count: 300)).jsonLines())
        let out = directory.path("out")
        let result = try await ToolRunner.run(["reduce", "--input", input, "--out", out] + oracle)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("replay: ") && result.stderr.contains(message), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test(
        "usage errors",
        arguments: [
            (["--input", "x.jsonl"], "give exactly one oracle"),
            (["--input", "x.jsonl", "--until", "verify", "--predicate", "true"], "give exactly one oracle"),
            (["--input", "x.jsonl", "--log", "x.lmdb", "--until", "verify"], "give either --log or --input"),
            (["--input", "x.jsonl", "--until", "strict", "--jobs", "0"], "--jobs must be at least 1"),
            (["--input", "x.jsonl", "--until", "sideways"], "sideways"),
        ])
    func usage(arguments: [String], message: String) async throws {
        let result = try await ToolRunner.run(["reduce"] + arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }

    @Test("--log: reads the log's revisions; a missing log is bad input")
    func fromLog() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("demo.lmdb")
        #expect(try await ToolRunner.run(["demo", "--log", log, "--revisions", "120"]).status == 0)
        let out = directory.path("out")
        let result = try await ToolRunner.run(
            ["reduce", "--log", log, "--predicate", ReduceFixtures.bothPresent("msg-2", "msg-30"), "--out", out])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("before: 120 revisions, "), "\(result)")
        #expect(result.stdout.contains(#/\nafter:  [12] revisions?, 2 items, [12] sections?\n/#), "\(result)")
        let missing = try await ToolRunner.run(["reduce", "--log", directory.path("none"), "--until", "verify"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("replay: no log at "), "\(missing)")
    }

    @Test("SIGINT writes the smallest failing history found so far, then ends by the signal")
    func interruption() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try directory.write(
            "history.jsonl", ReducibleHistory(records: ChatHistory.records(count: 300)).jsonLines())
        let calls = directory.path("calls")
        let release = directory.path("release")
        // From the 12th call on, each call waits (5 minutes at most, a guard against a hang)
        // until the test has sent the signal: the reduction cannot end before it, however busy
        // the machine. The tool's own limit on a call (--timeout) is longer still, so that a
        // call kept waiting by a busy machine is never ended by it.
        let predicate =
            "echo >> '\(calls)'; if [ $(wc -l < '\(calls)') -ge 12 ]; then i=0; "
            + "while [ ! -e '\(release)' ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done; fi; "
            + ReduceFixtures.bothPresent("msg-4", "msg-150")
        let out = directory.url.appendingPathComponent("out")
        let arguments = ["reduce", "--input", input, "--predicate", predicate, "--out", out.path, "--jobs", "1"]
        let running = try ToolRunner.start(arguments + ["--timeout", "600"])
        try running.stdin.fileHandleForWriting.close()
        // Interrupt once some candidates have been judged, so that a smaller failing one is known.
        while ((try? String(contentsOfFile: calls, encoding: .utf8)) ?? "").count < 12 {
            try await Task.sleep(nanoseconds: UInt64(20_000) * 1_000)
        }
        kill(running.process.processIdentifier, SIGINT)
        let output = ReadAll(running.stdout.fileHandleForReading)
        // Once the tool has said it was interrupted, the waiting call may go on.
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("replay: interrupted") {
            let chunk = await running.stderr.fileHandleForReading.nextChunkOffThePool()
            if chunk.isEmpty { break }
            said += chunk
        }
        _ = FileManager.default.createFile(atPath: release, contents: nil)
        let rest = await running.stderr.fileHandleForReading.readToEndOffThePool()
        let stderr = String(decoding: said + rest, as: UTF8.self)
        let stdout = String(decoding: await output.wait(), as: UTF8.self)
        await running.process.exited()
        #expect(running.process.terminationReason == .uncaughtSignal, "\(stderr)")
        #expect(running.process.terminationStatus == SIGINT)
        #expect(stderr.contains("replay: interrupted; writing the smallest failing history found so far"), "\(stderr)")
        #expect(stdout.contains("(interrupted: the smallest failing history found so far)"), "\(stdout)")
        let reduced = try ReducibleHistory(
            jsonLines: String(contentsOf: out.appendingPathComponent("history.jsonl"), encoding: .utf8))
        #expect(reduced.revisionCount < 300)
        let ids = Set(reduced.revisions.flatMap { $0.snapshot.identifiers })
        #expect(ids.contains("msg-4") && ids.contains("msg-150"))
    }
}
