import ArgumentParser
import ChangeLog
import Foundation

/// `replay export`: interchange-format revision lines, oldest first.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write revisions as JSON Lines to standard output, oldest first.",
        discussion: """
            Each line: {"revision":1,"time":"2026-11-20T10:00:00.000Z","meta":{},"snapshot":{...},"changes":{...}}

            Example:
              replay export --log app.lmdb --from 10 > history.jsonl
              replay export --log app.lmdb --since 2026-11-20T10:00:00Z --where reason~sync > sync.jsonl
            """
    )

    @OptionGroup var logOptions: LogOptions
    @OptionGroup var inputOption: InputOption
    @OptionGroup var rangeOptions: RangeOptions
    @OptionGroup var timeOptions: TimeRangeOptions
    @OptionGroup var whereOptions: WhereOptions

    func validate() throws {
        try inputOption.validate(with: logOptions)
    }

    func run() async throws {
        try await failingWithBadInput {
            let log = try await inputOption.open(logOptions)
            let filters = try whereOptions.filters()
            guard let range = try timeOptions.narrow(rangeOptions.range(in: log), in: log) else { return }
            var progress = Progress("exporting revisions", total: Int(range.count))
            var done = 0
            for try await record in log.records(in: range) {
                done += 1
                progress.update(done)
                guard MetaFilter.all(filters, match: record.meta) else { continue }
                StandardOutput.writeLine(record.jsonLine())
                try StandardOutput.check()
            }
            try StandardOutput.flush()
            progress.finish()
        }
    }
}
