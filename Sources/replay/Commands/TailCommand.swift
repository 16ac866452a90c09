import ArgumentParser
import ChangeLog
import Foundation

/// `replay tail`: prints revisions from R, and with `--follow` the ones appended later.
struct TailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Print revisions from R; with --follow, keep printing new ones until interrupted.",
        discussion: """
            With --follow, revisions appended later by this or any other process are printed as \
            they are committed, each exactly once and in order. Following from beyond the next \
            revision says on standard error what it waits for. A follower stops with status 2 \
            when the log is deleted, replaced or damaged (its data file cut short, say).

            Examples:
              replay tail --log app.lmdb --from 1 --follow
              replay tail --follow --json | my-renderer
            """
    )

    @OptionGroup var logOptions: LogOptions

    @Option(help: ArgumentHelp("The first revision to print (default: the latest).", valueName: "revision"))
    var from: UInt64?

    @Flag(help: "Keep printing revisions as they are appended, until interrupted.")
    var follow = false

    @Flag(help: "Print each revision as one revision line of the interchange format (JSON).")
    var json = false

    func validate() throws {
        if from == 0 { throw ValidationError("revisions count from 1") }
    }

    func run() async throws {
        try await failingWithBadInput {
            let log = try logOptions.openExisting()
            let latest = try log.latestRevision
            let start = from ?? max(latest, 1)
            if !follow {
                // An empty log has no latest revision to show, as `log` and `export` show none.
                if latest == 0 && from == nil { return }
                if start > latest {
                    throw InputError.outOfRange(start, in: log, first: try log.firstRevision, latest: latest)
                }
                for try await record in log.records(in: start...latest) { try Self.emit(record, json: json) }
                return
            }
            if start > latest + 1 {
                // Likely a mistyped revision: say what the follower waits for instead of nothing.
                let holds = latest == 0 ? "\(log.path) is empty" : "the latest revision of \(log.path) is \(latest)"
                printError("waiting for revision \(start); \(holds)")
            }
            try await Self.follow(log, from: start, json: json)
        }
    }

    /// How often a follower checks that the log it follows is still the one at its path.
    static let replacementCheckInterval = Duration.seconds(1)

    /// Prints the revisions from `start` as they come, until interrupted, or until the log is
    /// deleted, replaced or damaged: nothing would arrive from the old file any more.
    private static func follow(_ log: ChangeLog, from start: UInt64, json: Bool) async throws {
        try await withThrowingTaskGroup { group in
            group.addTask {
                for try await event in log.subscribe(from: start) {
                    if case .revision(let record) = event { try emit(record, json: json) }
                }
            }
            group.addTask {
                while log.isStillAtPath {
                    // A read fails when the data file was cut short or damaged behind the follower's
                    // back: nothing could be appended any more either.
                    _ = try log.latestRevision
                    try await Task.sleep(for: replacementCheckInterval)
                }
                throw InputError(
                    "the log at \(log.path) was deleted or replaced while it was followed; run tail again to "
                        + "follow the log there now")
            }
            // The subscription ends only by an error; either task's error ends both.
            try await group.next()
            group.cancelAll()
        }
    }

    /// Prints `record` at once: a follower reads each line as it comes.
    private static func emit(_ record: RevisionRecord, json: Bool) throws(StandardOutput.Failure) {
        StandardOutput.writeLine(json ? record.jsonLine() : RevisionText.oneLine(record))
        try StandardOutput.flush()
    }
}
