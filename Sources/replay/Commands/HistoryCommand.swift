import ArgumentParser
import ChangeLog
import Foundation
import ListFormat

/// `replay history ID` and `replay history --section TITLE`: an item's or a section's life.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List every revision that inserted, deleted, moved or updated an item (or a section), oldest first.",
        discussion: """
            Each line: revision, time, metadata, what happened (inserted, deleted, moved, \
            updated; "with its section" when the item went or came with a deleted or inserted \
            section), where it was before and after (section and index path), and its summary \
            before and after. --json writes one JSON object per event instead.

            The log keeps an index of the revisions that touched each item and section. A log \
            written before it gets one on first use when it can be written; otherwise every \
            revision of the range is read (said once on standard error).

            Examples:
              replay history msg-42 --log app.lmdb
              replay history --section Pinned --since -2h --json
              replay history "a b/c" --where job=sync
            """
    )

    @Argument(help: ArgumentHelp("The item's identifier.", valueName: "id"))
    var id: String?

    @Option(help: ArgumentHelp("A section's history instead, by title.", valueName: "title"))
    var section: String?

    @OptionGroup var logOptions: LogOptions
    @OptionGroup var inputOption: InputOption
    @OptionGroup var rangeOptions: RangeOptions
    @OptionGroup var timeOptions: TimeRangeOptions
    @OptionGroup var whereOptions: WhereOptions

    @Flag(help: "Write one JSON object per event.")
    var json = false

    func validate() throws {
        try inputOption.validate(with: logOptions)
        switch (id, section) {
        case (nil, nil): throw ValidationError("give an item's identifier, or --section TITLE")
        case (.some, .some): throw ValidationError("give an item's identifier or --section TITLE, not both")
        default: break
        }
    }

    func run() async throws {
        try await failingWithBadInput {
            let log = try await open()
            let subject: HistorySubject = id.map(HistorySubject.item) ?? .section(section!)
            let filters = try whereOptions.filters()
            guard let range = try timeOptions.narrow(rangeOptions.range(in: log), in: log) else { return }
            let history = try log.history(of: subject, in: range, where: filters)
            let name = ExportInput.name(ofLogAt: log.path)
            switch history.source {
            case .index: break
            case .builtIndex:
                printError("note: built the history index of \(name), written before logs kept one")
            case .scan:
                printError(
                    "note: \(name) has no history index and cannot be written here: read every revision of the range")
            }
            for event in history.events {
                StandardOutput.writeLine(json ? event.jsonObject() : Self.line(event))
                try StandardOutput.check()
            }
            try StandardOutput.flush()
        }
    }

    /// The log, writable when it can be (so that a log without an index gets one).
    private func open() async throws -> ChangeLog {
        let files = FileManager.default
        let path = logOptions.path
        let lockWritable =
            files.fileExists(atPath: path + "/lock.mdb")
            ? files.isWritableFile(atPath: path + "/lock.mdb") : files.isWritableFile(atPath: path)
        if inputOption.path == nil, files.isWritableFile(atPath: path + "/data.mdb"), lockWritable {
            DataFileFault.exitOnFault(readingLogAt: logOptions.path)
            if let log = try? ChangeLog(
                path: logOptions.path, options: .init(createIfMissing: false, untrusted: true))
            {
                return log
            }
        }
        return try await inputOption.open(logOptions)
    }

    /// `12  2026-11-20T10:00:00.000Z  job=sync  moved updated  Pinned [0, 3] -> Today [1, 0]  hello -> "hello again"`
    static func line(_ event: HistoryEvent) -> String {
        var line = "\(event.revision)  \(Timestamp.iso8601(milliseconds: event.millisecondsSince1970))"
        if !event.meta.isEmpty { line += "  " + RevisionText.meta(event.meta) }
        line += "  " + event.kinds.map(\.rawValue).joined(separator: " ")
        if let fate = event.withSection { line += " (with its section \(fate.rawValue))" }
        line += "  \(place(event.before)) -> \(place(event.after))"
        line += "  \(summary(event.summaryBefore)) -> \(summary(event.summaryAfter))"
        return line
    }

    private static func place(_ place: HistoryEvent.Place?) -> String {
        guard let place else { return "-" }
        let title = printable(place.section, quotingSpaces: true)
        guard let item = place.itemIndex else { return "\(title) [\(place.sectionIndex)]" }
        return "\(title) [\(place.sectionIndex), \(item)]"
    }

    private static func summary(_ summary: String?) -> String {
        summary.map { printable($0, quotingSpaces: true) } ?? "-"
    }
}
