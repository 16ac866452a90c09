import Foundation
import Testing

@testable import ListAdapter

/// FORMAT.md's reference `apply`: its example, each of its four steps, and every validity rule
/// with its exact message.
@Suite("Apply: FORMAT.md's reference semantics")
struct ApplyTests {
    // MARK: FORMAT.md's example

    /// FORMAT.md's changes example, verbatim.
    static let formatChanges = """
        {"sections": {"deleted": [2],
                      "inserted": [{"index": 0, "title": "New", "items": [{"id": "x", "summary": "s"}]}],
                      "moved": [{"from": 0, "to": 3}]},
         "items": {"deleted": [[1, 4]],
                   "inserted": [{"at": [1, 0], "id": "y", "summary": "t"}],
                   "moved": [{"from": [1, 2], "to": [2, 5]}],
                   "updated": [{"from": [1, 3], "to": [1, 1], "summary": "u"}]}}
        """

    /// An *O* for FORMAT.md's example: section 2 ("C") goes, "A" moves from 0 to 3, "B" loses
    /// b4 and b2 (which moves to [2, 5]) and gains y, "D" gains b2.
    static let formatOld = makeSnapshot([
        ("A", ["a0"]),
        ("B", ["b0", "b1", "b2", "b3=old", "b4"]),
        ("C", ["c0"]),
        ("D", ["d0", "d1", "d2", "d3", "d4"]),
    ])

    /// The *N* that FORMAT.md's example gives, with its update read at `to: [1, 3]`.
    static let formatNew = makeSnapshot([
        ("New", ["x=s"]),
        ("B", ["y=t", "b0", "b1", "b3=u"]),
        ("D", ["d0", "d1", "d2", "d3", "d4", "b2"]),
        ("A", ["a0"]),
    ])

    @Test("FORMAT.md's example, decoded from its JSON, takes O to N (its update read at [1, 3])")
    func formatExample() throws {
        var changes = try JSONDecoder().decode(StringChanges.self, from: Data(Self.formatChanges.utf8))

        // As printed, the example's update cannot hold for any O: in section 1, [1, 0] and
        // [1, 1] stay and y arrives at [1, 0], so the item at [1, 3] lands at [1, 3], not [1, 1].
        let error = #expect(throws: ListChangesError.self) { try Self.formatOld.applying(changes) }
        #expect(error?.code == .updateMismatch)
        #expect(
            error?.message
                == #"item update from [1, 3] to [1, 1]: the item at [1, 3] is "b3", but the item at [1, 1] "#
                + #"after the changes is "b0""#)

        changes.updatedItems[0].to = ItemPath(section: 1, item: 3)
        #expect(try Self.formatOld.applying(changes) == Self.formatNew)

        // With that reading, the example is exactly what the diff finds for this pair.
        #expect(Self.formatOld.changes(to: Self.formatNew) == changes)
    }

    // MARK: The four steps

    @Test("no changes give the same snapshot; from the empty snapshot every section is inserted")
    func identityAndFromEmpty() throws {
        let old = makeSnapshot([("A", ["a=1", "b"]), ("", [])])
        #expect(try old.applying(StringChanges()) == old)
        let fromEmpty = StringChanges(insertedSections: old.sections.enumerated().map { .init(index: $0, section: $1) })
        #expect(try StringSnapshot().applying(fromEmpty) == old)
        #expect(try old.applying(StringChanges(deletedSections: [0, 1])) == StringSnapshot())
    }

    @Test("step 1: removals are in O's coordinates, and a deleted section takes its items")
    func stepOneRemovals() throws {
        let old = makeSnapshot([("A", ["a", "b", "c", "d"]), ("B", ["e"]), ("C", ["f", "g"])])
        // [0, 0] and [0, 2] are a and c, not a and d (which an index-shifting reading would give).
        let changes = StringChanges(
            deletedSections: [1], deletedItems: [.init(section: 0, item: 0), .init(section: 0, item: 2)])
        #expect(try old.applying(changes) == makeSnapshot([("A", ["b", "d"]), ("C", ["f", "g"])]))
        // Listing order does not matter.
        var reversed = changes
        reversed.deletedItems.reverse()
        #expect(try old.applying(reversed) == makeSnapshot([("A", ["b", "d"]), ("C", ["f", "g"])]))
    }

