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
            revision says on standard error what it waits for.

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

    @Flag(help: "Print each revision as one FORMAT.md revision line.")
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
                for try await record in log.records(in: start...latest) { try emit(record) }
                return
            }
            if start > latest + 1 {
                // Likely a mistyped revision: say what the follower waits for instead of nothing.
                let holds = latest == 0 ? "\(log.path) is empty" : "the latest revision of \(log.path) is \(latest)"
                printError("waiting for revision \(start); \(holds)")
            }
            for try await event in log.subscribe(from: start) {
                if case .revision(let record) = event { try emit(record) }
            }
        }
    }

    /// Prints `record` at once: a follower reads each line as it comes.
    private func emit(_ record: RevisionRecord) throws(StandardOutput.Failure) {
        StandardOutput.writeLine(json ? record.jsonLine() : RevisionText.oneLine(record))
        try StandardOutput.flush()
    }
}
