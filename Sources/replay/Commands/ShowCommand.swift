import ArgumentParser
import ChangeLog
import Foundation
import ListAdapter

/// `replay show R`: one revision in full.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one revision: its metadata, snapshot and operations.",
        discussion: """
            Items the revision inserted, moved or updated are marked with *, and so are the
            sections whose summary it updated (after their item count).

            Examples:
              replay show 12 --log app.lmdb
              replay show 12 --json
              replay show --at 2026-11-20T10:42:00Z
              replay show --at -2h
            """
    )

    @Argument(help: ArgumentHelp("The revision to show.", valueName: "revision"))
    var revision: UInt64?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Show the revision that was current at this time: RFC 3339 (2026-11-20T10:42:00Z) or before now (-2h).",
            valueName: "time"))
    var at: String?

    @OptionGroup var logOptions: LogOptions
    @OptionGroup var inputOption: InputOption

    @Flag(help: "Print the revision as one revision line of the interchange format (JSON).")
    var json = false

    /// What `show` says when given neither a revision nor `--at`.
    static let noRevision = "give a revision, or --at TIME for the revision current then"

    func validate() throws {
        try inputOption.validate(with: logOptions)
        switch (revision, at) {
        case (nil, nil): throw ValidationError(Self.noRevision)
        case (.some, .some): throw ValidationError("give a revision or --at TIME, not both")
        default: break
        }
        if let at { _ = try TimeArgument.milliseconds(at, option: "--at") }
    }

    func run() async throws {
        try await failingWithBadInput {
            let log = try await inputOption.open(logOptions)
            let revision = try self.revision ?? TimeArgument.revision(at: at!, in: log)
            let record = try RevisionLookup.record(revision, in: log)
            if json {
                print(record.jsonLine())
                return
            }
            let previous = revision > 1 ? try? log.snapshot(at: revision - 1) : LogSnapshot()
            var lines = ["revision \(record.revision)", "time     \(record.timeString)"]
            if !record.meta.isEmpty { lines.append("meta     \(RevisionText.meta(record.meta))") }
            lines.append("counts   \(record.changes.counts)")
            lines.append("")
            lines.append(
                "snapshot: \(record.snapshot.sectionCount) sections, \(record.snapshot.itemCount) items")
            let changes = record.changes
            let marked = Set(
                changes.insertedItems.map(\.at) + changes.movedItems.map(\.to) + changes.updatedItems.map(\.to))
            lines += RevisionText.outline(
                record.snapshot, marking: marked, markingSections: Set(changes.updatedSections.map(\.to))
            ).map { "  " + $0 }
            lines.append("")
            let operations = changes.describedInWords(old: previous)
            lines.append(operations.isEmpty ? "operations: none" : "operations:")
            lines += operations.map { "  " + $0 }
            print(lines.joined(separator: "\n"))
        }
    }
}

/// Reads one revision with an error that says which revisions exist.
enum RevisionLookup {
    static func record(_ revision: UInt64, in log: ChangeLog) throws -> RevisionRecord {
        let first = try log.firstRevision
        let latest = try log.latestRevision
        guard revision >= first, revision <= latest, revision > 0 else {
            throw InputError.outOfRange(revision, in: log, first: first, latest: latest)
        }
        return try log.record(at: revision)
    }
}
