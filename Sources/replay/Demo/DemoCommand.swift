import ArgumentParser
import ChangeLog
import Foundation
import ListAdapter

/// `replay demo`: records a realistic changing list through a ListAdapter, then verifies and
/// replays the log.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Record a simulated chat inbox, then verify the log and replay it into the strict renderer.",
        discussion: """
            The embedded default: a chat inbox where messages arrive, are edited, deleted, pinned \
            and unpinned, a drafts section comes and goes and the day rolls over. A ListAdapter \
            diffs every change and a recorder appends each one to the log; then the log is \
            verified and replayed into a simulated UITableView that enforces UIKit's rules.

            Example:
              replay demo --log /tmp/demo.lmdb --revisions 500
            """
    )

    @Option(
        name: .customLong("log"),
        help: ArgumentHelp(
            "The log directory: a new one, or one the demo recorded before (default: $REPLAY_LOG, else "
                + "./replay.lmdb).", valueName: "path")
    )
    var explicitPath: String?

    @Option(help: "How many changes to record.")
    var revisions = 300

    @Option(help: "The seed of the simulation (the same seed records the same history).")
    var seed: UInt64 = 2026

    func validate() throws {
        guard (1...100_000).contains(revisions) else { throw ValidationError("--revisions must be 1 to 100000") }
    }

    func run() async throws {
        let path = LogOptions.resolve(explicitPath)
        let summary = try await failingWithBadInput(onCommandThreads: false) {
            try await DemoRun(path: path, revisions: revisions, seed: seed).run()
        }
        print(summary.joined(separator: "\n"))
        if summary.isEmpty { throw ExitCode(ExitStatus.failedCheck) }
    }
}
