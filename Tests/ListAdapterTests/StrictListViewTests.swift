import Testing

@testable import ListAdapter

/// The strict validator: UIKit's checks with UIKit's wording, refused batches that change
/// nothing, the identifier check beyond UIKit, and updates of moved items.
@Suite("StrictListView: a simulated UITableView")
struct StrictListViewTests {
    typealias View = StrictListView<String, String, String>

    static func snapshot(_ sections: [(String, [String])]) -> StringSnapshot { makeSnapshot(sections) }
    static func path(_ section: Int, _ item: Int) -> ItemPath { ItemPath(section: section, item: item) }

    /// A data source's snapshot with these row counts; its identifiers match nothing shown, which
    /// does not matter for batches refused before the identifier check.
    static func reporting(_ counts: [Int]) -> StringSnapshot {
        try! StringSnapshot(
            sections: counts.enumerated().map { section, count in
                .init(title: "R\(section)", items: (0..<count).map { .init(id: "r\(section)_\($0)") })
            })
    }

    /// Shown by the refusal cases: counts [3, 3, 1].
    static let shown = snapshot([("A", ["a", "b", "c"]), ("B", ["d", "e", "f"]), ("C", ["g"])])

    static func indexPath(_ section: Int, _ item: Int) -> String {
        "(<NSIndexPath> {length = 2, path = \(section) - \(item)})"
    }

    // MARK: State

    @Test("a new view shows nothing; reloadData replaces what it shows and counts")
    func reloadData() {
        var view = View()
        #expect(view.strictness == .uiKit)
        #expect(view.numberOfSections == 0 && view.snapshot == StringSnapshot())
        view.reloadData(Self.shown)
        #expect(view.snapshot == Self.shown)
        #expect(view.numberOfSections == 3)
        #expect((0..<3).map(view.numberOfRows(inSection:)) == [3, 3, 1])
        #expect(view.reloadCount == 1 && view.batchCount == 0)
        view.reloadData(StringSnapshot())
        #expect(view.numberOfSections == 0 && view.reloadCount == 2)
    }

    @Test("an accepted batch updates what is shown and the counts")
    func acceptedBatch() throws {
        let new = Self.snapshot([("B", ["x", "e", "d=1"]), ("A", ["a", "c"]), ("N", ["b"])])
        var view = View(showing: Self.shown)
        // Section B moves and its item d updates: UIKit takes the update after the batch.
        try view.performBatchUpdatesDeferringReconfigures(Self.shown.changes(to: new), resultingIn: new)
        #expect(view.snapshot == new)
        #expect(view.numberOfSections == 3)
        #expect((0..<3).map(view.numberOfRows(inSection:)) == [3, 2, 1])
        #expect(view.batchCount == 1 && view.reloadCount == 0)
    }

    @Test("a batch that leaves out an update leaves the old summary shown, as a table view would")
    func missedUpdateStaysStale() throws {
        let old = Self.snapshot([("A", ["a=1", "b"])])
        let new = Self.snapshot([("A", ["a=2", "b"])])
        var view = View(showing: old)
        try view.performBatchUpdates(StringChanges(), resultingIn: new)
        #expect(view.snapshot == old)
        #expect(view.snapshot != new)
    }

    // MARK: UIKit's checks, in UIKit's words

    /// A batch for ``shown`` that UIKit refuses, the counts the data source reports, and the error.
    struct Refusal: CustomTestStringConvertible, Sendable {
        let name: String
        let changes: StringChanges
        let reported: [Int]
        let code: BatchUpdateError.Code
        let message: String
        var testDescription: String { name }
    }

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

