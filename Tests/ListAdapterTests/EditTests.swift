import Testing

@testable import ListAdapter

/// Each edit in place: what it does to the snapshot, the changes it records (the full diff's),
/// and the error it throws for a bad edit, leaving the snapshot as it was.
@Suite("Edits in place")
struct EditTests {
    typealias Item = StringSnapshot.Item
    typealias Section = StringSnapshot.Section

    /// `[A: a b c] [B: d e]`, with summaries on `a` and section `A`.
    static func base() -> StringSnapshot {
        try! StringSnapshot(sections: [
            Section(title: "A", summary: "1", items: [Item(id: "a", summary: "x"), Item(id: "b"), Item(id: "c")]),
            Section(title: "B", items: [Item(id: "d"), Item(id: "e")]),
        ])
    }

    /// The ids of each section, `"A: a b c | B: d e"`.
    static func layout(_ snapshot: StringSnapshot) -> String {
        snapshot.sections.map { "\($0.title): \($0.items.map(\.id).joined(separator: " "))" }.joined(separator: " | ")
    }

    /// Edits the base, checks the layout, the index, and that the recorded changes are the diff's.
    @discardableResult
    func check(
        _ expected: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ edit: (inout StringSnapshot) throws -> Void
    ) throws -> StringChanges {
        let base = Self.base()
        var edited = base
        try edit(&edited)
        #expect(Self.layout(edited) == expected, sourceLocation: sourceLocation)
        #expect(edited._invariantViolation() == nil, sourceLocation: sourceLocation)
        let recorded = try #require(edited.changes(editedFrom: base), sourceLocation: sourceLocation)
        // The diff reports every update as a reconfigure; the edits keep the kind they asked for.
        var asDiffed = recorded
        asDiffed.updatedItems = recorded.updatedItems.map { .init(from: $0.from, to: $0.to, summary: $0.summary) }
        #expect(asDiffed == base.changes(to: edited), sourceLocation: sourceLocation)
        #expect(try base.applying(recorded) == edited, sourceLocation: sourceLocation)
        return recorded
    }

    @Test("appending items, to a named section or the last one")
    func append() throws {
        let changes = try check("A: a b c f | B: d e g") {
            try $0.appendItems([Item(id: "f")], toSection: "A")
            try $0.appendItems([Item(id: "g")])
        }
        #expect(changes.insertedItems.map(\.at) == [ItemPath(section: 0, item: 3), ItemPath(section: 1, item: 2)])
    }

    @Test("inserting items before and after an item")
    func insert() throws {
        let changes = try check("A: f a b c | B: d g e") {
            try $0.insertItems([Item(id: "f")], beforeItem: "a")
            try $0.insertItems([Item(id: "g")], afterItem: "d")
        }
        #expect(changes.insertedItems.map(\.id) == ["f", "g"])
    }

