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
            Example:
              replay stats --log app.lmdb
            """
    )

    @OptionGroup var logOptions: LogOptions

    func run() async throws {
        try await failingWithBadInput {
            let log = try logOptions.openExisting()
            var progress = Progress("reading revisions")
            let statistics = try await log.statistics { progress.update($0) }
            progress.finish()
            var lines = ["log            \(log.path)"]
            if let revisions = statistics.revisions {
                lines.append(
                    "revisions      \(statistics.revisionCount) (\(revisions.lowerBound) to \(revisions.upperBound))")
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
                "on disk        \(statistics.bytesOnDisk) bytes (\(statistics.bytesInUse) in use, "
                    + "\(statistics.bytesFree) of them free for reuse)")
            lines.append("per revision   \(statistics.bytesPerRevision) bytes")
            if let largest = statistics.largestSnapshot {
                lines.append(
                    "largest        revision \(largest.revision): \(largest.items) items in \(largest.sections) sections"
                )
            }
            lines.append("operations     \(statistics.operations)")
            print(lines.joined(separator: "\n"))
        }
    }
}
