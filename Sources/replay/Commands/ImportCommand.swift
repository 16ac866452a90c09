import ArgumentParser
import ChangeLog
import ChangeLogTools
import Foundation

/// `replay import FILE|-`: appends one revision per snapshot line.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Append snapshots read as JSON Lines, one revision per line.",
        discussion: """
            Each line is a snapshot in the interchange format, with optional string metadata:
            {"meta": {"commit": "3f2a9c"}, "sections": [{"title": "Today", "items": [{"id": "a"}]}]}

            A line may also be a revision line as `replay export` writes it. One with "changes" \
            is kept as it was recorded, as evidence: its snapshot, metadata, changes and time \
            (when it has one; times may then go backwards) are appended as they are, numbered \
            after the log's latest revision (the line's own number is not kept). Changes that do \
            not take the previous snapshot to the line's own are stored all the same: the import \
            counts and names such revisions, and `replay verify` fails on the first. A snapshot \
            line, or a revision line without "changes", is diffed from the revision before. \
            --recompute-changes diffs every line instead, keeping only snapshots and metadata; \
            so does --drop-duplicates for a line it drops something from.

            Without --commit-every, every line is checked before anything is appended: a bad \
            line (not JSON, a missing or mistyped field, a duplicate title or id, a key it reads \
            named twice in one object) stops the import with an error naming the line, and \
            nothing of the file is appended, unless --skip-invalid is given; the lines are then \
            appended in one transaction. Creates the log when it does not exist, private to the \
            user (files 0600 in a 0700 directory) unless --mode says otherwise.

            With --commit-every N, the input is streamed: N lines at a time are read, checked \
            and appended in one transaction, so memory is bounded by N lines, not the input, \
            and a producer's lines are appended as they come. A bad line then stops the import \
            with an error naming it: the batches before the bad line's batch stay appended, no \
            line of its batch or after is, and the error prints the command that finishes the \
            import once the line is fixed (--from-line, the first line of that batch).

            --from-line N starts at line N: the lines before it are skipped without being \
            checked. It is the way to finish an import that stopped after appending some lines.

            --drop-duplicates keeps the first occurrence of each section title and item id of \
            a line and drops the rest, instead of refusing the line: a section whose title an \
            earlier section has goes with all its items, then an item whose id an earlier item \
            (in any remaining section) has goes. The revision's meta records what was dropped \
            under the key "dropped-duplicates", as compact JSON with positions in the line as \
            given, e.g. [{"title":"A","at":[2],"first":[0],"items":3},{"id":"b","at":[0,3],"first":[0,1]}]. \
            A line that drops something while its own meta has that key is a bad line; a line \
            that drops nothing keeps its meta as it is.

            Interrupted (SIGINT or SIGTERM), an import stops once the lines it is decoding \
            are done (up to 256 lines at a time), or abandons the transaction it is preparing \
            (one already being written commits first); it says which revisions it appended \
            and the command to resume with, and ends by that signal. A second interrupt ends it \
            at once: a transaction not yet committed is then not appended.

            Memory without --commit-every: the input itself, and every line decoded, three to \
            eight times the input's size (less when consecutive lines share most of their \
            strings). With --commit-every: one batch of N lines, read, decoded and appended.

            Examples:
              replay import history.jsonl --log app.lmdb
              replay import big.jsonl --commit-every 1000
              replay import big.jsonl --commit-every 1000 --from-line 5001
              replay import feed.jsonl --drop-duplicates
              replay export --log old.lmdb | replay import - --log copy.lmdb
            """
    )

    @Argument(help: ArgumentHelp("The JSON Lines file, or - for standard input.", valueName: "file"))
    var file: String

    @OptionGroup var logOptions: LogOptions

    @OptionGroup var modeOption: FileModeOption

    @Option(
        help: ArgumentHelp(
            "Stream the input N lines at a time, one transaction each: memory holds N lines, and an "
                + "import stopped midway keeps the batches before.",
            valueName: "N"))
    var commitEvery: Int?

    @Flag(help: "Report bad lines on standard error and skip them instead of stopping.")
    var skipInvalid = false

    @Option(
        help: ArgumentHelp(
            "Start at line N: the lines before it are skipped unread, as after an import that stopped before line N.",
            valueName: "N"))
    var fromLine: Int?

    @Flag(
        help: ArgumentHelp(
            "Keep the first of each repeated section title and item id in a line, drop the rest, and record "
                + #"what was dropped in the revision's meta ("dropped-duplicates")."#))
    var dropDuplicates = false

    @Flag(
        help: ArgumentHelp(
            "Diff every line from the revision before, as for a snapshot line, instead of keeping a revision "
                + "line's own changes and time."))
    var recomputeChanges = false

    func validate() throws {
        if let commitEvery, commitEvery < 1 { throw ValidationError("--commit-every must be at least 1") }
        if let fromLine, fromLine < 1 { throw ValidationError("--from-line must be at least 1") }
    }

    func run() async throws {
        try await failingWithBadInput {
            let logOptions = logOptions
            let fileMode = modeOption.fileMode
            // The log is opened, or created, only once lines are ready to be appended: an import
            // refused before that leaves no log behind, and never removes one (another process
            // may be importing into the same new path at the same time). A streaming import's
            // batches share the log its first batch opened.
            let opened = OpenedLog {
                try logOptions.openOrCreate(fileMode: fileMode)
            }
            let importOptions = SnapshotImporter.Options(
                commitEvery: commitEvery, skipInvalid: skipInvalid,
                duplicatePolicy: dropDuplicates ? .keepFirst : .refuse, recomputesChanges: recomputeChanges)
            let importer = SnapshotImporter(options: importOptions) {
                try opened.log()
            }
            var progress = Progress("importing", unit: commitEvery == nil ? .items("lines") : .bytes)
            let report: SnapshotImporter.Report
            do {
                report = try await Interruption.catching {
                    if let commitEvery {
                        return try await streamingImport(importer, batch: commitEvery, progress: &progress)
                    }
                    // Without --skip-invalid, a line with a NUL byte stops the import: no need to read on.
                    let (input, firstLine) = try inputFromFirstLine()
                    progress.total = firstLine - 1 + Self.lineCount(input)
                    progress.phase = "checking"
                    return try await importer.run(input: input, firstLineNumber: firstLine) {
                        progress.update($0)
                    } appending: { lines in
                        progress.phase = "appending"
                        progress.update(lines.lowerBound - 1, now: true)
                    } stopRequested: {
                        Interruption.signal != nil
                    }
                }
            } catch let error as SnapshotImportInterrupted {
                progress.finish()
                printError(describe(error))
                Interruption.end(by: Interruption.signal ?? SIGINT)
            } catch let error as SnapshotAppendError {
                progress.finish()
                throw InputError(describe(error))
            } catch let error as StreamedLineError {
                progress.finish()
                throw InputError(describe(error))
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
            if let disagreeing = Self.disagreeingSummary(report.disagreeing) { print(disagreeing) }
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

    /// The whole input from line `--from-line` on, and that line's number.
    private func inputFromFirstLine() throws -> (Data, Int) {
        let input = try readInput(file, stopAfterNUL: !skipInvalid)
        guard let fromLine, fromLine > 1 else { return (input, 1) }
        var start = input.startIndex
        for line in 1..<fromLine {
            guard let feed = input[start...].firstIndex(of: UInt8(ascii: "\n")), feed + 1 < input.endIndex else {
                throw InputError(Self.tooShort(inputName, lines: line, fromLine: fromLine))
            }
            start = feed + 1
        }
        return (input[start...], fromLine)
    }

    /// What the import says of the revisions it stored with changes that disagree with their
    /// snapshots: how many, and which (the first ten), or `nil` when there are none.
    static func disagreeingSummary(_ revisions: [UInt64]) -> String? {
        guard !revisions.isEmpty else { return nil }
        let listed = revisions.prefix(10).map(String.init).joined(separator: ", ")
        let more = revisions.count > 10 ? " and \(revisions.count - 10) more" : ""
        let count = revisions.count == 1 ? "1 revision" : "\(revisions.count) revisions"
        return "stored \(count) as recorded whose changes do not take the previous snapshot to their own: "
            + "\(listed)\(more) (replay verify names the first; --recompute-changes diffs them instead)"
    }

    /// The number of lines of `input`: a final line feed ends the last line.
    static func lineCount(_ input: Data) -> Int {
        let feeds = input.reduce(into: 0) { count, byte in if byte == UInt8(ascii: "\n") { count += 1 } }
        return feeds + (input.last.map { $0 == UInt8(ascii: "\n") ? 0 : 1 } ?? 0)
    }

    /// The refusal of a `--from-line` past the input's last line.
    static func tooShort(_ input: String, lines: Int, fromLine: Int) -> String {
        "\(input) has \(lines == 1 ? "1 line" : "\(lines) lines"): there is no line \(fromLine) to start from"
    }

    /// The input as messages name it.
    var inputName: String { file == "-" ? "standard input" : file }

    /// What an append that failed midway did and did not append: the transactions committed
    /// before it stay in the log, so a retry of the whole input would append them twice.
    func describe(_ error: SnapshotAppendError) -> String {
        let cause = error.cause.message + (error.cause.cause.map { " (\($0))" } ?? "")
        let line = error.firstLineNotAppended
        return "\(inputName): appending line \(line) and the lines after it failed: \(cause); "
            + keptBefore(line, of: error.report)
    }

    /// Where an interrupted import stopped, and what it appended before.
    func describe(_ error: SnapshotImportInterrupted) -> String {
        guard let line = error.firstLineNotAppended else {
            return "\(inputName): interrupted while checking line \(error.report.linesRead); nothing was appended"
        }
        return "\(inputName): interrupted before line \(line); \(keptBefore(line, of: error.report))"
    }

    /// A bad line met by a streaming import, after the batches before it were appended.
    func describe(_ error: StreamedLineError) -> String {
        "\(inputName), \(error.error); \(keptBefore(error.firstLineNotAppended, of: error.report, fix: error.error.line))"
    }

    /// What an import that stopped before `line` appended and the command that finishes it
    /// (after fixing line `fix`, when a bad line stopped it), or that it appended nothing.
    private func keptBefore(_ line: Int, of report: SnapshotImporter.Report, fix: Int? = nil) -> String {
        guard let appended = report.revisionsSummary else { return "nothing was appended" }
        let fixFirst = fix.map { "fix line \($0), then " } ?? ""
        let command =
            "replay import \(shellQuoted(file)) --log \(shellQuoted(logOptions.path)) --from-line \(line)"
            + (commitEvery.map { " --commit-every \($0)" } ?? "") + (dropDuplicates ? " --drop-duplicates" : "")
            + (recomputeChanges ? " --recompute-changes" : "")
        let how =
            file == "-"
            ? "\(fixFirst)give the same input again to: \(command)"
            : "\(fixFirst)run: \(command)"
        return "\(appended), from the lines before line \(line), were appended to \(logOptions.path) and stay there "
            + "(to finish, \(how))"
    }
}
