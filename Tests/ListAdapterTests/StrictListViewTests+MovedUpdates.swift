import PropertyBased
import Testing

@testable import ListAdapter

// Updates of moved items (UIKit refuses to reload a moving row), and the diff against the
// validator.
extension StrictListViewTests {
    // MARK: Updates of moved items

    static let movedOld = snapshot([("A", ["a=1", "b", "c=1"]), ("B", ["d"])])
    static let movedNew = snapshot([("A", ["b", "c=2"]), ("B", ["a=2", "d"])])

    @Test("splitForUIKit moves the updates of moved items to reconfigures at their N paths")
    func split() {
        let changes = Self.movedOld.changes(to: Self.movedNew)
        let (batch, reconfigures, _) = changes.splitForUIKit()
        #expect(reconfigures == [.init(from: Self.path(1, 0), to: Self.path(1, 0), summary: "2")])
        #expect(batch.updatedItems == [.init(from: Self.path(0, 2), to: Self.path(0, 1), summary: "2")])
        #expect(batch.movedItems == changes.movedItems && batch.deletedItems == changes.deletedItems)
        let noMoves = StringChanges(updatedItems: [Self.update(Self.path(0, 0), Self.path(0, 0))])
        #expect(noMoves.splitForUIKit().batch == noMoves && noMoves.splitForUIKit().reconfigures.isEmpty)
    }

    @Test(".uiKit refuses a reload of a moving row; .format accepts it")
    func strictness() throws {
        let changes = Self.movedOld.changes(to: Self.movedNew)
        var strict = View(showing: Self.movedOld)
        let error = #expect(throws: BatchUpdateError.self) {
            try strict.performBatchUpdates(changes, resultingIn: Self.movedNew)
        }
        #expect(error?.code == .updatedItemMoved)
        #expect(strict.snapshot == Self.movedOld && strict.batchCount == 0)

        var lenient = View(strictness: .format, showing: Self.movedOld)
        try lenient.performBatchUpdates(changes, resultingIn: Self.movedNew)
        #expect(lenient.snapshot == Self.movedNew && lenient.batchCount == 1)
    }

    @Test(".uiKit accepts the batch and then the reconfigures, as a UIKit renderer delivers them")
    func deferringReconfigures() throws {
        let changes = Self.movedOld.changes(to: Self.movedNew)
        var view = View(showing: Self.movedOld)
        try view.performBatchUpdatesDeferringReconfigures(changes, resultingIn: Self.movedNew)
        #expect(view.snapshot == Self.movedNew && view.batchCount == 1)

        // By hand: after the batch alone the moved item still shows its old summary.
        var manual = View(showing: Self.movedOld)
        let (batch, reconfigures, _) = changes.splitForUIKit()
        try manual.performBatchUpdates(batch, resultingIn: Self.movedNew)
        #expect(manual.snapshot.item(at: Self.path(1, 0)) == .init(id: "a", summary: "1"))
        try manual.reconfigureItems(reconfigures)
        #expect(manual.snapshot == Self.movedNew && manual.batchCount == 1)
    }

    @Test("a refused deferred batch or reconfigure changes nothing")
    func refusedReconfigures() {
        var view = View(showing: Self.movedOld)
        let outside = #expect(throws: BatchUpdateError.self) {
            try view.reconfigureItems([.init(from: Self.path(0, 3), to: Self.path(0, 3), summary: "x")])
        }
        #expect(
            outside?.message == "attempt to reload row 3 from section 0 which only contains 3 rows before the update")
        let mismatched = #expect(throws: BatchUpdateError.self) {
            try view.reconfigureItems([.init(from: Self.path(0, 0), to: Self.path(0, 1), summary: "x")])
        }
        #expect(mismatched?.code == .updateMismatch)
        #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdatesDeferringReconfigures(
                Self.movedOld.changes(to: Self.movedNew), resultingIn: Self.reporting([2, 3]))
        }
        #expect(view.snapshot == Self.movedOld && view.batchCount == 0)
    }

    // MARK: The diff, against the validator

    @Test("random pairs: .format accepts every diff; .uiKit accepts it after the split")
    func randomDiffs() async {
        var movedAndUpdated = 0
        await propertyCheck(count: 2_000, input: SnapshotPairs.generator(seed: 0x0057_21C7)) { pair in
            let (old, new) = (pair.old, pair.new)
            let changes = old.changes(to: new)
            do {
                var format = View(strictness: .format, showing: old)
                try format.performBatchUpdates(changes, resultingIn: new)
                #expect(format.snapshot == new)

                var uiKit = View(showing: old)
                let (batch, reconfigures, sectionReloads) = changes.splitForUIKit()
                if reconfigures.isEmpty, sectionReloads.isEmpty {
                    try uiKit.performBatchUpdates(changes, resultingIn: new)
                } else {
                    movedAndUpdated += 1
                    #expect(throws: BatchUpdateError.self) {
                        try uiKit.performBatchUpdates(changes, resultingIn: new)
                    }
                    #expect(uiKit.snapshot == old)
                    try uiKit.performBatchUpdates(batch, resultingIn: new)
                    try uiKit.reconfigureItems(reconfigures)
                    try uiKit.reloadSections(sectionReloads)
                }
                #expect(uiKit.snapshot == new)

                var deferring = View(showing: old)
                try deferring.performBatchUpdatesDeferringReconfigures(changes, resultingIn: new)
                #expect(deferring.snapshot == new && deferring.batchCount == 1)
            } catch {
                // Recorded rather than thrown, so that the case shrinks like a failed expectation.
                Issue.record(error)
            }
        }
        #expect(movedAndUpdated > 20)
    }
}
