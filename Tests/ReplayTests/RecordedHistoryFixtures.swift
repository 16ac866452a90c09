import Foundation
import Testing

/// Histories as a crash report brings them: an export whose revision 7 carries a wrong move, and
/// one whose revisions move and reload one item in the same revision.
enum RecordedHistoryFixtures {
    /// Snapshot lines of eight revisions; revision 7 moves "a" from [0, 0] to [0, 3].
    static let snapshots = [
        #"[{"id":"a"}]"#,
        #"[{"id":"a"},{"id":"b"}]"#,
        #"[{"id":"a"},{"id":"b"},{"id":"c"}]"#,
        #"[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}]"#,
        #"[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"},{"id":"e"}]"#,
        #"[{"id":"a","summary":"hi"},{"id":"b"},{"id":"c"},{"id":"d"},{"id":"e"}]"#,
        #"[{"id":"b"},{"id":"c"},{"id":"d"},{"id":"a","summary":"hi"},{"id":"e"}]"#,
        #"[{"id":"b"},{"id":"c"},{"id":"d"},{"id":"a","summary":"hi"},{"id":"e"},{"id":"f"}]"#,
    ].enumerated().map { #"{"meta":{"step":"\#($0.offset + 1)"},"sections":[{"title":"S","items":\#($0.element)}]}"# }

    /// The recorded move of revision 7, and the same move with its `to` off by one.
    static let rightMove = #"{"from":[0,0],"to":[0,3]}"#
    static let wrongMove = #"{"from":[0,0],"to":[0,4]}"#

    /// The export of ``snapshots`` with revision 7's move made wrong: the crash report's file.
    static func brokenExport(in directory: TemporaryDirectory) async throws -> String {
        let source = directory.path("source.lmdb")
        let imported = try await ToolRunner.run(
            ["import", "-", "--log", source], input: snapshots.joined(separator: "\n") + "\n")
        try #require(imported.status == 0, "\(imported)")
        let exported = try await ToolRunner.run(["export", "--log", source])
        try #require(exported.status == 0, "\(exported)")
        var lines = exported.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 8 && lines[6].contains(rightMove), "\(exported.stdout)")
        lines[6] = lines[6].replacing(rightMove, with: wrongMove)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Snapshot lines of five revisions, of which 3 and 5 move an item and change its summary:
    /// a reload of a moved item, which UIKit refuses in one batch.
    static let reloadsOfMovedItems =
        [
            #"[{"id":"a","summary":"1"},{"id":"b"},{"id":"c"}]"#,
            #"[{"id":"a","summary":"1"},{"id":"b"},{"id":"c"},{"id":"d"}]"#,
            #"[{"id":"b"},{"id":"c"},{"id":"d"},{"id":"a","summary":"2"}]"#,
            #"[{"id":"b"},{"id":"c"},{"id":"d"},{"id":"a","summary":"2"},{"id":"e"}]"#,
            #"[{"id":"c"},{"id":"d"},{"id":"a","summary":"2"},{"id":"e"},{"id":"b","summary":"5"}]"#,
        ].map { #"{"sections":[{"title":"S","items":\#($0)}]}"# }.joined(separator: "\n") + "\n"
}
