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
            (+ inserted, - deleted, ~ moved, * updated). With -n N, only the newest N \
            revisions of the range, as `git log -n` does.

            Examples:
              replay log --log app.lmdb --from 100
              replay log --log app.lmdb -n 10
              replay log --log app.lmdb --since -2h --where job=sync
            """
    )

    @OptionGroup var logOptions: LogOptions
    @OptionGroup var inputOption: InputOption
    @OptionGroup var rangeOptions: RangeOptions
    @OptionGroup var timeOptions: TimeRangeOptions
    @OptionGroup var whereOptions: WhereOptions

    @Option(
        name: [.customShort("n"), .customLong("max-count")],
        help: ArgumentHelp("List only the newest <count> revisions of the range.", valueName: "count"))
    var maxCount: Int?

    func validate() throws {
        try inputOption.validate(with: logOptions)
        if let maxCount, maxCount < 0 {
            throw ValidationError("-n takes a number that is not negative, not \(maxCount)")
        }
    }

    func run() async throws {
        try await failingWithBadInput {
            let log = try await inputOption.open(logOptions)
            let filters = try whereOptions.filters()
            guard var range = try timeOptions.narrow(rangeOptions.range(in: log), in: log) else { return }
            if let maxCount {
                guard maxCount > 0 else { return }
                let span = UInt64(maxCount) - 1
                if range.upperBound - range.lowerBound > span { range = range.upperBound - span...range.upperBound }
            }
            // Newest first: read backwards in windows so memory stays bounded.
            var upper = range.upperBound
            while true {
                let lower = upper >= range.lowerBound + 255 ? upper - 255 : range.lowerBound
                var lines: [String] = []
                // A line shows no snapshot, so none is read.
                for try await revision in log.changes(in: lower...upper)
                where MetaFilter.all(filters, match: revision.meta) {
                    lines.append(RevisionText.oneLine(revision))
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