    @Test("deleting items, one listed twice")
    func delete() throws {
        let changes = try check("A: b | B: e") { try $0.deleteItems(["a", "c", "d", "a"]) }
        #expect(
            changes.deletedItems == [
                ItemPath(section: 0, item: 0), .init(section: 0, item: 2), .init(section: 1, item: 0),
            ])
    }

    @Test("moving items in a section and across sections")
    func move() throws {
        let changes = try check("A: b c a | B: d | C: e") {
            try $0.moveItem("a", afterItem: "c")
            try $0.appendSections([Section(title: "C")])
            try $0.moveItem("e", beforeItem: "d")
            try $0.moveItem("d", beforeItem: "e")
            try $0.deleteItems(["e"])
            try $0.appendItems([Item(id: "e")], toSection: "C")
        }
        #expect(changes.movedItems == [.init(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 2))])
        #expect(changes.insertedSections.map(\.section.title) == ["C"])
    }

    @Test("updating an item: a reload stays a reload; a summary set back is no update")
    func update() throws {
        let changes = try check("A: a b c | B: d e") {
            try $0.updateItem("b", summary: "y", kind: .reload)
            try $0.updateItem("b", summary: "z")
            try $0.updateItem("a", summary: "w")
            try $0.updateItem("a", summary: "x")
        }
        #expect(
            changes.updatedItems == [
                .init(from: .init(section: 0, item: 1), to: .init(section: 0, item: 1), summary: "z", kind: .reload)
            ])
    }

    @Test("sections: inserted before and after, deleted, moved, their summaries updated")
    func sections() throws {
        let changes = try check("Z: z | B: d e | Y:  | C: ") {
            try $0.insertSections([Section(title: "Z", items: [Item(id: "z")])], beforeSection: "A")
            try $0.insertSections([Section(title: "Y")], afterSection: "B")
            try $0.appendSections([Section(title: "C")])
            try $0.deleteSections(["A"])
            try $0.moveSection("Y", afterSection: "C")
            try $0.moveSection("Y", beforeSection: "C")
            try $0.updateSection("B", summary: "2")
        }
        #expect(changes.deletedSections == [0])
        #expect(changes.insertedSections.map(\.index) == [0, 2, 3])
        #expect(changes.updatedSections == [.init(from: 1, to: 1, summary: "2")])
    }

    @Test("edits beyond the pending index's limit are folded into it, and still give the diff's changes")
    func manyEdits() throws {
        let base = try StringSnapshot(sections: [
            Section(title: "A", items: (0..<50).map { Item(id: "a\($0)") }),
            Section(title: "B", items: (0..<50).map { Item(id: "b\($0)") }),
        ])
        var edited = base
        var generator = SeededGenerator(seed: 0xF01D)
        var folded = false
        for round in 0..<120 {
            let ids = edited.identifiers
            let id = ids.randomElement(using: &generator)!
            let other = ids.randomElement(using: &generator)!
            if id != other { try edited.moveItem(id, afterItem: other) }
            if round % 7 == 0 { try edited.insertItems([Item(id: "n\(round)")], beforeItem: other) }
            if round % 11 == 0 { try edited.deleteItems([other]) }
            if round % 13 == 0 { try edited.moveSection("A", afterSection: "B") }
            folded = folded || (round > 0 && edited.pendingIndex == nil)
            #expect(edited._invariantViolation() == nil)
        }
        #expect(folded)
        #expect(edited.changes(editedFrom: base) == base.changes(to: edited))
    }

    @Test("deleting everything")
    func deleteAll() throws {
        let changes = try check("") { $0.deleteAllItems() }
        #expect(changes.deletedSections == [0, 1])
    }

    @Test("a snapshot not edited from the base, or not edited at all, has no recorded changes")
    func otherBase() throws {
        let base = Self.base()
        #expect(base.changes(editedFrom: base) == nil)
        var edited = base
        try edited.deleteItems(["b"])
        let other = try StringSnapshot(sections: base.sections.map { $0 })
        #expect(edited.changes(editedFrom: other) == nil)
        #expect(other.changesFollowingEdits(to: edited) == other.changes(to: edited))
    }

    /// Checks that `edit` throws `code` naming `subject`, and leaves the snapshot unchanged.
    func expectRefusal(
        _ code: ListSnapshotEditError.Code, _ subject: String, at position: [Int] = [],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ edit: (inout StringSnapshot) throws -> Void
    ) {
        var snapshot = Self.base()
        do {
            try edit(&snapshot)
            Issue.record("no error", sourceLocation: sourceLocation)
        } catch let error as ListSnapshotEditError {
            #expect(error.code == code && error.subject == subject, sourceLocation: sourceLocation)
            #expect(error.existingPosition == position, sourceLocation: sourceLocation)
            #expect(error.description.contains(subject), sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
        #expect(snapshot == Self.base() && snapshot.editJournal == nil, sourceLocation: sourceLocation)
    }

    @Test("unknown identifiers and titles are refused, naming them")
    func unknown() {
        expectRefusal(.unknownItemID, "q") { try $0.insertItems([Item(id: "f")], beforeItem: "q") }
        expectRefusal(.unknownItemID, "q") { try $0.insertItems([Item(id: "f")], afterItem: "q") }
        expectRefusal(.unknownItemID, "q") { try $0.deleteItems(["a", "q"]) }
        expectRefusal(.unknownItemID, "q") { try $0.moveItem("q", beforeItem: "a") }
        expectRefusal(.unknownItemID, "q") { try $0.moveItem("a", afterItem: "q") }
        expectRefusal(.unknownItemID, "q") { try $0.updateItem("q", summary: nil) }
        expectRefusal(.unknownSectionTitle, "Q") { try $0.appendItems([Item(id: "f")], toSection: "Q") }
        expectRefusal(.unknownSectionTitle, "Q") { try $0.insertSections([Section(title: "C")], beforeSection: "Q") }
        expectRefusal(.unknownSectionTitle, "Q") { try $0.insertSections([Section(title: "C")], afterSection: "Q") }
        expectRefusal(.unknownSectionTitle, "Q") { try $0.deleteSections(["B", "Q"]) }
        expectRefusal(.unknownSectionTitle, "Q") { try $0.moveSection("Q", beforeSection: "A") }
        expectRefusal(.unknownSectionTitle, "Q") { try $0.moveSection("A", afterSection: "Q") }
        expectRefusal(.unknownSectionTitle, "Q") { try $0.updateSection("Q", summary: nil) }
    }

    @Test("duplicate identifiers and titles are refused, naming them and where they are")
    func duplicates() {
        expectRefusal(.duplicateItemID, "d", at: [1, 0]) { try $0.appendItems([Item(id: "f"), Item(id: "d")]) }
        expectRefusal(.duplicateItemID, "f") { try $0.insertItems([Item(id: "f"), Item(id: "f")], beforeItem: "a") }
        expectRefusal(.duplicateSectionTitle, "B", at: [1]) { try $0.appendSections([Section(title: "B")]) }
        expectRefusal(.duplicateSectionTitle, "C") {
            try $0.appendSections([Section(title: "C"), Section(title: "C")])
        }
        expectRefusal(.duplicateItemID, "a", at: [0, 0]) {
            try $0.insertSections([Section(title: "C", items: [Item(id: "a")])], afterSection: "A")
        }
    }

    @Test("moving next to itself and appending with no section are refused")
    func otherRefusals() throws {
        expectRefusal(.moveNextToItself, "a") { try $0.moveItem("a", afterItem: "a") }
        expectRefusal(.moveNextToItself, "A") { try $0.moveSection("A", beforeSection: "A") }
        var empty = StringSnapshot()
        #expect(throws: ListSnapshotEditError(code: .noSection, subject: "")) { try empty.appendItems([Item(id: "a")]) }
        #expect(ListSnapshotEditError(code: .noSection, subject: "").description.contains("no section"))
    }
}