    @Test("step 1: a moved item keeps its identifier and summary")
    func stepOneMovedItemsTravel() throws {
        let old = makeSnapshot([("A", ["a=1", "b=2"]), ("B", ["c"])])
        let changes = StringChanges(movedItems: [
            .init(from: .init(section: 0, item: 0), to: .init(section: 1, item: 1))
        ])
        #expect(try old.applying(changes) == makeSnapshot([("A", ["b=2"]), ("B", ["c", "a=1"])]))
    }

    @Test("step 2: inserted at index, moved at to, other survivors fill free slots in O order")
    func stepTwoSectionSlots() throws {
        let old = makeSnapshot([("A", ["a"]), ("B", []), ("C", ["c"]), ("D", []), ("E", ["e"])])
        let changes = StringChanges(
            deletedSections: [1],
            insertedSections: [.init(index: 0, section: .init(title: "X", items: [.init(id: "x", summary: "s")]))],
            movedSections: [.init(from: 3, to: 1)])
        // 5 - 1 + 1 slots: [X, D, _, _, _]; A, C, E fill the rest in O order.
        #expect(
            try old.applying(changes)
                == makeSnapshot([("X", ["x=s"]), ("D", []), ("A", ["a"]), ("C", ["c"]), ("E", ["e"])]))
    }

    @Test("step 2: a moved section keeps its items, and item paths follow it")
    func stepTwoMovedSectionItems() throws {
        let old = makeSnapshot([("A", ["a", "b"]), ("B", ["c"])])
        // A moves to 1; b (O [0, 1]) moves to N [0, 0], which is section B now.
        let changes = StringChanges(
            movedSections: [.init(from: 0, to: 1)],
            movedItems: [.init(from: .init(section: 0, item: 1), to: .init(section: 0, item: 0))])
        #expect(try old.applying(changes) == makeSnapshot([("B", ["b", "c"]), ("A", ["a"])]))
    }

    @Test("step 3: inserted at at, moved at to, the items that stayed fill free slots in O order")
    func stepThreeItemSlots() throws {
        let old = makeSnapshot([("A", ["a", "b", "c", "d", "e"])])
        let changes = StringChanges(
            deletedItems: [.init(section: 0, item: 1)],
            insertedItems: [.init(at: .init(section: 0, item: 0), id: "y", summary: nil)],
            movedItems: [.init(from: .init(section: 0, item: 4), to: .init(section: 0, item: 2))])
        // 3 stay (a, c, d) + 2 arrive: [y, _, e, _, _].
        #expect(try old.applying(changes) == makeSnapshot([("A", ["y", "a", "e", "c", "d"])]))
    }

    @Test("step 3: sizes are what stayed plus what arrives, across sections")
    func stepThreeAcrossSections() throws {
        let old = makeSnapshot([("A", ["a", "b"]), ("B", []), ("C", ["c"])])
        let changes = StringChanges(
            deletedSections: [2],
            insertedSections: [.init(index: 1, section: .init(title: "N", items: [.init(id: "c")]))],
            movedItems: [
                .init(from: .init(section: 0, item: 0), to: .init(section: 2, item: 0)),
                .init(from: .init(section: 0, item: 1), to: .init(section: 2, item: 1)),
            ])
        #expect(try old.applying(changes) == makeSnapshot([("A", []), ("N", ["c"]), ("B", ["a", "b"])]))
    }

    @Test("step 4: an update sets the summary at its to, including nil and a moved item's")
    func stepFourUpdates() throws {
        let old = makeSnapshot([("A", ["a=1", "b=1", "c"])])
        let changes = StringChanges(
            deletedItems: [.init(section: 0, item: 0)],
            movedItems: [.init(from: .init(section: 0, item: 2), to: .init(section: 0, item: 0))],
            updatedItems: [
                .init(from: .init(section: 0, item: 1), to: .init(section: 0, item: 1), summary: nil),
                .init(from: .init(section: 0, item: 2), to: .init(section: 0, item: 0), summary: "2"),
            ])
        #expect(try old.applying(changes) == makeSnapshot([("A", ["c=2", "b"])]))
    }

    // MARK: Validity rules

    /// An invalid change list for ``base`` and the error it must give.
    struct Invalid: CustomTestStringConvertible, Sendable {
        let name: String
        let changes: StringChanges
        let code: ListChangesError.Code
        let position: [Int]
        let message: String
        var testDescription: String { name }
    }

    /// Counts [3, 2, 1].
    static let base = makeSnapshot([("A", ["a", "b", "c"]), ("B", ["d", "e"]), ("C", ["f"])])

    static func path(_ section: Int, _ item: Int) -> ItemPath { ItemPath(section: section, item: item) }
    static func insertedSection(_ index: Int, _ title: String) -> StringChanges.SectionInsertion {
        .init(index: index, section: .init(title: title))
    }
    static func insertion(_ section: Int, _ item: Int, _ id: String) -> StringChanges.ItemInsertion {
        .init(at: path(section, item), id: id, summary: nil)
    }
    static func move(_ from: ItemPath, _ to: ItemPath) -> StringChanges.ItemMove { .init(from: from, to: to) }
    static func update(_ from: ItemPath, _ to: ItemPath) -> StringChanges.ItemUpdate {
        .init(from: from, to: to, summary: "new")
    }

    static let invalid: [Invalid] = [
        // Section indices inside O and N.
        Invalid(
            name: "section deletion outside O", changes: .init(deletedSections: [5]), code: .sectionOutOfBounds,
            position: [5], message: "section deletion 5: the snapshot has 3 sections"),
        Invalid(
            name: "negative section deletion", changes: .init(deletedSections: [-1]), code: .sectionOutOfBounds,
            position: [-1], message: "section deletion -1: the snapshot has 3 sections"),
        Invalid(
            name: "section move from outside O", changes: .init(movedSections: [.init(from: 3, to: 0)]),
            code: .sectionOutOfBounds, position: [3], message: "section move from 3: the snapshot has 3 sections"),
        Invalid(
            name: "section insertion outside N", changes: .init(insertedSections: [insertedSection(4, "X")]),
            code: .sectionOutOfBounds, position: [4], message: "section insertion at 4: the result has 4 sections"),
        Invalid(
            name: "section move to outside N", changes: .init(movedSections: [.init(from: 0, to: 3)]),
            code: .sectionOutOfBounds, position: [3], message: "section move to 3: the result has 3 sections"),
        // No O section index twice across deleted and moved-from, no N one across inserted and moved-to.
        Invalid(
            name: "section deleted twice", changes: .init(deletedSections: [1, 1]), code: .sectionListedTwice,
            position: [1], message: "section deletion 1: section 1 is deleted twice"),
        Invalid(
            name: "section deleted and moved",
            changes: .init(deletedSections: [1], movedSections: [.init(from: 1, to: 0)]), code: .sectionListedTwice,
            position: [1], message: "section move from 1: section 1 is also deleted"),
        Invalid(
            name: "section moved twice",
            changes: .init(movedSections: [.init(from: 0, to: 1), .init(from: 0, to: 2)]),
            code: .sectionListedTwice, position: [0], message: "section move from 0: section 0 is moved twice"),
        Invalid(
            name: "two sections inserted at one index",
            changes: .init(insertedSections: [insertedSection(0, "X"), insertedSection(0, "Y")]),
            code: .sectionListedTwice, position: [0],
            message: "section insertion at 0: two sections are inserted at 0"),
        Invalid(
            name: "section inserted where one moves to",
            changes: .init(insertedSections: [insertedSection(1, "X")], movedSections: [.init(from: 0, to: 1)]),
            code: .sectionListedTwice, position: [1], message: "section move to 1: a section is also inserted at 1"),
        Invalid(
            name: "two sections moved to one index",
            changes: .init(movedSections: [.init(from: 0, to: 2), .init(from: 1, to: 2)]),
            code: .sectionListedTwice, position: [2], message: "section move to 2: two sections are moved to 2"),
        // Item paths inside O.
        Invalid(
            name: "item deletion in a section outside O", changes: .init(deletedItems: [path(5, 0)]),
            code: .itemOutOfBounds, position: [5, 0], message: "item deletion at [5, 0]: the snapshot has 3 sections"),
        Invalid(
            name: "item move from past the end of its section",
            changes: .init(movedItems: [move(path(1, 2), path(0, 0))]), code: .itemOutOfBounds, position: [1, 2],
            message: "item move from [1, 2]: section 1 has 2 items"),
        Invalid(
            name: "item update from a negative item", changes: .init(updatedItems: [update(path(0, -1), path(0, 0))]),
            code: .itemOutOfBounds, position: [0, -1], message: "item update from [0, -1]: section 0 has 3 items"),
        // No O item path in a deleted section.
        Invalid(
            name: "item deleted in a deleted section", changes: .init(deletedSections: [2], deletedItems: [path(2, 0)]),
            code: .itemInDeletedSection, position: [2, 0],
            message: "item deletion at [2, 0]: section 2 is deleted, and its items go with it"),
        Invalid(
            name: "item moved out of a deleted section",
            changes: .init(deletedSections: [2], movedItems: [move(path(2, 0), path(0, 0))]),
            code: .itemInDeletedSection, position: [2, 0],
            message: "item move from [2, 0]: section 2 is deleted, and its items go with it"),
        Invalid(
            name: "item updated in a deleted section",
            changes: .init(deletedSections: [2], updatedItems: [update(path(2, 0), path(1, 0))]),
            code: .itemInDeletedSection, position: [2, 0],
            message: "item update from [2, 0]: section 2 is deleted, and its items go with it"),
        // Item paths inside N.
        Invalid(
            name: "item insertion in a section outside N", changes: .init(insertedItems: [insertion(3, 0, "x")]),
            code: .itemOutOfBounds, position: [3, 0], message: "item insertion at [3, 0]: the result has 3 sections"),
        Invalid(
            name: "item insertion past the end", changes: .init(insertedItems: [insertion(0, 4, "x")]),
            code: .itemOutOfBounds, position: [0, 4],
            message: "item insertion at [0, 4]: section 0 has 4 items in the result"),
        Invalid(
            name: "item move to past the end", changes: .init(movedItems: [move(path(0, 0), path(0, 3))]),
            code: .itemOutOfBounds, position: [0, 3],
            message: "item move to [0, 3]: section 0 has 3 items in the result"),
        Invalid(
            name: "item update to past the end", changes: .init(updatedItems: [update(path(2, 0), path(2, 1))]),
            code: .itemOutOfBounds, position: [2, 1],
            message: "item update to [2, 1]: section 2 has 1 items in the result"),
        // No N item path in an inserted section.
        Invalid(
            name: "item inserted into an inserted section",
            changes: .init(insertedSections: [insertedSection(0, "X")], insertedItems: [insertion(0, 0, "x")]),
            code: .itemInInsertedSection, position: [0, 0],
            message: "item insertion at [0, 0]: section 0 is inserted with all of its items"),
        Invalid(
            name: "item moved into an inserted section",
            changes: .init(insertedSections: [insertedSection(0, "X")], movedItems: [move(path(1, 0), path(0, 0))]),
            code: .itemInInsertedSection, position: [0, 0],
            message: "item move to [0, 0]: section 0 is inserted with all of its items"),
        Invalid(
            name: "item updated into an inserted section",
            changes: .init(insertedSections: [insertedSection(0, "X")], updatedItems: [update(path(0, 0), path(0, 0))]),
            code: .itemInInsertedSection, position: [0, 0],
            message: "item update to [0, 0]: section 0 is inserted with all of its items"),
        Invalid(
            name: "item update to a section outside N", changes: .init(updatedItems: [update(path(0, 0), path(3, 0))]),
            code: .itemOutOfBounds, position: [3, 0], message: "item update to [3, 0]: the result has 3 sections"),
        // No O path twice across deleted and moved-from, no N path twice across inserted and moved-to.
        Invalid(
            name: "item deleted twice", changes: .init(deletedItems: [path(0, 1), path(0, 1)]),
            code: .itemListedTwice, position: [0, 1],
            message: "item deletion at [0, 1]: the item at [0, 1] is deleted twice"),
        Invalid(
            name: "item deleted and moved",
            changes: .init(deletedItems: [path(0, 1)], movedItems: [move(path(0, 1), path(1, 0))]),
            code: .itemListedTwice, position: [0, 1],
            message: "item move from [0, 1]: the item at [0, 1] is also deleted"),
        Invalid(
            name: "item moved twice",
            changes: .init(movedItems: [move(path(0, 0), path(0, 2)), move(path(0, 0), path(0, 1))]),
            code: .itemListedTwice, position: [0, 0],
            message: "item move from [0, 0]: the item at [0, 0] is moved twice"),
        Invalid(
            name: "two items inserted at one path",
            changes: .init(insertedItems: [insertion(0, 0, "x"), insertion(0, 0, "y")]),
            code: .itemListedTwice, position: [0, 0],
            message: "item insertion at [0, 0]: two items are inserted at [0, 0]"),
        Invalid(
            name: "item inserted where one moves to",
            changes: .init(insertedItems: [insertion(0, 2, "x")], movedItems: [move(path(1, 0), path(0, 2))]),
            code: .itemListedTwice, position: [0, 2], message: "item move to [0, 2]: an item is also inserted at [0, 2]"
        ),
        Invalid(
            name: "two items moved to one path",
            changes: .init(movedItems: [move(path(1, 0), path(0, 0)), move(path(1, 1), path(0, 0))]),
            code: .itemListedTwice, position: [0, 0], message: "item move to [0, 0]: two items are moved to [0, 0]"),
        Invalid(
            name: "item updated twice",
            changes: .init(updatedItems: [update(path(0, 0), path(0, 0)), update(path(0, 0), path(0, 0))]),
            code: .itemListedTwice, position: [0, 0],
            message: "item update from [0, 0]: the item at [0, 0] is updated twice"),
        Invalid(
            name: "two updates to one path",
            changes: .init(updatedItems: [update(path(0, 0), path(0, 1)), update(path(0, 1), path(0, 1))]),
            code: .itemListedTwice, position: [0, 1], message: "item update to [0, 1]: two items are updated at [0, 1]"),
        // An updated item is neither deleted nor inserted.
        Invalid(
            name: "updated item deleted",
            changes: .init(deletedItems: [path(0, 1)], updatedItems: [update(path(0, 1), path(0, 1))]),
            code: .updatedItemDeleted, position: [0, 1],
            message: "item update from [0, 1]: the item there is also deleted"),
        Invalid(
            name: "updated item inserted",
            changes: .init(insertedItems: [insertion(0, 0, "x")], updatedItems: [update(path(0, 0), path(0, 0))]),
            code: .updatedItemInserted, position: [0, 0],
            message: "item update to [0, 0]: an item is also inserted there"),
        // Step 4: the id at to is the id at from.
        Invalid(
            name: "update landing on another item", changes: .init(updatedItems: [update(path(0, 0), path(0, 1))]),
            code: .updateMismatch, position: [0, 1],
            message: #"item update from [0, 0] to [0, 1]: the item at [0, 0] is "a", but the item at [0, 1] "#
                + #"after the changes is "b""#),
        // The result must be a snapshot.
        Invalid(
            name: "inserted identifier that stays elsewhere", changes: .init(insertedItems: [insertion(0, 0, "d")]),
            code: .invalidResult, position: [1, 0],
            message: #"the changes do not produce a valid snapshot: duplicate item id "d" at [0, 0] and [1, 0]; "#
                + "item ids must be unique across a snapshot"),
        Invalid(
            name: "inserted section with a surviving title",
            changes: .init(insertedSections: [insertedSection(0, "B")]),
            code: .invalidResult, position: [2],
            message: #"the changes do not produce a valid snapshot: duplicate section title "B" at sections 0 and 2; "#
                + "section titles must be unique within a snapshot"),
    ]

    @Test("every validity rule throws its error, with its exact message", arguments: invalid)
    func validityRule(_ invalid: Invalid) {
        let error = #expect(throws: ListChangesError.self) { try Self.base.applying(invalid.changes) }
        #expect(error?.code == invalid.code)
        #expect(error?.position == invalid.position)
        #expect(error?.message == invalid.message)
        #expect(error?.description == invalid.message)
    }

    @Test("the invalid-result error carries the snapshot error")
    func invalidResultUnderlying() {
        let error = #expect(throws: ListChangesError.self) {
            try Self.base.applying(StringChanges(insertedItems: [Self.insertion(0, 0, "d")]))
        }
        #expect(error?.underlying?.code == .duplicateItemID)
    }

    @Test("apply accepts an update of a moved item; only UIKit-strict validation refuses it")
    func updatedMovedItem() throws {
        let changes = StringChanges(
            movedItems: [Self.move(Self.path(0, 0), Self.path(0, 2))],
            updatedItems: [Self.update(Self.path(0, 0), Self.path(0, 2))])
        #expect(
            try Self.base.applying(changes)
                == makeSnapshot([("A", ["b", "c", "a=new"]), ("B", ["d", "e"]), ("C", ["f"])]))
        let violation = changes.violation(oldItemCounts: Self.base.itemCounts, refusingUpdatesOfMovedItems: true)
        #expect(violation == .updatedItemMoved(from: Self.path(0, 0), to: Self.path(0, 2)))
        #expect(
            violation.map(ListChangesError.init)?.message
                == "item update from [0, 0] to [0, 2]: the item also moves, and UIKit refuses to reload a moving item; "
                + "deliver the update after the batch (splitForUIKit())")
    }

    @Test("given the data source's counts, unbalanced counts are violations too")
    func countViolations() {
        let counts = Self.base.itemCounts
        let sections = StringChanges().violation(oldItemCounts: counts, newItemCounts: [3, 2])
        #expect(sections == .sectionCountMismatch(before: 3, after: 2, inserted: 0, deleted: 0))
        #expect(
            sections.map(ListChangesError.init)?.message
                == "section count: the result has 2 sections, but 3 sections minus 0 deleted plus 0 inserted make 3")
        let moves = StringChanges(movedItems: [Self.move(Self.path(0, 0), Self.path(1, 0))])
        let items = moves.violation(oldItemCounts: counts, newItemCounts: [3, 2, 1])
        #expect(
            items
                == .itemCountMismatch(section: 0, before: 3, after: 3, inserted: 0, deleted: 0, movedIn: 0, movedOut: 1)
        )
        #expect(
            items.map(ListChangesError.init)?.message
                == "section 0: the result has 3 items, but 3 items minus 0 deleted and 1 moved out plus 0 inserted "
                + "and 0 moved in make 2")
        #expect(moves.violation(oldItemCounts: counts, newItemCounts: [2, 3, 1]) == nil)
    }
}
