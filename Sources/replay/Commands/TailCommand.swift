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
              replay tail --log app.lmdb --from 1 --json --changes-only
            """
    )

    @OptionGroup var logOptions: LogOptions

    @Option(help: ArgumentHelp("The first revision to print (default: the latest).", valueName: "revision"))
    var from: UInt64?

    @Flag(help: "Keep printing revisions as they are appended, until interrupted.")
    var follow = false

    @Flag(help: "Print each revision as one revision line of the interchange format (JSON).")
    var json = false

    @Flag(
        help: ArgumentHelp(
            "With --json: leave each line's snapshot out (revision, time, meta and changes), for a renderer "
                + "that holds the list; the snapshots are then not read."))
    var changesOnly = false

    func validate() throws {
        if from == 0 { throw ValidationError("revisions count from 1") }
        if changesOnly, !json { throw ValidationError("--changes-only shapes the --json lines; add --json") }
    }

    /// How each revision is printed.
    private var format: LineFormat { json ? (changesOnly ? .changesOnly : .json) : .text }

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
                if format == .json {
                    for try await record in log.records(in: start...latest) { try Self.emit(record) }
                } else {
                    // Neither a text line nor a changes-only line shows a snapshot: none is read.
                    for try await revision in log.changes(in: start...latest) { try Self.emit(revision, as: format) }
                }
                return
            }
            if start > latest + 1 {
                // Likely a mistyped revision: say what the follower waits for instead of nothing.
                let holds = latest == 0 ? "\(log.path) is empty" : "the latest revision of \(log.path) is \(latest)"
                printError("waiting for revision \(start); \(holds)")
            }
            try await Self.follow(log, from: start, format: format)
        }
    }

    /// How often a follower checks that the log it follows is still the one at its path.
    static let replacementCheckInterval = Duration.seconds(1)

    /// Prints the revisions from `start` as they come, until interrupted, or until the log is
    /// deleted, replaced or damaged: nothing would arrive from the old file any more.
    private static func follow(_ log: ChangeLog, from start: UInt64, format: LineFormat) async throws {
        try await withThrowingTaskGroup { group in
            group.addTask {
                if format == .json {
                    for try await event in log.subscribe(from: start) {
                        if case .revision(let record) = event { try emit(record) }
                    }
                } else {
                    // Neither a text line nor a changes-only line shows a snapshot: none is read,
                    // stored or live.
                    for try await event in log.subscribeChanges(from: start) {
                        if case .revision(let revision) = event { try emit(revision, as: format) }
                    }
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

    /// How `tail` prints a revision.
    enum LineFormat {
        /// One line of text (`RevisionText.oneLine`).
        case text
        /// The interchange format's revision line.
        case json
        /// The revision line without its snapshot.
        case changesOnly
    }

    /// Prints `record`'s revision line at once: a follower reads each line as it comes.
    private static func emit(_ record: RevisionRecord) throws(StandardOutput.Failure) {
        StandardOutput.writeLine(record.jsonLine())
        try StandardOutput.flush()
    }

    /// Prints `revision` (read without its snapshot) as a text or changes-only line, at once.
    private static func emit(_ revision: RevisionChanges, as format: LineFormat) throws(StandardOutput.Failure) {
        StandardOutput.writeLine(format == .changesOnly ? revision.jsonLine() : RevisionText.oneLine(revision))
        try StandardOutput.flush()
    }
}
