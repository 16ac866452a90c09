import Foundation
import ListFormat
import Testing

@testable import ListAdapter

/// FORMAT.md's JSON, both ways, and the errors for bad snapshots.
@Suite("FORMAT.md JSON")
struct CodingTests {
    static let formatSnapshot = """
        {"meta": {"commit": "3f2a9c"}, "sections": [
          {"title": "Section One", "items": [{"id": "item_a", "summary": "Title A, Section One"},
                                             {"id": "item_c"}]},
          {"title": "Section Two", "items": [{"id": "item_b", "summary": "Title B, Section Two"}]}]}
        """

    static let formatChanges = """
        {"sections": {"deleted": [2],
                      "inserted": [{"index": 0, "title": "New", "items": [{"id": "x", "summary": "s"}]}],
                      "moved": [{"from": 0, "to": 3}],
                      "updated": [{"from": 1, "to": 1, "summary": "h"}]},
         "items": {"deleted": [[1, 4]],
                   "inserted": [{"at": [1, 0], "id": "y", "summary": "t"}],
                   "moved": [{"from": [1, 2], "to": [2, 5]}],
                   "updated": [{"from": [1, 3], "to": [1, 1], "summary": "u"}]}}
        """

    /// Encodes with Foundation and decodes again: the Codable conformances round-trip.
    func roundTrip<T: Codable & Equatable>(_ value: T) throws -> Bool {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value)) == value
    }

    @Test("FORMAT.md's snapshot decodes, keeps meta, and encodes with keys in FORMAT.md's order")
    func snapshotRoundTrip() throws {
        let annotated = try JSONDecoder().decode(
            AnnotatedSnapshot<String, String, String>.self, from: Data(Self.formatSnapshot.utf8))
        #expect(annotated.meta == ["commit": "3f2a9c"])
        #expect(annotated.snapshot.sections.map(\.title) == ["Section One", "Section Two"])
        #expect(annotated.snapshot.item(at: ItemPath(section: 0, item: 1)) == .init(id: "item_c", summary: nil))
        #expect(
            annotated.formatJSON()
                == #"{"meta":{"commit":"3f2a9c"},"sections":[{"title":"Section One","items":[{"id":"item_a","summary":"Title A, Section One"},{"id":"item_c"}]},{"title":"Section Two","items":[{"id":"item_b","summary":"Title B, Section Two"}]}]}"#
        )
        #expect(
            annotated.snapshot.formatJSON()
                == #"{"sections":[{"title":"Section One","items":[{"id":"item_a","summary":"Title A, Section One"},{"id":"item_c"}]},{"title":"Section Two","items":[{"id":"item_b","summary":"Title B, Section Two"}]}]}"#
        )
        #expect(try roundTrip(annotated))
        #expect(try roundTrip(annotated.snapshot))
        let plain = try JSONDecoder().decode(StringSnapshot.self, from: Data(Self.formatSnapshot.utf8))
        #expect(plain == annotated.snapshot)
    }

    @Test("FORMAT.md's changes decode and encode with every key in FORMAT.md's order")
    func changesRoundTrip() throws {
        let changes = try JSONDecoder().decode(StringChanges.self, from: Data(Self.formatChanges.utf8))
        #expect(changes.deletedSections == [2])
        #expect(
            changes.insertedSections == [
                .init(index: 0, section: .init(title: "New", items: [.init(id: "x", summary: "s")]))
            ])
        #expect(changes.movedSections == [.init(from: 0, to: 3)])
        #expect(changes.updatedSections == [.init(from: 1, to: 1, summary: "h")])
        #expect(changes.deletedItems == [ItemPath(section: 1, item: 4)])
        #expect(changes.insertedItems == [.init(at: ItemPath(section: 1, item: 0), id: "y", summary: "t")])
        #expect(changes.movedItems == [.init(from: ItemPath(section: 1, item: 2), to: ItemPath(section: 2, item: 5))])
        #expect(
            changes.updatedItems == [
                .init(from: ItemPath(section: 1, item: 3), to: ItemPath(section: 1, item: 1), summary: "u")
            ])
        let compact = Self.formatChanges.filter { !$0.isWhitespace }
        #expect(changes.formatJSON() == compact)
        #expect(try roundTrip(changes))
        #expect(
            StringChanges().formatJSON()
                == #"{"sections":{"deleted":[],"inserted":[],"moved":[],"updated":[]},"items":{"deleted":[],"inserted":[],"moved":[],"updated":[]}}"#
        )
        // A version-1 changes object has no section updates; it reads as having none.
        let versionOne = """
            {"sections": {"deleted": [2], "inserted": [{"index": 0, "title": "New", "items": [{"id": "x", "summary": "s"}]}],
                          "moved": [{"from": 0, "to": 3}]},
             "items": {"deleted": [[1, 4]], "inserted": [{"at": [1, 0], "id": "y", "summary": "t"}],
                       "moved": [{"from": [1, 2], "to": [2, 5]}], "updated": [{"from": [1, 3], "to": [1, 1], "summary": "u"}]}}
            """
        var withoutSectionUpdates = changes
        withoutSectionUpdates.updatedSections = []
        #expect(try JSONDecoder().decode(StringChanges.self, from: Data(versionOne.utf8)) == withoutSectionUpdates)
    }

    @Test("unknown keys are ignored on input")
    func unknownKeys() throws {
        let json = #"{"extra": 1, "sections": [{"title": "A", "x": true, "items": [{"id": "a", "y": null}]}]}"#
        let snapshot = try JSONDecoder().decode(StringSnapshot.self, from: Data(json.utf8))
        #expect(snapshot.identifiers == ["a"])
    }

    @Test("unknown keys are ignored in changes and in annotated snapshots, at every level")
    func unknownKeysInChanges() throws {
        let json = """
            {"v": 2, "sections": {"deleted": [2], "renamed": [], "inserted": [{"index": 0, "title": "New", "x": 1,
              "items": [{"id": "x", "summary": "s", "y": {}}]}], "moved": [{"from": 0, "to": 3, "z": null}],
              "updated": [{"from": 1, "to": 1, "summary": "h", "old": "g"}]},
             "items": {"deleted": [[1, 4]], "inserted": [{"at": [1, 0], "id": "y", "summary": "t", "w": [1]}],
              "moved": [{"from": [1, 2], "to": [2, 5], "q": "r"}], "reloaded": [[0, 0]],
              "updated": [{"from": [1, 3], "to": [1, 1], "summary": "u", "old": "v"}]}}
            """
        let changes = try JSONDecoder().decode(StringChanges.self, from: Data(json.utf8))
        #expect(changes == (try JSONDecoder().decode(StringChanges.self, from: Data(Self.formatChanges.utf8))))
        let annotated = try JSONDecoder().decode(
            AnnotatedSnapshot<String, String, String>.self,
            from: Data(#"{"meta": {"k": "v"}, "note": [1], "sections": [{"title": "A", "n": 1, "items": []}]}"#.utf8))
        #expect(annotated == AnnotatedSnapshot(meta: ["k": "v"], snapshot: makeSnapshot([("A", [])])))
    }

    @Test("a missing or null list of changes is empty, and so is a missing or null sections or items object")
    func missingAndNullLists() throws {
        for json in [
            "{}", #"{"sections": null, "items": null}"#, #"{"sections": {}, "items": {}}"#,
            #"{"sections": {"deleted": null, "inserted": null, "moved": null}, "items": {"updated": null}}"#,
        ] {
            #expect(try JSONDecoder().decode(StringChanges.self, from: Data(json.utf8)) == StringChanges(), "\(json)")
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StringChanges.self, from: Data(#"{"sections": []}"#.utf8))
        }
    }

    @Test("an item without a summary is written without the key, and reads back as having none")
    func absentSummaries() throws {
        let changes = StringChanges(
            insertedItems: [.init(at: ItemPath(section: 0, item: 0), id: "y", summary: nil)],
            updatedItems: [.init(from: ItemPath(section: 0, item: 1), to: ItemPath(section: 0, item: 2), summary: nil)])
        #expect(
            changes.formatJSON()
                == #"{"sections":{"deleted":[],"inserted":[],"moved":[],"updated":[]},"items":{"deleted":[],"#
                + #""inserted":[{"at":[0,0],"id":"y"}],"moved":[],"updated":[{"from":[0,1],"to":[0,2]}]}}"#)
        #expect(try JSONDecoder().decode(StringChanges.self, from: Data(changes.formatJSON().utf8)) == changes)
        // The update without a summary takes the summary away.
        let old = makeSnapshot([("A", ["a", "b=1"])])
        #expect(try old.applying(changes) == makeSnapshot([("A", ["y", "a", "b"])]))
    }

    @Test("a null summary reads as none, in snapshots and in changes")
    func nullSummaries() throws {
        let snapshot = try JSONDecoder().decode(
            ListSnapshot<String, String, String>.self,
            from: Data(#"{"sections":[{"title":"A","items":[{"id":"a","summary":null},{"id":"b"}]}]}"#.utf8))
        #expect(snapshot == makeSnapshot([("A", ["a", "b"])]))
        let changes = try JSONDecoder().decode(
            StringChanges.self,
            from: Data(
                (#"{"items":{"inserted":[{"at":[0,0],"id":"y","summary":null}],"#
                    + #""updated":[{"from":[0,1],"to":[0,2],"summary":null}]}}"#).utf8))
        #expect(changes.insertedItems.count == 1 && changes.insertedItems[0].summary == nil)
        #expect(changes.updatedItems.count == 1 && changes.updatedItems[0].summary == nil)
    }

    @Test(
        "bad snapshots are errors that name the problem",
        arguments: [
            (
                #"{"sections": [{"title": "A", "items": []}, {"title": "A", "items": []}]}"#,
                #"duplicate section title "A" at sections 0 and 1; section titles must be unique within a snapshot"#
            ),
            (
                #"{"sections": [{"title": "A", "items": [{"id": "a"}]}, {"title": "B", "items": [{"id": "b"}, {"id": "a"}]}]}"#,
                #"duplicate item id "a" at [0, 0] and [1, 1]; item ids must be unique across a snapshot"#
            ),
            // A huge duplicate is cut short in the message (a 5 MB title would make a 5 MB line).
            (
                #"{"sections": [{"title": "\#(String(repeating: "ab", count: 50_000))", "items": []}, "#
                    + #"{"title": "\#(String(repeating: "ab", count: 50_000))", "items": []}]}"#,
                #"duplicate section title "\#(String(repeating: "ab", count: 30))"... (100000 bytes) at sections "#
                    + "0 and 1; section titles must be unique within a snapshot"
            ),
        ])
    func duplicates(json: String, message: String) throws {
        let error = #expect(throws: ListSnapshotError.self) {
            try JSONDecoder().decode(StringSnapshot.self, from: Data(json.utf8))
        }
        #expect(error?.description == message)
    }

    @Test("a duplicate built in code names both positions; nothing is built")
    func duplicateInCode() {
        #expect(
            throws: ListSnapshotError.duplicateItemID(
                "a", first: .init(section: 0, item: 0), second: .init(section: 0, item: 1))
        ) {
            try StringSnapshot(sections: [.init(title: "", items: [.init(id: "a"), .init(id: "a")])])
        }
    }

    @Test(
        "missing and mistyped fields are decoding errors",
        arguments: [
            #"{"sections": [{"items": []}]}"#,
            #"{"sections": [{"title": 3, "items": []}]}"#,
            #"{"sections": [{"title": "A", "items": [{"summary": "s"}]}]}"#,
            #"{"sections": [{"title": "A", "items": [{"id": "a", "summary": 4}]}]}"#,
            #"{"sections": [{"title": "A"}]}"#,
            #"{"sections": [{"title": "A", "items": {}}]}"#,
            #"{"sections": [{"title": "A", "items": [{"id": 1}]}]}"#,
            #"{"sections": [{"title": "A", "items": [{"id": "a"}, 2]}]}"#,
            #"{"section": []}"#,
            #"{"sections": {}}"#,
        ])
    func malformed(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StringSnapshot.self, from: Data(json.utf8))
        }
    }

    @Test("a path is exactly two numbers")
    func pathShape() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ItemPath.self, from: Data("[1, 2, 3]".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ItemPath.self, from: Data("[1]".utf8)) }
        #expect((try? JSONDecoder().decode(ItemPath.self, from: Data("[1, 2]".utf8))) == ItemPath(section: 1, item: 2))
    }

    @Test("strings are escaped as RFC 8259 requires, and nothing else is")
    func escaping() throws {
        let tricky = "quote \" backslash \\ slash / tab \t newline \n bell \u{07} é 🙂"
        let snapshot = try StringSnapshot(sections: [.init(title: tricky, items: [.init(id: tricky, summary: tricky)])])
        let json = snapshot.formatJSON()
        #expect(json.contains(#"quote \" backslash \\ slash / tab \t newline \n bell \u0007 é 🙂"#))
        #expect(try JSONDecoder().decode(StringSnapshot.self, from: Data(json.utf8)) == snapshot)
    }
}
