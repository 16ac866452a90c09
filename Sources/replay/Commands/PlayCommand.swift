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
            a second batch.
              text    prints the list as it evolves, changed rows marked with *
              jsonl   one JSON object per reload or batch, for renderers in other languages; an \
            updated item the data source wants reloaded, not reconfigured, carries "reload": true

            Example:
              replay play --log app.lmdb --into strict
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
    @OptionGroup var rangeOptions: RangeOptions

    @Option(help: "The renderer: strict, text or jsonl.")
    var into: Renderer = .strict

    /// Replays the range into the renderer; a refused batch or a damaged record exits with 1.
    func run() async throws {
        let report = try await failingWithBadInput {
            do {
                return try await replay()
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
        if into == .strict {
            if let range = report.range {
                print(
                    "replayed revisions \(range.lowerBound) to \(range.upperBound) into the strict renderer: "
                        + "\(report.batchesApplied) batches accepted")
            } else {
                print("the log is empty: nothing to replay")
            }
        }
    }

    /// Replays the range into the chosen renderer, with progress on standard error.
    private func replay() async throws -> ReplayReport {
        let log = try logOptions.openExisting()
        let range = try rangeOptions.range(in: log)
        var progress = Progress("replaying revisions", total: range.map { Int($0.count) })
        var done = 0
        let onProgress: (UInt64) -> Void = { _ in
            done += 1
            progress.update(done)
        }
        defer { progress.finish() }
        switch into {
        case .strict:
            var view = UIKitStrictRenderer<String, String, String>()
            return try await log.replay(range, into: &view, progress: onProgress)
        case .text:
            let renderer = TextListRenderer { StandardOutput.writeLine($0) }
            var target = renderer
            return try await log.replay(
                range, into: &target, willApply: { renderer.revision = $0 }, progress: onProgress)
        case .jsonl:
            let renderer = JSONLinesRenderer { StandardOutput.writeLine($0) }
            var target = renderer
            return try await log.replay(
                range, into: &target, willApply: { renderer.revision = $0 }, progress: onProgress)
        }
    }
}
