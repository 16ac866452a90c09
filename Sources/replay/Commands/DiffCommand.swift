import ArgumentParser
import ChangeLog
import Foundation
import ListAdapter
import ListFormat

/// `replay diff OLD.json NEW.json`: the changes between two snapshot files; with `--log` (or
/// `--at`), between two revisions of a log.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Print the changes between two snapshots (files, or revisions of a log) as changes JSON.",
        discussion: """
            Each file holds one snapshot in the interchange format, e.g.
            {"sections": [{"title": "Today", "items": [{"id": "a", "summary": "hello"}]}]}

            With --log, the operands are revisions of the log: the changes take the first one's \
            list to the second's (backwards when the first is the later one). A time given with \
            --at stands for the revision current then (RFC 3339, or before now as -2h); revision \
            numbers come first, then times.

            Examples:
              replay diff before.json after.json --pretty
              replay diff --log app.lmdb 120 180
              replay diff --log app.lmdb --at 2026-11-20T10:40:00Z --at 2026-11-20T10:45:00Z
              replay diff --log app.lmdb 120 --at -2h
            """
    )

    @Argument(help: "The old and new snapshot (JSON files, or - for standard input), or with --log two revisions.")
    var operands: [String] = []

    @Option(
        name: .customLong("log"),
        help: ArgumentHelp("Compare two revisions of this log instead of two files.", valueName: "path"))
    var log: String?

    @Option(
        name: .customLong("at"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "With a log: the revision current at this time (repeatable; after any revision numbers).",
            valueName: "time"))
    var times: [String] = []

    @Flag(help: "Indent the JSON output.")
    var pretty = false

    /// Whether the operands are revisions of a log.
    private var comparesRevisions: Bool { log != nil || !times.isEmpty }

    func validate() throws {
        if comparesRevisions {
            guard operands.count + times.count == 2 else {
                throw ValidationError(
                    "give two revisions to compare (numbers, or times with --at), not \(operands.count + times.count)")
            }
            for operand in operands where UInt64(operand) == nil || UInt64(operand) == 0 {
                throw ValidationError("'\(operand)' is not a revision number (an integer from 1); give times with --at")
            }
            for time in times { _ = try TimeArgument.milliseconds(time, option: "--at") }
            return
        }
        guard operands.count == 2 else {
            throw ValidationError("give two snapshot files (or --log and two revisions), not \(operands.count)")
        }
        if operands[0] == "-" && operands[1] == "-" {
            throw ValidationError("only one of the two snapshots can come from standard input (-)")
        }
    }

    func run() async throws {
        try await failingWithBadInput {
            let oldSnapshot: LogSnapshot
            let newSnapshot: LogSnapshot
            if comparesRevisions {
                let log = try LogOptions.openExisting(at: LogOptions.resolve(log))
                var revisions = operands.compactMap { UInt64($0) }
                for time in times { revisions.append(try TimeArgument.revision(at: time, in: log)) }
                oldSnapshot = try RevisionLookup.record(revisions[0], in: log).snapshot
                newSnapshot = try RevisionLookup.record(revisions[1], in: log).snapshot
            } else {
                oldSnapshot = try SnapshotFile.read(operands[0])
                newSnapshot = try SnapshotFile.read(operands[1])
            }
            let json = oldSnapshot.changes(to: newSnapshot).formatJSON()
            print(pretty ? PrettyJSON.indent(json) : json)
        }
    }
}
