import ArgumentParser
import ChangeLog
import ChangeLogTools
import Foundation
import ListAdapter

/// `replay play`: feeds a history into a renderer.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Feed the history into a renderer, batch by batch.",
        discussion: """
            Renderers:
              strict  a simulated UITableView enforcing UIKit's batch-update rules; a batch it \
            refuses ends the replay with exit 1 naming the revision. Each revision goes in the \
            stages UIKit accepts (ListChanges.stagedForUIKit()): one batch, then the reconfigures \
            of updated rows; a reload of a moved row, or of a row in a moved section, waits for \
            a second batch. This answers: does the library's own view path (ListAdapter, which \
            stages) apply the history?
              text    prints the list as it evolves, changed rows marked with *
              jsonl   one JSON object per reload or batch, for renderers in other languages; an \
            updated item the data source wants reloaded, not reconfigured, carries "reload": true

            --where (repeatable) plays only the revisions whose metadata satisfy every condition: \
            the first one arrives as its whole list, each later one as the changes that take the \
            list played before it to its own (those `replay diff --log` prints for the two), so \
            the renderer stays consistent and strict still checks every batch.

            --one-batch (with strict) answers another question: would an app that applies each \
            revision's recorded changes in one performBatchUpdates call crash? Every revision is \
            checked as one batch, unstaged; each one refused is printed on one line with the rule \
            it breaks ("needs staging" when staging would save it), and the replay goes on; exit \
            1 when any was refused.

            Example:
              replay play --log app.lmdb --into strict
              replay play --log app.lmdb --into strict --one-batch
              replay play --log app.lmdb --into text --where job=sync
            """
    )

    @OptionGroup var arguments: PlayArguments

    func run() async throws { try await arguments.run() }
}

/// The options of `replay play`, and the replay they ask for.
struct PlayArguments: ParsableArguments {
    enum Renderer: String, ExpressibleByArgument, CaseIterable {
        case strict, text, jsonl
    }

    @OptionGroup var logOptions: LogOptions
    @OptionGroup var inputOption: InputOption
    @OptionGroup var rangeOptions: RangeOptions
    @OptionGroup var timeOptions: TimeRangeOptions
    @OptionGroup var whereOptions: WhereOptions

    @Option(help: "The renderer: strict, text or jsonl.")
    var into: Renderer = .strict

    @Flag(
        help: ArgumentHelp(
            "With --into strict: check each revision's changes as one batch, unstaged, as an app applying "
                + "recorded changes directly would, and name every revision refused and the rule it breaks."))
    var oneBatch = false

    func validate() throws {
        try inputOption.validate(with: logOptions)
        if oneBatch, into != .strict { throw ValidationError("--one-batch checks with the strict renderer only") }
    }

    /// Replays the range into the renderer; a refused batch or a damaged record exits with 1.
    func run() async throws {
        let checker = OneBatchChecker()
        let (report, played) = try await failingWithBadInput {
            do {
                return try await replay(checker: checker)
            } catch let error as ChangeLogError where error.reportsDamage {
                // A revision whose record is damaged fails the replay, as it fails `verify`.
                printError("replay stopped: \(error.message)")
                throw ExitCode(ExitStatus.failedCheck)
            }
        }
        if let refusal = report.refusal {
            printError("replay refused: \(refusal)")
            throw ExitCode(ExitStatus.failedCheck)
        }
        if oneBatch {
            try Self.reportOneBatch(checker, range: report.range, played: played)
        } else if into == .strict {
            if let range = report.range {
                print(
                    "replayed \(Self.revisions(range, played: played)) into the strict renderer: "
                        + "\(report.batchesApplied) batches accepted")
            } else {
                print("the log is empty: nothing to replay")
            }
        }
    }

    /// What `--one-batch` found: every revision refused, one line each, then exit 1; or the
    /// batches accepted.
    private static func reportOneBatch(_ checker: OneBatchChecker, range: ClosedRange<UInt64>?, played: Int?) throws {
        guard let range else {
            print("the log is empty: nothing to replay")
            return
        }
        for refusal in checker.refusals { print(refusal) }
        let revisions = revisions(range, played: played)
        guard checker.refusals.isEmpty else {
            let staging = checker.refusals.count(where: \.needsStaging)
            printError(
                "replay refused: \(checker.refusals.count) of \(revisions) cannot be applied as one batch each "
                    + "(\(staging) of them would be accepted staged, as stagedForUIKit() stages them)")
            throw ExitCode(ExitStatus.failedCheck)
        }
        print(
            "replayed \(revisions) into the strict renderer, one batch each: \(checker.acceptedBatches) batches accepted"
        )
    }

