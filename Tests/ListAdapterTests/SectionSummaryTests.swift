import Testing

@testable import ListAdapter

/// Section summaries: the diff's section updates, applying them, the validator's rules for them,
/// UIKit's refusal of a reload of a moving section, and a data source that states them.
@Suite("Section summaries")
struct SectionSummaryTests {
    /// A snapshot from `(title, section summary, items)`; items as `makeSnapshot` reads them.
    static func snapshot(_ sections: [(String, String?, [String])]) -> StringSnapshot {
        let plain = makeSnapshot(sections.map { ($0.0, $0.2) })
        return try! StringSnapshot(
            sections: zip(plain.sections, sections).map { section, described in
                StringSnapshot.Section(title: section.title, summary: described.1, items: section.items)
            })
    }

    static let old = snapshot([("A", "1 unread", ["a", "b"]), ("B", nil, ["c"]), ("C", "x", []), ("D", "d", [])])

    @Test("a summary that changes, appears or disappears is a section update; an equal one is not")
    func diff() throws {
        let new = Self.snapshot([("A", "2 unread", ["a", "b"]), ("B", "new", ["c"]), ("C", nil, []), ("D", "d", [])])
        let changes = Self.old.changes(to: new)
        #expect(
            changes.updatedSections == [
                .init(from: 0, to: 0, summary: "2 unread"), .init(from: 1, to: 1, summary: "new"),
                .init(from: 2, to: 2, summary: nil),
            ])
        #expect(changes.operationCount == 3 && changes.counts.sectionsUpdated == 3)
        #expect(try Self.old.applying(changes) == new)
        #expect(Self.old.changes(to: Self.old).isEmpty)
    }

    @Test("section summaries compare code point by code point, as titles and item summaries do")
    func codePoints() throws {
        let composed = Self.snapshot([("A", "caf\u{E9}", ["a"])])
        let decomposed = Self.snapshot([("A", "cafe\u{301}", ["a"])])
        #expect(composed != decomposed)
        let changes = composed.changes(to: decomposed)
        #expect(changes.updatedSections == [.init(from: 0, to: 0, summary: "cafe\u{301}")])
        #expect(try composed.applying(changes) == decomposed)
    }

    @Test("a moved section that is updated carries its O and N offsets; inserted sections keep theirs")
    func movedAndInserted() throws {
        let new = Self.snapshot([
            ("D", "d2", []), ("N", "fresh", ["n"]), ("A", "1 unread", ["a", "b"]), ("B", nil, ["c"]),
        ])
        let changes = Self.old.changes(to: new)
        #expect(changes.deletedSections == [2])
        #expect(changes.insertedSections.map(\.section.summary) == ["fresh"])
        #expect(changes.movedSections == [.init(from: 3, to: 0)])
        #expect(changes.updatedSections == [.init(from: 3, to: 0, summary: "d2")])
        #expect(try Self.old.applying(changes) == new)
    }

    @Test("applying checks each section update lands on its own section")
    func mismatch() {
        let changes = StringChanges(
            movedSections: [.init(from: 1, to: 0)], updatedSections: [.init(from: 0, to: 0, summary: "s")])
        let error = #expect(throws: ListChangesError.self) { try Self.old.applying(changes) }
        #expect(error?.code == .updateMismatch)
        #expect(error?.position == [0])
        #expect(
            error?.message
                == #"section update from 0 to 0: the section at 0 is "A", but the section at 0 after the changes is "B""#
        )
    }

    @Test(
        "the validator refuses section updates of deleted, inserted or out-of-range sections, and twice",
        arguments: [
            (
                StringChanges(deletedSections: [1], updatedSections: [.init(from: 1, to: 1, summary: "s")]),
                ListRuleViolationCode.updatedSectionDeleted, [1],
                "section update from 1: the section there is also deleted"
            ),
            (
                StringChanges(
                    insertedSections: [.init(index: 0, section: .init(title: "N"))],
                    updatedSections: [.init(from: 0, to: 0, summary: "s")]),
                .updatedSectionInserted, [0], "section update to 0: a section is also inserted there"
            ),
            (
                StringChanges(updatedSections: [.init(from: 4, to: 0, summary: "s")]),
                .sectionOutOfBounds, [4], "section update from 4: the snapshot has 4 sections"
            ),
            (
                StringChanges(updatedSections: [.init(from: 0, to: 7, summary: "s")]),
                .sectionOutOfBounds, [7], "section update to 7: the result has 4 sections"
            ),
            (
                StringChanges(updatedSections: [
                    .init(from: 0, to: 0, summary: "s"), .init(from: 0, to: 1, summary: "t"),
                ]),
                .sectionListedTwice, [0], "section update from 0: section 0 is updated twice"
            ),
            (
                StringChanges(updatedSections: [
                    .init(from: 0, to: 1, summary: "s"), .init(from: 1, to: 1, summary: "t"),
                ]),
                .sectionListedTwice, [1], "section update to 1: two sections are updated at 1"
            ),
        ])
    func validator(changes: StringChanges, code: ListRuleViolationCode, position: [Int], message: String) {
        let error = #expect(throws: ListChangesError.self) { try Self.old.applying(changes) }
        #expect(error?.code == code)
        #expect(error?.position == position)
        #expect(error?.message == message)
        let violation = changes.violation(oldItemCounts: Self.old.itemCounts)
        #expect(violation.map(BatchUpdateError.init)?.code == code)
    }

    @Test("UIKit refuses to reload a moving section; the split reloads its header after the batch")
    func uiKit() throws {
        let new = Self.snapshot([("B", nil, ["c"]), ("A", "3 unread", ["a", "b"]), ("C", "y", []), ("D", "d", [])])
        let changes = Self.old.changes(to: new)
        #expect(changes.movedSections == [.init(from: 1, to: 0)] || changes.movedSections == [.init(from: 0, to: 1)])
        var strict = StrictListView<String, String, String>(showing: Self.old)
        if changes.movedSections == [.init(from: 0, to: 1)] {
            let error = #expect(throws: BatchUpdateError.self) {
                try strict.performBatchUpdates(changes, resultingIn: new)
            }
            #expect(error?.code == .updatedSectionMoved)
            #expect(
                error?.message
                    == "attempt to perform a delete and a move from the same section (0) (the section is reloaded and "
                    + "moved to 1 in the same batch; reload it after the batch instead: ListChanges.splitForUIKit())")
            let (batch, reconfigures, sectionReloads) = changes.splitForUIKit()
            #expect(reconfigures.isEmpty)
            #expect(sectionReloads == [.init(from: 1, to: 1, summary: "3 unread")])
            #expect(batch.updatedSections == [.init(from: 2, to: 2, summary: "y")])
        }
        var renderer = UIKitStrictRenderer<String, String, String>(showing: Self.old)
        try renderer.performBatchUpdates(changes, resultingIn: new)
        #expect(renderer.view.snapshot == new && renderer.view.batchCount == 1)
    }

    @Test("a moved and updated section is refused in .uiKit and accepted in .format, whatever the diff picks")
    func movedUpdatedByHand() throws {
        let changes = StringChanges(
            movedSections: [.init(from: 0, to: 1)], updatedSections: [.init(from: 0, to: 1, summary: "z")])
        let new = Self.snapshot([("B", nil, ["c"]), ("A", "z", ["a", "b"]), ("C", "x", []), ("D", "d", [])])
        var strict = StrictListView<String, String, String>(showing: Self.old)
        let error = #expect(throws: BatchUpdateError.self) { try strict.performBatchUpdates(changes, resultingIn: new) }
        #expect(error?.code == .updatedSectionMoved)
        let violation = changes.violation(oldItemCounts: Self.old.itemCounts, refusingUpdatesOfMovedItems: true)
        #expect(violation.map(ListChangesError.init)?.code == .updatedSectionMoved)
        var format = StrictListView<String, String, String>(strictness: .format, showing: Self.old)
        try format.performBatchUpdates(changes, resultingIn: new)
        #expect(format.snapshot == new)
        try strict.performBatchUpdatesDeferringReconfigures(changes, resultingIn: new)
        #expect(strict.snapshot == new)
    }

    @Test("the changes describe section updates in words and count them")
    func description() {
        let changes = StringChanges(updatedSections: [
            .init(from: 0, to: 2, summary: "3 unread"), .init(from: 1, to: 1, summary: nil),
        ])
        #expect(
            changes.description == """
                sections +0 -0 ~0 *2  items +0 -0 ~0 *0
                  update section from 0 to 2: summary now "3 unread"
                  update section at 1: summary now no summary
                """)
        #expect(
            changes.describedInWords(old: Self.old).first == #"update section "A" from 0 to 2: summary now "3 unread""#)
    }

    @Test("ListContents and ListSnapshot(identifiers:) ask each section's summary once")
    func contents() throws {
        let contents = ListContents<String, String, Int>(
            identifiers: ["a", "b", "c"], sectionTitle: { $0 == "c" ? "Later" : "Today" },
            sectionSummary: { $0.count })
        let snapshot = try contents.snapshot()
        #expect(snapshot.sections.map(\.summary) == [5, 5])
        let built = try ListSnapshot<String, String, Int>(
            identifiers: ["a", "c"], sectionTitle: { $0 == "c" ? "Later" : "" }, summary: { _ in nil },
            sectionSummary: { $0.isEmpty ? nil : 1 })
        #expect(built.sections.map(\.summary) == [nil, 1])
    }
}
