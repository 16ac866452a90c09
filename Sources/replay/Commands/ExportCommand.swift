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
            """
    )

    @OptionGroup var logOptions: LogOptions
    @OptionGroup var inputOption: InputOption
    @OptionGroup var rangeOptions: RangeOptions

    func validate() throws {
        try inputOption.validate(with: logOptions)
    }

    func run() async throws {
        try await failingWithBadInput {
            let log = try await inputOption.open(logOptions)
            guard let range = try rangeOptions.range(in: log) else { return }
            var progress = Progress("exporting revisions", total: Int(range.count))
            var done = 0
            for try await record in log.records(in: range) {
                StandardOutput.writeLine(record.jsonLine())
                try StandardOutput.check()
                done += 1
                progress.update(done)
            }
            try StandardOutput.flush()
            progress.finish()
        }
    }
}
