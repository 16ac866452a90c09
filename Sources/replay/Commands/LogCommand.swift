import ArgumentParser
import ChangeLog
import Foundation

/// `replay log`: one line per revision, newest first.
struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "List revisions, newest first, one line each.",
        discussion: """
            Each line: revision, time, metadata, and the operation counts \
            (+ inserted, - deleted, ~ moved, * updated).

            Example:
              replay log --log app.lmdb --from 100
            """
    )

    @OptionGroup var logOptions: LogOptions
    @OptionGroup var rangeOptions: RangeOptions

    func run() async throws {
        try await failingWithBadInput {
            let log = try logOptions.openExisting()
            guard let range = try rangeOptions.range(in: log) else { return }
            // Newest first: read backwards in windows so memory stays bounded.
            var upper = range.upperBound
            while true {
                let lower = upper >= range.lowerBound + 255 ? upper - 255 : range.lowerBound
                var lines: [String] = []
                for try await record in log.records(in: lower...upper) {
                    lines.append(RevisionText.oneLine(record))
                }
                for line in lines.reversed() { StandardOutput.writeLine(line) }
                try StandardOutput.check()
                if lower == range.lowerBound { break }
                upper = lower - 1
            }
            try StandardOutput.flush()
        }
    }
}