    static let refusals: [Refusal] = [
        // Counts.
        Refusal(
            name: "invalid number of sections", changes: .init(), reported: [3, 3, 1, 0], code: .sectionCountMismatch,
            message: "Invalid update: invalid number of sections. The number of sections contained in the table view "
                + "after the update (4) must be equal to the number of sections contained in the table view before "
                + "the update (3), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted)."),
        Refusal(
            name: "invalid number of rows, with a move out", changes: .init(movedItems: [move(path(0, 0), path(1, 0))]),
            reported: [3, 3, 1], code: .itemCountMismatch,
            message: "Invalid update: invalid number of rows in section 0. The number of rows contained in an existing "
                + "section after the update (3) must be equal to the number of rows contained in that section before "
                + "the update (3), plus or minus the number of rows inserted or deleted from that section (0 inserted, "
                + "0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 1 "
                + "moved out)."),
        // Section indices.
        Refusal(
            name: "delete a section outside", changes: .init(deletedSections: [5]), reported: [3, 3, 1],
            code: .sectionOutOfBounds,
            message: "attempt to delete section 5, but there are only 3 sections before the update"),
        Refusal(
            name: "move a section from outside", changes: .init(movedSections: [.init(from: 3, to: 0)]),
            reported: [3, 3, 1], code: .sectionOutOfBounds,
            message: "attempt to move section 3, but there are only 3 sections before the update"),
        Refusal(
            name: "insert a section outside", changes: .init(insertedSections: [insertedSection(4, "X")]),
            reported: [3, 3, 1, 0], code: .sectionOutOfBounds,
            message: "attempt to insert section 4 but there are only 4 sections after the update"),
        Refusal(
            name: "move a section to outside", changes: .init(movedSections: [.init(from: 0, to: 3)]),
            reported: [3, 3, 1], code: .sectionOutOfBounds,
            message: "attempt to move section 0 to section 3, but there are only 3 sections after the update"),
        Refusal(
            name: "delete a section twice", changes: .init(deletedSections: [1, 1]), reported: [3, 1],
            code: .sectionListedTwice, message: "attempt to delete section 1 twice"),
        Refusal(
            name: "delete and move a section",
            changes: .init(deletedSections: [1], movedSections: [.init(from: 1, to: 0)]),
            reported: [3, 1], code: .sectionListedTwice,
            message: "attempt to perform a delete and a move from the same section (1)"),
        Refusal(
            name: "move a section twice",
            changes: .init(movedSections: [.init(from: 0, to: 1), .init(from: 0, to: 2)]),
            reported: [3, 3, 1], code: .sectionListedTwice,
            message: "attempt to perform multiple moves from the same section (0)"),
        Refusal(
            name: "insert two sections at one index",
            changes: .init(insertedSections: [insertedSection(0, "X"), insertedSection(0, "Y")]),
            reported: [0, 0, 3, 3, 1], code: .sectionListedTwice, message: "attempt to insert section 0 twice"),
        Refusal(
            name: "insert and move to one section",
            changes: .init(insertedSections: [insertedSection(1, "X")], movedSections: [.init(from: 0, to: 1)]),
            reported: [3, 0, 3, 1], code: .sectionListedTwice,
            message: "attempt to perform an insert and a move to the same section (1)"),
        Refusal(
            name: "move two sections to one",
            changes: .init(movedSections: [.init(from: 0, to: 2), .init(from: 1, to: 2)]), reported: [3, 3, 1],
            code: .sectionListedTwice, message: "attempt to perform multiple moves to the same section (2)"),
        // Rows before the update.
        Refusal(
            name: "delete a row of a section outside", changes: .init(deletedItems: [path(5, 0)]), reported: [3, 3, 1],
            code: .itemOutOfBounds,
            message: "attempt to delete row 0 from section 5, but there are only 3 sections before the update"),
        Refusal(
            name: "delete a row outside", changes: .init(deletedItems: [path(1, 4)]), reported: [3, 2, 1],
            code: .itemOutOfBounds,
            message: "attempt to delete row 4 from section 1 which only contains 3 rows before the update"),
        Refusal(
            name: "move a row from outside", changes: .init(movedItems: [move(path(1, 3), path(0, 0))]),
            reported: [4, 2, 1], code: .itemOutOfBounds,
            message: "attempt to move index path \(indexPath(1, 3)) that does not exist - there are only 3 rows in "
                + "section 1 before the update"),
        Refusal(
            name: "move a row from a section outside", changes: .init(movedItems: [move(path(4, 0), path(0, 0))]),
            reported: [4, 3, 1], code: .itemOutOfBounds,
            message: "attempt to move index path \(indexPath(4, 0)) that does not exist - there are only 3 sections "
                + "before the update"),
        Refusal(
            name: "reload a row outside", changes: .init(updatedItems: [update(path(0, 3), path(0, 0))]),
            reported: [3, 3, 1], code: .itemOutOfBounds,
            message: "attempt to reload row 3 from section 0 which only contains 3 rows before the update"),
        Refusal(
            name: "delete a row of a deleted section", changes: .init(deletedSections: [2], deletedItems: [path(2, 0)]),
            reported: [3, 3], code: .itemInDeletedSection, message: "cannot delete a row from a deleted section (2)"),
        Refusal(
            name: "move a row out of a deleted section",
            changes: .init(deletedSections: [2], movedItems: [move(path(2, 0), path(0, 0))]), reported: [4, 3],
            code: .itemInDeletedSection, message: "cannot move a row from a deleted section (2)"),
        // Rows after the update.
        Refusal(
            name: "insert a row into a section outside", changes: .init(insertedItems: [insertion(3, 0, "x")]),
            reported: [3, 3, 1], code: .itemOutOfBounds,
            message: "attempt to insert row 0 into section 3, but there are only 3 sections after the update"),
        Refusal(
            name: "insert a row outside", changes: .init(insertedItems: [insertion(0, 5, "x")]), reported: [4, 3, 1],
            code: .itemOutOfBounds,
            message: "attempt to insert row 5 into section 0, but there are only 4 rows in section 0 after the update"),
        Refusal(
            name: "move a row to outside", changes: .init(movedItems: [move(path(0, 0), path(1, 4))]),
            reported: [2, 4, 1], code: .itemOutOfBounds,
            message: "attempt to move index path \(indexPath(0, 0)) to index path \(indexPath(1, 4)) that does not "
                + "exist - there are only 4 rows in section 1 after the update"),
        Refusal(
            name: "reload a row as a row outside", changes: .init(updatedItems: [update(path(0, 0), path(0, 3))]),
            reported: [3, 3, 1], code: .itemOutOfBounds,
            message: "attempt to reload index path \(indexPath(0, 0)) as index path \(indexPath(0, 3)) that does not "
                + "exist - there are only 3 rows in section 0 after the update"),
        Refusal(
            name: "insert a row into an inserted section",
            changes: .init(insertedSections: [insertedSection(0, "X")], insertedItems: [insertion(0, 0, "x")]),
            reported: [1, 3, 3, 1], code: .itemInInsertedSection,
            message: "cannot insert a row into a newly inserted section (0)"),
        Refusal(
            name: "move a row into an inserted section",
            changes: .init(insertedSections: [insertedSection(0, "X")], movedItems: [move(path(1, 0), path(0, 0))]),
            reported: [1, 3, 2, 1], code: .itemInInsertedSection,
            message: "cannot move a row into a newly inserted section (0)"),
        // The same index path twice.
        Refusal(
            name: "delete a row twice", changes: .init(deletedItems: [path(0, 1), path(0, 1)]), reported: [1, 3, 1],
            code: .itemListedTwice, message: "attempt to delete the same index path twice \(indexPath(0, 1))"),
        Refusal(
            name: "delete and move a row",
            changes: .init(deletedItems: [path(0, 1)], movedItems: [move(path(0, 1), path(1, 0))]),
            reported: [1, 4, 1],
            code: .itemListedTwice,
            message: "attempt to perform a delete and a move from the same index path \(indexPath(0, 1))"),
        Refusal(
            name: "move a row twice",
            changes: .init(movedItems: [move(path(0, 0), path(0, 2)), move(path(0, 0), path(0, 1))]),
            reported: [3, 3, 1], code: .itemListedTwice,
            message: "attempt to perform multiple moves from the same index path \(indexPath(0, 0))"),
        Refusal(
            name: "insert two rows at one index path",
            changes: .init(insertedItems: [insertion(0, 0, "x"), insertion(0, 0, "y")]), reported: [5, 3, 1],
            code: .itemListedTwice, message: "attempt to insert the same index path twice \(indexPath(0, 0))"),
        Refusal(
            name: "insert and move to one index path",
            changes: .init(insertedItems: [insertion(0, 2, "x")], movedItems: [move(path(1, 0), path(0, 2))]),
            reported: [5, 2, 1], code: .itemListedTwice,
            message: "attempt to perform an insert and a move to the same index path \(indexPath(0, 2))"),
        Refusal(
            name: "move two rows to one index path",
            changes: .init(movedItems: [move(path(1, 0), path(0, 0)), move(path(1, 1), path(0, 0))]),
            reported: [5, 1, 1],
            code: .itemListedTwice,
            message: "attempt to perform multiple moves to the same index path \(indexPath(0, 0))"),
        Refusal(
            name: "reload a row twice",
            changes: .init(updatedItems: [update(path(0, 0), path(0, 0)), update(path(0, 0), path(0, 0))]),
            reported: [3, 3, 1], code: .itemListedTwice,
            message: "attempt to reload the same index path twice \(indexPath(0, 0))"),
        Refusal(
            name: "reload two rows as one",
            changes: .init(updatedItems: [update(path(0, 0), path(0, 1)), update(path(0, 1), path(0, 1))]),
            reported: [3, 3, 1], code: .itemListedTwice,
            message: "attempt to reload two rows as the same index path \(indexPath(0, 1))"),
        // Reloads.
        Refusal(
            name: "delete and reload a row",
            changes: .init(deletedItems: [path(0, 1)], updatedItems: [update(path(0, 1), path(0, 1))]),
            reported: [2, 3, 1],
            code: .updatedItemDeleted, message: "attempt to delete and reload the same index path \(indexPath(0, 1))"),
        Refusal(
            name: "insert and reload a row",
            changes: .init(insertedItems: [insertion(0, 0, "x")], updatedItems: [update(path(0, 0), path(0, 0))]),
            reported: [4, 3, 1], code: .updatedItemInserted,
            message: "attempt to insert and reload the same index path \(indexPath(0, 0))"),
        Refusal(
            name: "move and reload a row (UIKit-strict)",
            changes: .init(movedItems: [move(path(0, 0), path(0, 2))], updatedItems: [update(path(0, 0), path(0, 2))]),
            reported: [3, 3, 1], code: .updatedItemMoved,
            message: "attempt to perform a delete and a move from the same index path \(indexPath(0, 0)) (the row is "
                + "reloaded and moved to \(indexPath(0, 2)) in the same batch; reload it after the batch instead: "
                + "ListChanges.splitForUIKit())"),
        // Beyond UIKit: apply's own checks.
        Refusal(
            name: "reload landing on another row", changes: .init(updatedItems: [update(path(0, 0), path(0, 1))]),
            reported: [3, 3, 1], code: .updateMismatch,
            message: #"Invalid update: item update from [0, 0] to [0, 1]: the item at [0, 0] is "a", but the item "#
                + #"at [0, 1] after the changes is "b""#),
        Refusal(
            name: "insert an identifier shown elsewhere", changes: .init(insertedItems: [insertion(0, 0, "d")]),
            reported: [4, 3, 1], code: .invalidResult,
            message: #"Invalid update: the changes do not produce a valid snapshot: duplicate item id "d" at [0, 0] "#
                + "and [1, 0]; item ids must be unique across a snapshot"),
    ]

    @Test("UIKit's rules refuse the batch with UIKit's wording and change nothing", arguments: refusals)
    func refusal(_ refusal: Refusal) {
        var view = View(showing: Self.shown)
        let error = #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdates(refusal.changes, resultingIn: Self.reporting(refusal.reported))
        }
        #expect(error?.code == refusal.code)
        #expect(error?.message == refusal.message)
        #expect(error?.description == refusal.message)
        #expect(view.snapshot == Self.shown)
        #expect(view.batchCount == 0)
    }

