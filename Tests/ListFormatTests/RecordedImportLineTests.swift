import ListAdapter
import ListFormat
import Testing

/// `InterchangeFormat.readImportLine(_:duplicates:recorded:)`: what a revision line recorded.
@Suite("import lines: what a revision line recorded")
struct RecordedImportLineTests {
    static let line =
        #"{"revision":7,"time":"2026-11-20T10:00:00.000Z","meta":{"k":"v"},"snapshot":{"sections":[{"title":"S","#
        + #""items":[{"id":"b"},{"id":"a"}]}]},"changes":{"items":{"moved":[{"from":[0,0],"to":[0,1]}]}}}"#

    @Test("a revision line's changes, number and time are read when asked, and left out otherwise")
    func recorded() throws {
        let read = try InterchangeFormat.readImportLine(Array(Self.line.utf8), recorded: true)
        var changes = ListChanges<String, String, String>()
        changes.movedItems = [.init(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 1))]
        #expect(read.recorded == .init(revision: 7, millisecondsSince1970: 1_795_168_800_000, changes: changes))
        #expect(read.meta == ["k": "v"])
        #expect(try InterchangeFormat.readImportLine(Array(Self.line.utf8)).recorded == nil)
        // The whole-line reader agrees.
        let whole = try InterchangeFormat.readRevisionLine(Array(Self.line.utf8))
        #expect(whole.changes == changes && whole.millisecondsSince1970 == 1_795_168_800_000)
    }

    @Test("without changes, or on a snapshot line, nothing is recorded and those keys stay unknown")
    func notRecorded() throws {
        let withoutChanges = #"{"revision":"x","time":1,"snapshot":{"sections":[]}}"#
        #expect(try InterchangeFormat.readImportLine(Array(withoutChanges.utf8), recorded: true).recorded == nil)
        let snapshotLine = #"{"changes":{"items":1},"changes":2,"time":"no","sections":[]}"#
        #expect(try InterchangeFormat.readImportLine(Array(snapshotLine.utf8), recorded: true).recorded == nil)
    }

    @Test("bad recorded fields of a revision line are named where they are")
    func badFields() {
        let cases: [(String, String)] = [
            (
                Self.line.replacing(#""to":[0,1]"#, with: #""to":[0]"#),
                "column 186, changes.items.moved[0].to: expected a path of two integers"
            ),
            (
                Self.line.replacing(#""time":"2026-11-20T10:00:00.000Z""#, with: #""time":"noon""#),
                "column 22, time: expected an ISO 8601 UTC time"
            ),
            (Self.line.replacing(#""revision":7"#, with: #""revision":"7""#), "column 13, revision: "),
            (Self.line.replacing(#""meta""#, with: #""changes":{},"meta""#), "duplicate"),
        ]
        for (line, expected) in cases {
            do {
                _ = try InterchangeFormat.readImportLine(Array(line.utf8), recorded: true)
                Issue.record("\(line) was read")
            } catch {
                #expect(error.description.contains(expected), "\(line): \(error)")
            }
        }
    }
}
