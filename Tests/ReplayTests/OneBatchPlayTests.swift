import Foundation
import Testing

/// `replay play --into strict` checks the stages `stagedForUIKit()` delivers; `--one-batch`
/// checks each revision's recorded changes as one `performBatchUpdates` batch.
@Suite("replay play --one-batch")
struct OneBatchPlayTests {
    @Test("a reload of a moved item passes staged play and fails one-batch play, naming each revision and the rule")
    func reloadOfMovedItem() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("moves.lmdb")
        let imported = try await ToolRunner.run(
            ["import", "-", "--log", log], input: RecordedHistoryFixtures.reloadsOfMovedItems)
        #expect(imported.status == 0, "\(imported)")

        let staged = try await ToolRunner.run(["play", "--log", log, "--into", "strict"])
        #expect(staged.status == 0, "\(staged)")
        #expect(staged.stdout == "replayed revisions 1 to 5 into the strict renderer: 5 batches accepted\n")

        let oneBatch = try await ToolRunner.run(["play", "--log", log, "--into", "strict", "--one-batch"])
        #expect(oneBatch.status == 1, "\(oneBatch)")
        let lines = oneBatch.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(oneBatch)")
        #expect(lines.first?.hasPrefix("revision 3 needs staging: updatedItemMoved: ") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("revision 5 needs staging: updatedItemMoved: ") == true, "\(lines)")
        #expect(
            oneBatch.stderr
                == "replay: replay refused: 2 of revisions 1 to 5 cannot be applied as one batch each (2 of them "
                + "would be accepted staged, as stagedForUIKit() stages them)\n")

        // Revisions without a reload of a moved item pass one batch each.
        let clean = try await ToolRunner.run(
            ["play", "--log", log, "--into", "strict", "--one-batch", "--from", "4", "--to", "4"])
        #expect(clean.status == 0, "\(clean)")
        #expect(
            clean.stdout == "replayed revisions 4 to 4 into the strict renderer, one batch each: 1 batches accepted\n")
    }

    @Test("one-batch play names a wrong recorded move as refused, not as needing staging")
    func wrongMove() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("broken.jsonl", try await RecordedHistoryFixtures.brokenExport(in: directory))
        let result = try await ToolRunner.run(["play", "--input", file, "--into", "strict", "--one-batch"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix("revision 7 is refused: "), "\(result)")
        #expect(result.stdout.split(separator: "\n").count == 1, "\(result)")
    }

    @Test("--one-batch with another renderer is a usage error")
    func otherRenderer() async throws {
        let result = try await ToolRunner.run(["play", "--log", "/nonexistent", "--into", "text", "--one-batch"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--one-batch checks with the strict renderer only"), "\(result)")
    }
}