    @Test("the counts messages, with the numbers of the brief's examples")
    func countMessages() {
        var view = View(showing: Self.snapshot([("A", ["a", "b"]), ("B", [])]))
        let sections = #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdates(StringChanges(), resultingIn: Self.reporting([2, 0, 0]))
        }
        #expect(
            sections?.message
                == "Invalid update: invalid number of sections. The number of sections contained in the table view "
                + "after the update (3) must be equal to the number of sections contained in the table view before "
                + "the update (2), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted).")
        #expect(sections?.position == [])
        let rows = #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdates(
                StringChanges(insertedItems: [Self.insertion(0, 0, "x")]), resultingIn: Self.reporting([4, 0]))
        }
        #expect(
            rows?.message
                == "Invalid update: invalid number of rows in section 0. The number of rows contained in an existing "
                + "section after the update (4) must be equal to the number of rows contained in that section before "
                + "the update (2), plus or minus the number of rows inserted or deleted from that section (1 inserted, "
                + "0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 "
                + "moved out).")
        #expect(rows?.position == [0])
        #expect(view.batchCount == 0 && view.numberOfRows(inSection: 0) == 2)
    }

    @Test("apply's failures carry the ListChangesError")
    func underlyingApplyError() {
        var view = View(showing: Self.shown)
        let error = #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdates(
                StringChanges(updatedItems: [Self.update(Self.path(0, 0), Self.path(0, 1))]), resultingIn: Self.shown)
        }
        #expect(error?.underlying?.code == .updateMismatch)
        #expect(error?.position == [0, 1])
    }

    // MARK: Beyond UIKit: what is shown must be what the data source reports

    @Test("balanced counts with other identifiers are refused, naming the row")
    func identifiersDiffer() {
        var view = View(showing: Self.snapshot([("A", ["a", "b"]), ("B", ["c"])]))
        let error = #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdates(
                StringChanges(), resultingIn: Self.snapshot([("A", ["a", "x"]), ("B", ["c"])]))
        }
        #expect(error?.code == .identifiersDiffer)
        #expect(error?.position == [0, 1])
        #expect(
            error?.message
                == #"Invalid update: after the update, row 1 in section 0 is "b" in the table view but "x" in the "#
                + "data source")
        #expect(view.snapshot == Self.snapshot([("A", ["a", "b"]), ("B", ["c"])]) && view.batchCount == 0)
    }

    @Test("other section titles, or an inserted section of another size, are refused")
    func sectionsDiffer() {
        let old = Self.snapshot([("A", ["a"])])
        var view = View(showing: old)
        let title = #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdates(StringChanges(), resultingIn: Self.snapshot([("Z", ["a"])]))
        }
        #expect(title?.code == .identifiersDiffer && title?.position == [0])
        #expect(
            title?.message
                == #"Invalid update: after the update, section 0 is "A" in the table view but "Z" in the data source"#)
        let insertion = StringChanges(insertedSections: [
            .init(index: 1, section: .init(title: "N", items: [.init(id: "n")]))
        ])
        let size = #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdates(insertion, resultingIn: Self.snapshot([("A", ["a"]), ("N", ["n", "m"])]))
        }
        #expect(
            size?.message
                == "Invalid update: after the update, section 1 has 1 rows in the table view but 2 in the data source")
        #expect(view.snapshot == old)
    }
}
