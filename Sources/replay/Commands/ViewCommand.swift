import ArgumentParser
import ChangeLog
import ChangeLogServer
import Foundation

/// `replay view`: the history viewer as one static HTML file with a range of revisions embedded.
struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Write the history viewer as one HTML file with a range of revisions embedded.",
        discussion: """
            The file is the page `replay serve` shows at /, with the revisions from --from to --to \
            (default: the whole log) inside it: opened from disk, it works with no server, so it \
            can be attached to a bug report. The revision before --from is embedded too, when the \
            log holds it, to show what the first revision deleted. `#rev=N` at the end of the \
            file's URL opens revision N.

            With --where (repeatable), the page opens with its timeline filtered by metadata the \
            same way: only the revisions whose metadata satisfy every condition are listed (the \
            filter box shows the conditions; clear it to see every revision). `#where=` at the \
            end of the URL, the filter box's text percent-encoded, sets another filter.

            An existing file is not replaced unless --force is given; the file appears whole or \
            not at all.

            Example:
              replay view --log app.lmdb --from 120 --to 180 --out bug-4711.html
              replay view --log app.lmdb --where job=sync --where 'note~disk full' --out sync.html
            """
    )

    @OptionGroup var logOptions: LogOptions
    @OptionGroup var inputOption: InputOption
    @OptionGroup var rangeOptions: RangeOptions
    @OptionGroup var timeOptions: TimeRangeOptions
    @OptionGroup var whereOptions: WhereOptions

    @Option(help: ArgumentHelp("The HTML file to write.", valueName: "file"))
    var out: String

    @Flag(help: "Replace the file when it exists.")
    var force = false

    func validate() throws {
        try inputOption.validate(with: logOptions)
        if out.isEmpty { throw ValidationError("--out needs a file name") }
    }

    func run() async throws {
        try await failingWithBadInput(onCommandThreads: false) {
            if !force && FileManager.default.fileExists(atPath: out) {
                throw InputError("\(out) exists; pass --force to replace it")
            }
            let log = try await inputOption.open(logOptions)
            guard let range = try timeOptions.narrowRequiringOne(rangeOptions.range(in: log), in: log) else {
                throw InputError("\(ExportInput.name(ofLogAt: log.path)) is empty: there is no revision to view")
            }
            let filters = try whereOptions.filters()
            let filterText = filters.isEmpty ? nil : Self.filterText(filters)
            let first = try log.firstRevision
            let embeddedRange = (range.lowerBound > first ? range.lowerBound - 1 : range.lowerBound)...range.upperBound
            let file = try StagedFile(replacing: out, force: force)
            do {
                var progress = Progress("writing the viewer", total: Int(embeddedRange.count))
                try file.write(
                    ViewerPage.staticPageHead(from: range.lowerBound, to: range.upperBound, filter: filterText))
                var done = 0
                for try await record in log.records(in: embeddedRange) {
                    try file.write(ViewerPage.embeddable(record.jsonLine()) + "\n")
                    done += 1
                    progress.update(done)
                }
                try file.write(ViewerPage.staticPageTail)
                try file.commit()
                progress.finish()
            } catch {
                file.discard()
                throw error
            }
            StandardOutput.writeLine(
                "wrote \(out): revisions \(range.lowerBound) to \(range.upperBound) (\(range.count) revisions, "
                    + "\(file.bytesWritten) bytes"
                    + (filterText.map { "; its timeline lists the revisions whose metadata satisfy \($0)" } ?? "")
                    + "); open it in a browser, #rev=N at the end of its URL opens revision N")
        }
    }

    /// `filters` as the text of the viewer's filter box: the clauses separated by spaces, a clause
    /// holding a space, a double quote or a backslash in double quotes with `\` before each
    /// quote and backslash (what the page's `MetaFilter.parse` reads back).
    static func filterText(_ filters: [MetaFilter]) -> String {
        filters.map { filter in
            let clause = filter.description
            guard clause.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "\\" }) else { return clause }
            var quoted = "\""
            for character in clause {
                if character == "\"" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "\""
        }.joined(separator: " ")
    }
}
