import ArgumentParser
import ChangeLog
import Foundation

/// `replay verify`: proves each revision's changes take the previous snapshot to the stored one.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that every revision's changes take the previous snapshot to the stored one.",
        discussion: """
            For each revision: the checksums of its record, the validity of its changes under the \
            interchange format's rules, and that applying them to the previous snapshot gives the \
            stored snapshot exactly. Exit 0 when every revision verifies; exit 1 with a report \
            naming the first failing revision and what differs. With --input, an export is \
            checked as it came: its revisions with their recorded changes.

            Examples:
              replay verify --log app.lmdb --from 100
              replay verify --input crash.jsonl.gz
            """
    )

    @OptionGroup var logOptions: LogOptions
    @OptionGroup var inputOption: InputOption
    @OptionGroup var rangeOptions: RangeOptions
    @OptionGroup var timeOptions: TimeRangeOptions

    func validate() throws {
        try inputOption.validate(with: logOptions)
    }

    func run() async throws {
        let report = try await failingWithBadInput {
            do {
                let log = try await inputOption.open(logOptions)
                let range = try timeOptions.narrowRequiringOne(rangeOptions.range(in: log), in: log)
                var progress = Progress("verifying revisions", total: range.map { Int($0.count) })
                var done = 0
                let report = try await log.verify(range) { _ in
                    done += 1
                    progress.update(done)
                }
                progress.finish()
                return report
            } catch let error as ChangeLogError where error.reportsDamage {
                // Damage found before the walk could start (a damaged first key, say) fails the
                // check as damage found during it does.
                printError("verification failed: \(error.message)")
                throw ExitCode(ExitStatus.failedCheck)
            }
        }
        if let failure = report.failure {
            printError("verification failed: \(failure)")
            throw ExitCode(ExitStatus.failedCheck)
        }
        if let range = report.range {
            print("verified revisions \(range.lowerBound) to \(range.upperBound) (\(report.revisionsChecked)): ok")
        } else {
            print("the log is empty: nothing to verify")
        }
    }
}
