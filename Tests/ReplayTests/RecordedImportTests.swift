import Foundation
import Testing

/// `replay import` keeps what a revision line recorded (its changes, time and meta) as evidence,
/// and `--recompute-changes` diffs instead.
@Suite("replay import keeps recorded changes")
struct RecordedImportTests {
    @Test("a broken export: import keeps the wrong move, verify names revision 7 and its items, strict play fails")
    func brokenExport() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let export = try await RecordedHistoryFixtures.brokenExport(in: directory)
        let file = try directory.write("broken.jsonl", export)
        let log = directory.path("crash.lmdb")

        let imported = try await ToolRunner.run(["import", file, "--log", log])
        #expect(imported.status == 0, "\(imported)")
        #expect(
            imported.stdout
                == "appended revisions 1 to 8 (8) to \(log)\n"
                + "stored 1 revision as recorded whose changes do not take the previous snapshot to their own: 7 "
                + "(replay verify names the first; --recompute-changes diffs them instead)\n")

        // Every revision as it came: numbers, times, meta, snapshots and changes, the wrong move too.
        let exported = try await ToolRunner.run(["export", "--log", log])
        #expect(exported.status == 0, "\(exported)")
        #expect(exported.stdout == export)

        let verified = try await ToolRunner.run(["verify", "--log", log])
        #expect(verified.status == 1, "\(verified)")
        #expect(
            verified.stderr
                == "replay: verification failed: revision 7: applying its changes to revision 6 does not give the "
                + #"stored snapshot: section 0 "S": item [0, 3] expected "a" (summary "hi") but found "e"; "#
                + #"section 0 "S": item [0, 4] expected "e" but found "a" (summary "hi")"# + "\n")

        let played = try await ToolRunner.run(["play", "--log", log, "--into", "strict"])
        #expect(played.status == 1, "\(played)")
        #expect(played.stderr.hasPrefix("replay: replay refused: revision 7"), "\(played.stderr)")

        // The reading commands take such a revision in their stride; the text renderer, which
        // applies each batch, stops at it as the strict one does.
        for command in [["show", "7"], ["log"], ["stats"]] {
            let result = try await ToolRunner.run(command + ["--log", log])
            #expect(result.status == 0, "\(command): \(result)")
        }
        let text = try await ToolRunner.run(["play", "--into", "text", "--log", log])
        #expect(text.status == 1, "\(text)")
        #expect(text.stderr.hasPrefix("replay: replay refused: revision 7"), "\(text.stderr)")
    }

    @Test("--recompute-changes diffs every line: the wrong move is gone and verify passes")
    func recompute() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("broken.jsonl", try await RecordedHistoryFixtures.brokenExport(in: directory))
        let log = directory.path("recomputed.lmdb")
        let imported = try await ToolRunner.run(["import", file, "--log", log, "--recompute-changes"])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == "appended revisions 1 to 8 (8) to \(log)\n")
        #expect(try await ToolRunner.run(["verify", "--log", log]).status == 0)
        let exported = try await ToolRunner.run(["export", "--log", log, "--from", "7", "--to", "7"])
        #expect(exported.stdout.contains(RecordedHistoryFixtures.rightMove), "\(exported)")
    }

    @Test("streamed in batches, the recorded changes and the count are the same")
    func streamed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let export = try await RecordedHistoryFixtures.brokenExport(in: directory)
        let file = try directory.write("broken.jsonl", export)
        let log = directory.path("streamed.lmdb")
        let imported = try await ToolRunner.run(["import", file, "--log", log, "--commit-every", "3"])
        #expect(imported.status == 0, "\(imported)")
        #expect(
            imported.stdout.hasSuffix(
                "do not take the previous snapshot to their own: 7 "
                    + "(replay verify names the first; --recompute-changes diffs them instead)\n"), "\(imported)")
        #expect(try await ToolRunner.run(["export", "--log", log]).stdout == export)
    }

    @Test("recorded times are kept even when they go backwards")
    func backwardsTimes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let export =
            #"{"revision":1,"time":"2026-11-20T10:00:00.000Z","meta":{},"snapshot":{"sections":[]},"changes":{}}"#
            + "\n"
            + #"{"revision":2,"time":"2020-01-01T00:00:00.000Z","meta":{},"snapshot":{"sections":[]},"changes":{}}"#
            + "\n"
        let log = directory.path("times.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: export).status == 0)
        let exported = try await ToolRunner.run(["export", "--log", log])
        #expect(exported.stdout.contains(#""time":"2026-11-20T10:00:00.000Z""#), "\(exported)")
        #expect(exported.stdout.contains(#""time":"2020-01-01T00:00:00.000Z""#), "\(exported)")
        #expect(try await ToolRunner.run(["verify", "--log", log]).status == 0)
    }
}
