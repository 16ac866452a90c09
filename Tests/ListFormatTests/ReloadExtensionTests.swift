import Foundation
import ListAdapter
import Testing

@testable import ListFormat

/// The `"reload": true` extension of an `items.updated` entry: read, written only when true,
/// ignored by applying.
@Suite("Reader and writer: reload or reconfigure")
struct ReloadExtensionTests {
    typealias Changes = ListChanges<String, String, String>
    typealias Snapshot = ListSnapshot<String, String, String>

    static func line(updated: String) -> String {
        #"{"revision": 2, "time": "2026-11-20T10:00:00Z", "snapshot": {"sections": []}, "#
            + #""changes": {"items": {"updated": ["# + updated + "]}}}"
    }

    static func read(_ line: String) throws(FormatError) -> RevisionLine {
        try InterchangeFormat.readRevisionLine(Array(line.utf8))
    }

    @Test("reload true reads as a reload; false or absent as a reconfigure")
    func reads() throws {
        let kinds = try Self.read(
            Self.line(
                updated: #"{"from": [0, 0], "to": [0, 0], "reload": true}, "#
                    + #"{"from": [0, 1], "to": [0, 1], "summary": "s", "reload": false}, "#
                    + #"{"reload": true, "from": [0, 2], "to": [0, 3]}, {"from": [0, 4], "to": [0, 4]}"#)
        ).changes.updatedItems.map(\.kind)
        #expect(kinds == [.reload, .reconfigure, .reload, .reconfigure])
    }

    @Test("the writer adds reload true to a reload only, and what it writes reads back")
    func writes() throws {
        let changes = Changes(updatedItems: [
            .init(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 0), summary: "a", kind: .reload),
            .init(from: ItemPath(section: 0, item: 1), to: ItemPath(section: 0, item: 1), summary: nil),
        ])
        let json = changes.formatJSON()
        #expect(
            json
                == #"{"sections":{"deleted":[],"inserted":[],"moved":[],"updated":[]},"items":{"deleted":[],"inserted":[],"#
                + #""moved":[],"updated":[{"from":[0,0],"to":[0,0],"summary":"a","reload":true},"#
                + #"{"from":[0,1],"to":[0,1]}]}}"#)
        let line =
            #"{"revision": 2, "time": "2026-11-20T10:00:00Z", "snapshot": {"sections": []}, "changes": "#
            + json + "}"
        #expect(try Self.read(line).changes == changes)

        // Codable says the same.
        let decoded = try JSONDecoder().decode(Changes.self, from: JSONEncoder().encode(changes))
        #expect(decoded == changes)
        let plain = try JSONDecoder().decode(
            Changes.ItemUpdate.self, from: Data(#"{"from": [0, 0], "to": [0, 0], "reload": false}"#.utf8))
        #expect(plain.kind == .reconfigure)
    }

    @Test("a reload that is not a boolean, or given twice, is refused")
    func badReload() {
        let entry = "changes.items.updated[0]"
        for (updated, path, problem) in [
            (#"{"from": [0, 0], "to": [0, 0], "reload": 1}"#, entry + ".reload", "expected a boolean, found 1"),
            (
                #"{"from": [0, 0], "to": [0, 0], "reload": "true"}"#, entry + ".reload",
                #"expected a boolean, found "true""#
            ),
            (
                #"{"from": [0, 0], "to": [0, 0], "reload": true, "reload": true}"#, entry,
                #"duplicate key "reload"; a key may appear once in an object"#
            ),
        ] {
            do {
                _ = try Self.read(Self.line(updated: updated))
                Issue.record("read: \(updated)")
            } catch {
                #expect(error.problem == problem, "\(error)")
                #expect(error.path == path, "\(error)")
            }
        }
    }

    @Test("applying ignores the kind")
    func applyingIgnoresTheKind() throws {
        let old = try Snapshot(sections: [.init(title: "A", items: [.init(id: "a", summary: "1")])])
        let update = Changes.ItemUpdate(
            from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 0), summary: "2", kind: .reload)
        var reconfigure = update
        reconfigure.kind = .reconfigure
        #expect(
            try old.applying(Changes(updatedItems: [update]))
                == old.applying(Changes(updatedItems: [reconfigure])))
    }
}
