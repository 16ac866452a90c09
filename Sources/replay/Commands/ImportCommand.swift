import ArgumentParser
import ChangeLog
import Foundation

/// `replay import FILE|-`: appends one revision per snapshot line.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Append snapshots read as JSON Lines, one revision per line.",
        discussion: """
            Each line is a snapshot in the interchange format, with optional string metadata:
            {"meta": {"commit": "3f2a9c"}, "sections": [{"title": "Today", "items": [{"id": "a"}]}]}

            A line may also be a revision line as `replay export` writes it: its snapshot and \
            metadata are appended, with a new number, time and changes.

            Every line is checked before anything is appended: a bad line (not JSON, a missing \
            or mistyped field, a duplicate title or id, a key it reads named twice in one object) stops \
            the import with an error naming the line, and nothing of the file is appended, \
            unless --skip-invalid is given. The lines are then appended in one transaction, or \
            with --commit-every N in one per N lines. Creates the log when it does not exist, \
            private to the user (files 0600 in a 0700 directory) unless --mode says otherwise.

            Interrupted (SIGINT or SIGTERM), an import stops once the lines it is decoding \
            are done (up to 256 lines at a time), or abandons the transaction it is preparing \
            (one already being written commits first); it says which revisions it appended \
            and the line to resume from, and ends by that signal. A second interrupt ends it \
            at once: a transaction not yet committed is then not appended.

            The input is read to its end before anything is appended, since every line is \
            checked first: a producer's lines are appended once it has finished. Memory: the \
            input itself, and in one transaction every line decoded, three to eight times the \
            input's size (less when consecutive lines share most of their strings). With \
            --commit-every, lines past the first 16 MiB are decoded again when their \
            transaction comes, so decoded lines take at most about 16 MiB of input's worth.

            Examples:
              replay import history.jsonl --log app.lmdb
              replay import big.jsonl --commit-every 1000
              replay export --log old.lmdb | replay import - --log copy.lmdb
            """
    )

    @Argument(help: ArgumentHelp("The JSON Lines file, or - for standard input.", valueName: "file"))
    var file: String

    @OptionGroup var logOptions: LogOptions

    @OptionGroup var modeOption: FileModeOption

    @Option(
        help: ArgumentHelp(
            "Commit every N lines, so an import interrupted while appending keeps a gap-free prefix.",
            valueName: "N"))
    var commitEvery: Int?

    @Flag(help: "Report bad lines on standard error and skip them instead of stopping.")
    var skipInvalid = false

    func validate() throws {
        if let commitEvery, commitEvery < 1 { throw ValidationError("--commit-every must be at least 1") }
    }

    func run() async throws {
        try await failingWithBadInput {
            // Without --skip-invalid, a line with a NUL byte stops the import: no need to read on.
            let input = try readInput(file, stopAfterNUL: !skipInvalid)
            // The log is opened, or created, only once lines are ready to be appended: an import
            // refused before that leaves no log behind, and never removes one (another process
            // may be importing into the same new path at the same time).
            let logOptions = logOptions
            let fileMode = modeOption.fileMode
            let importer = SnapshotImporter(options: .init(commitEvery: commitEvery, skipInvalid: skipInvalid)) {
                try logOptions.openOrCreate(fileMode: fileMode)
            }
            var progress = Progress("importing lines")
            let report: SnapshotImporter.Report
            do {
                report = try await Interruption.catching {
                    try await importer.run(input: input) {
                        progress.update($0)
                    } stopRequested: {
                        Interruption.signal != nil
                    }
                }
            } catch let error as SnapshotImportInterrupted {
                progress.finish()
                printError(Self.describe(error, input: inputName, log: logOptions.path))
                Interruption.end(by: Interruption.signal ?? SIGINT)
            } catch let error as SnapshotAppendError {
                progress.finish()
                throw InputError(Self.describe(error, input: inputName, log: logOptions.path))
            } catch {
                progress.finish()
                guard let error = error as? SnapshotImportError else { throw error }
                throw InputError("\(inputName), \(error); nothing was appended")
            }
            progress.finish()
            for skipped in report.skipped {
                printError("skipped \(inputName), \(skipped)")
            }
            let summary = "appended \(report.revisionsSummary ?? "nothing") to \(logOptions.path)"
            print(summary)
            if !report.skipped.isEmpty { print("skipped \(report.skipped.count) invalid lines") }
            do {
                try StandardOutput.flush()
            } catch {
                // Exit status 74 alone would read as a failed import, and a retry would append
                // every line again: say on standard error that the revisions are in the log.
                printError("\(summary); this report could not be written to standard output")
                throw error
            }
        }
    }

    /// The input as messages name it.
    private var inputName: String { file == "-" ? "standard input" : file }

    /// What an append that failed midway did and did not append: the transactions committed
    /// before it stay in the log, so a retry of the whole input would append them twice.
    static func describe(_ error: SnapshotAppendError, input: String, log: String) -> String {
        let cause = error.cause.message + (error.cause.cause.map { " (\($0))" } ?? "")
        let line = error.firstLineNotAppended
        let kept = keptBefore(line, of: error.report, input: input, log: log)
        return "\(input): appending line \(line) and the lines after it failed: \(cause); \(kept)"
    }

    /// Where an interrupted import stopped, and what it appended before.
    static func describe(_ error: SnapshotImportInterrupted, input: String, log: String) -> String {
        guard let line = error.firstLineNotAppended else {
            return "\(input): interrupted while checking line \(error.report.linesRead); nothing was appended"
        }
        return
            "\(input): interrupted before line \(line); \(keptBefore(line, of: error.report, input: input, log: log))"
    }

    /// What an import that stopped before `line` appended and how to finish it, or that it
    /// appended nothing.
    private static func keptBefore(_ line: Int, of report: SnapshotImporter.Report, input: String, log: String)
        -> String
    {
        guard let appended = report.revisionsSummary else { return "nothing was appended" }
        return "\(appended), from the lines before line \(line), were appended to \(log) and stay there "
            + "(to finish, import \(input) from line \(line) on)"
    }
}