    /// `revisions 2 to 9`, or with `--where`, `the 3 revisions from 2 to 9 that satisfy --where`.
    private static func revisions(_ range: ClosedRange<UInt64>, played: Int?) -> String {
        guard let played else { return "revisions \(range.lowerBound) to \(range.upperBound)" }
        let count = played == 1 ? "the 1 revision" : "the \(played) revisions"
        return "\(count) from \(range.lowerBound) to \(range.upperBound) that satisfy --where"
    }

    /// Replays the range into the chosen renderer, with progress on standard error; `played`
    /// counts the revisions played when `--where` chose them.
    private func replay(checker: OneBatchChecker) async throws -> (ReplayReport, played: Int?) {
        let log = try await inputOption.open(logOptions)
        let range = try timeOptions.narrowRequiringOne(rangeOptions.range(in: log), in: log)
        let filters = try whereOptions.filters()
        if let range, !filters.isEmpty {
            let outcome = try await replayMatching(FilteredReplay(log: log, range: range, filters: filters), checker)
            return (outcome.report, outcome.played)
        }
        return (try await replayAll(log, range, checker), nil)
    }

    /// Plays the revisions `--where` chose into the chosen renderer.
    private func replayMatching(_ filtered: FilteredReplay, _ checker: OneBatchChecker) async throws
        -> FilteredReplay.Outcome
    {
        var progress = Progress("replaying revisions", total: Int(filtered.range.count))
        var done = 0
        let onProgress: (UInt64) -> Void = { _ in
            done += 1
            progress.update(done)
        }
        defer { progress.finish() }
        switch into {
        case .strict where oneBatch:
            var target = checker
            return try await filtered.replay(into: &target, willApply: { checker.revision = $0 }, progress: onProgress)
        case .strict:
            var view = UIKitStrictRenderer<String, String, String>()
            return try await filtered.replay(into: &view, willApply: { _ in }, progress: onProgress)
        case .text:
            let renderer = TextListRenderer { StandardOutput.writeLine($0) }
            var target = renderer
            return try await filtered.replay(
                into: &target, willApply: { renderer.revision = $0 }, progress: onProgress)
        case .jsonl:
            let renderer = JSONLinesRenderer { StandardOutput.writeLine($0) }
            var target = renderer
            return try await filtered.replay(
                into: &target, willApply: { renderer.revision = $0 }, progress: onProgress)
        }
    }

    /// Replays every revision of the range into the chosen renderer.
    private func replayAll(_ log: ChangeLog, _ range: ClosedRange<UInt64>?, _ checker: OneBatchChecker)
        async throws -> ReplayReport
    {
        var progress = Progress("replaying revisions", total: range.map { Int($0.count) })
        var done = 0
        let onProgress: (UInt64) -> Void = { _ in
            done += 1
            progress.update(done)
        }
        defer { progress.finish() }
        switch into {
        case .strict where oneBatch:
            var target = checker
            return try await log.replay(
                range, into: &target, willApply: { checker.revision = $0 }, progress: onProgress)
        case .strict:
            var view = UIKitStrictRenderer<String, String, String>()
            return try await log.replay(range, into: &view, progress: onProgress)
        case .text:
            let renderer = TextListRenderer { StandardOutput.writeLine($0) }
            var target = renderer
            return try await log.replay(
                range, into: &target, willApply: { renderer.revision = $0 }, progress: onProgress)
        case .jsonl:
            // Its lines show the first snapshot, then changes only: no other snapshot is read.
            let renderer = JSONLinesRenderer { StandardOutput.writeLine($0) }
            let (replayed, batches) = try await log.replayChanges(
                range,
                reload: { revision, snapshot in
                    renderer.revision = revision
                    renderer.reloadData(snapshot)
                },
                apply: { revision in
                    renderer.revision = revision.revision
                    renderer.writeBatch(revision.changes)
                }, progress: onProgress)
            return ReplayReport(range: replayed, batchesApplied: batches, refusal: nil)
        }
    }
}
