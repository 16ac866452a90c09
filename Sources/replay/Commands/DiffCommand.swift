import ArgumentParser
import Foundation
import ListAdapter
import ListFormat

/// `replay diff OLD.json NEW.json`: the changes between two snapshot files.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Print the changes between two snapshot files as the interchange format's changes JSON.",
        discussion: """
            Each file holds one snapshot in the interchange format, e.g.
            {"sections": [{"title": "Today", "items": [{"id": "a", "summary": "hello"}]}]}

            Example:
              replay diff before.json after.json --pretty
            """
    )

    @Argument(help: "The old snapshot (a JSON file, or - for standard input).")
    var old: String

    @Argument(help: "The new snapshot (a JSON file, or - for standard input).")
    var new: String

    @Flag(help: "Indent the JSON output.")
    var pretty = false

    func validate() throws {
        if old == "-" && new == "-" {
            throw ValidationError("only one of the two snapshots can come from standard input (-)")
        }
    }

    func run() async throws {
        try await failingWithBadInput {
            let oldSnapshot = try SnapshotFile.read(old)
            let newSnapshot = try SnapshotFile.read(new)
            let json = oldSnapshot.changes(to: newSnapshot).formatJSON()
            print(pretty ? PrettyJSON.indent(json) : json)
        }
    }
}
