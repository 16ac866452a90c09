import ArgumentParser
import ChangeLog
import Foundation
import ListFormat

/// `replay stats`: figures about a log.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print a log's revisions, time span, sizes and operation counts.",
        discussion: """
            Numbers have their digits in groups of three (1,234,567). Operation counts: \
            + inserted, - deleted, ~ moved, * updated.

            Example:
              replay stats --log app.lmdb
            """
    )

    @OptionGroup var logOptions: LogOptions
    @OptionGroup var inputOption: InputOption

    func validate() throws {
        try inputOption.validate(with: logOptions)
    }

    func run() async throws {
        try await failingWithBadInput {
            let log = try await inputOption.open(logOptions)
            var progress = Progress("reading revisions")
            let statistics = try await log.statistics { progress.update($0) }
            progress.finish()
            var lines = ["log            \(ExportInput.shownPath(ofLogAt: log.path))"]
            if let revisions = statistics.revisions {
                lines.append(
                    "revisions      \(NumberText.grouped(statistics.revisionCount)) (\(NumberText.grouped(revisions.lowerBound)) to "
                        + "\(NumberText.grouped(revisions.upperBound)))")
            } else {
                lines.append("revisions      0")
            }
            if let span = statistics.timeSpan {
                // In Double: a record may hold any time (a faulty writer), and Int64 would overflow.
                let seconds = (Double(span.upperBound) - Double(span.lowerBound)) / 1000
                lines.append(
                    "time span      \(Timestamp.iso8601(milliseconds: span.lowerBound)) to \(Timestamp.iso8601(milliseconds: span.upperBound)) "
                        + "(\(String(format: "%.3f", seconds)) s)")
            }
            lines.append(
                "on disk        \(NumberText.counted(statistics.bytesOnDisk, "byte")) (\(NumberText.grouped(statistics.bytesInUse)) in "
                    + "use, \(NumberText.grouped(statistics.bytesFree)) of them free for reuse)")
            lines.append("per revision   \(NumberText.counted(statistics.bytesPerRevision, "byte"))")
            if let largest = statistics.largestSnapshot {
                lines.append(
                    "largest        revision \(NumberText.grouped(largest.revision)): \(NumberText.counted(largest.items, "item")) in "
                        + NumberText.counted(largest.sections, "section"))
            }
            lines.append("operations     \(NumberText.operations(statistics.operations))")
            print(lines.joined(separator: "\n"))
        }
    }
}
