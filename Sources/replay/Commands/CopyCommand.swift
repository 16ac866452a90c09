import ArgumentParser
import ChangeLog
import ChangeLogTools
import Foundation

/// `replay copy --from LOG --to LOG`: copies a history from one log to another, across engines.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a log's revisions into another log, on the same engine or another.",
        discussion: """
            Each revision is copied as it is stored: its number, time, metadata, snapshot and \
            changes (changes that disagree with the snapshots stay as evidence, and `replay \
            verify` fails on both logs alike). Either log is a log directory (LMDB), a log \
            file (file:PATH) or a log on PostgreSQL (postgres://USER@HOST/DATABASE?log=NAME); \
            the target is created when missing, private to the user unless --mode says \
            otherwise.

            A copy resumes: when the target already holds revisions, they must be the source's \
            first ones (the target's latest revision is compared with the source's), and the \
            copy continues after them. An interrupted copy (SIGINT or SIGTERM) stops after the \
            batch being written and is finished by running the same command again.

            After copying, the copied revisions are verified in the target and compared with \
            the source's, revision by revision. Exits 1 when the target does not verify, 2 when \
            the logs differ or cannot be copied (a source whose oldest revisions were dropped \
            by retention: a new log starts at revision 1).

            Examples:
              replay copy --from app.lmdb --to file:app.changelog
              replay copy --from file:crash.changelog --to crash.lmdb
              replay copy --from app.lmdb --to 'postgres://app@db.internal/audit?log=inbox'
            """
    )

    @Option(help: ArgumentHelp("The log to copy from: a log directory or file:PATH.", valueName: "log"))
    var from: String

    @Option(help: ArgumentHelp("The log to copy into, created when missing.", valueName: "log"))
    var to: String

    @OptionGroup var modeOption: FileModeOption

    @Option(
        help: ArgumentHelp(
            "For a postgres:// log: a file whose first line is the password, when neither the URL nor "
                + "$PGPASSWORD gives one.",
            valueName: "file"))
    var passwordFile: String?

    @Option(
        help: ArgumentHelp(
            "Revisions written per transaction: an interruption keeps the batches before.", valueName: "n"))
    var batch = 256

    func validate() throws {
        guard batch > 0 else { throw ValidationError("--batch \(batch) must be at least 1") }
        guard from != to else {
            throw ValidationError("--from and --to name the same log: \(LogOptions.shown(from))")
        }
    }

    func run() async throws {
        // A PostgreSQL URL is shown without its password.
        let (from, to) = (LogOptions.shown(self.from), LogOptions.shown(self.to))
        let outcome = try await failingWithBadInput {
            let source = try LogOptions.openExisting(at: self.from, passwordFile: passwordFile)
            try LogCopy.checkSource(source, named: from)
            let target = try LogOptions.openOrCreate(
                at: self.to, fileMode: modeOption.fileMode, allowsFile: true, passwordFile: passwordFile)
            let copy = LogCopy(source: source, target: target, sourceName: from, targetName: to, batch: batch)
            let range = try copy.plan()
            return try await Interruption.catching(
                notice: "replay: interrupted; stopping after the batch being written (run the same command to resume)\n"
            ) {
                try await copy.run(range) { Interruption.signal }
            }
        }
        switch outcome {
        case .upToDate(0):
            print("\(from) is empty: nothing to copy")
        case .upToDate(let latest):
            print("\(to) already holds the \(latest) revisions of \(from)")
        case .copied(let range, let verification):
            print("copied revisions \(range.lowerBound) to \(range.upperBound) from \(from) to \(to)")
            if let failure = verification.failure {
                printError("the target does not verify: \(failure)")
                throw ExitCode(ExitStatus.failedCheck)
            }
            print("verified \(verification.revisionsChecked) revisions in \(to); they equal the source's")
        case .interrupted(let copied, let signal):
            if let copied {
                printError(
                    "copied revisions \(copied.lowerBound) to \(copied.upperBound); run the same command to resume")
            } else {
                printError("copied nothing; run the same command to copy")
            }
            Interruption.end(by: signal)
        }
    }
}
