import Foundation
import Testing

@testable import ListAdapter

/// FORMAT.md's reference `apply` beyond the shared conformance cases (ApplyConformanceTests):
/// its example against the diff, the underlying error of an invalid result, and the validations
/// that UIKit adds.
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

    @Test("FORMAT.md's example, decoded from its JSON with its update read at [1, 3], is what the diff finds")
    func formatExample() throws {
        var changes = try JSONDecoder().decode(StringChanges.self, from: Data(Self.formatChanges.utf8))
        // As printed, the example's update cannot hold for any O (the conformance case "FORMAT.md's
        // example as printed"): in section 1, [1, 0] and [1, 1] stay and y arrives at [1, 0], so the
        // item at [1, 3] lands at [1, 3], not [1, 1].
        changes.updatedItems[0].to = ItemPath(section: 1, item: 3)
        #expect(Self.formatOld.changes(to: Self.formatNew) == changes)
    }

    // The four steps, FORMAT.md's example applied and every validity rule with its exact message
    // are the shared conformance cases (ApplyConformanceTests), which the viewer's JavaScript runs too.

    // MARK: Errors beyond the cases, and UIKit's rules

    /// Counts [3, 2, 1].
    static let base = makeSnapshot([("A", ["a", "b", "c"]), ("B", ["d", "e"]), ("C", ["f"])])

    static func path(_ section: Int, _ item: Int) -> ItemPath { ItemPath(section: section, item: item) }
    static func insertion(_ section: Int, _ item: Int, _ id: String) -> StringChanges.ItemInsertion {
        .init(at: path(section, item), id: id, summary: nil)
    }
    static func move(_ from: ItemPath, _ to: ItemPath) -> StringChanges.ItemMove { .init(from: from, to: to) }
    static func update(_ from: ItemPath, _ to: ItemPath) -> StringChanges.ItemUpdate {
        .init(from: from, to: to, summary: "new")
    }

    @Test("the invalid-result error carries the snapshot error")
    func invalidResultUnderlying() {
        let error = #expect(throws: ListChangesError.self) {
            try Self.base.applying(StringChanges(insertedItems: [Self.insertion(0, 0, "d")]))
        }
        #expect(error?.underlying?.code == .duplicateItemID)
    }

    @Test("UIKit-strict validation refuses an update of a moved item, which apply accepts")
    func updatedMovedItem() throws {
        let changes = StringChanges(
            movedItems: [Self.move(Self.path(0, 0), Self.path(0, 2))],
            updatedItems: [Self.update(Self.path(0, 0), Self.path(0, 2))])
        // That apply takes it is the conformance case "apply accepts an update of a moved item".
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
