import PropertyBased
import Testing

@testable import ListAdapter

/// `stagedForUIKit()`: each rule of the article "Batches UIKit accepts", refused by the strict
/// view when broken and kept by the stages; reconfigures after the batch; and the property test
/// over random pairs.
@Suite("Staging for UIKit")
struct UIKitStagingTests {
    typealias View = StrictListView<String, String, String>
    typealias Update = StringChanges.ItemUpdate

    static func snapshot(_ sections: [(String, [String])]) -> StringSnapshot { makeSnapshot(sections) }
    static func path(_ section: Int, _ item: Int) -> ItemPath { ItemPath(section: section, item: item) }

    /// `changes` with every item update made a `kind`.
    static func all(_ changes: StringChanges, _ kind: ItemUpdateKind) -> StringChanges {
        var changes = changes
        for index in changes.updatedItems.indices { changes.updatedItems[index].kind = kind }
        return changes
    }

    /// Performs `stages` in order on `view`, each batch resulting in `new`, then its reconfigures
    /// and its section header updates.
    static func perform(_ stages: [StringChanges.UIKitStage], on view: inout View, resultingIn new: StringSnapshot)
        throws
    {
        for stage in stages {
            try view.performBatchUpdates(stage.batch, resultingIn: new)
            try view.reconfigureItems(stage.reconfigures)
            try view.reloadSections(stage.sectionUpdates)
        }
    }

    // MARK: Rule 1: reconfigures after the batch, at the new paths

    @Test("reconfigures go after the batch at their N paths; the batch keeps the structure")
    func reconfiguresAfterTheBatch() throws {
        let old = Self.snapshot([("A", ["a=1", "b"])])
        let new = Self.snapshot([("A", ["x", "b", "a=2"])])
        let changes = old.changes(to: new)
        let stages = changes.stagedForUIKit()
        #expect(stages.count == 1)
        #expect(stages[0].batch.updatedItems.isEmpty)
        #expect(stages[0].batch.movedItems == changes.movedItems)
        #expect(stages[0].reconfigures == [Update(from: Self.path(0, 2), to: Self.path(0, 2), summary: "2")])

        var view = View(showing: old)
        try Self.perform(stages, on: &view, resultingIn: new)
        #expect(view.snapshot == new)
        #expect(view.batchCount == 1 && view.reconfiguredItemCount == 1 && view.reloadedItemCount == 0)
    }

    @Test("a reconfigure at a path the view does not show yet is refused; after the batch it is accepted")
    func reconfigureBeforeTheBatchIsRefused() throws {
        let old = Self.snapshot([("A", ["a=1"])])
        let new = Self.snapshot([("A", ["x", "a=2"])])
        let stages = old.changes(to: new).stagedForUIKit()
        var view = View(showing: old)
        let error = #expect(throws: BatchUpdateError.self) {
            try view.reconfigureItems(stages[0].reconfigures)
        }
        #expect(error?.code == .itemOutOfBounds)
        #expect(view.snapshot == old)
        try Self.perform(stages, on: &view, resultingIn: new)
        #expect(view.snapshot == new)
    }

    @Test("a reconfigure listed twice is refused")
    func reconfigureTwiceIsRefused() {
        var view = View(showing: Self.snapshot([("A", ["a=1"])]))
        let twice = [Update(from: Self.path(0, 0), to: Self.path(0, 0), summary: "2")]
        let error = #expect(throws: BatchUpdateError.self) { try view.reconfigureItems(twice + twice) }
        #expect(error?.code == .itemListedTwice)
        #expect(view.reconfiguredItemCount == 0)
    }

    // MARK: Rule 2: no reload of a moving item

    static let movedOld = snapshot([("A", ["a=1", "b", "c"]), ("B", ["d"])])
    static let movedNew = snapshot([("A", ["b", "c"]), ("B", ["a=2", "d"])])

    @Test("a reload of a moved item: the strict view refuses the batch; the stages reload it in a second batch")
    func reloadOfMovedItem() throws {
        let changes = Self.all(Self.movedOld.changes(to: Self.movedNew), .reload)
        var view = View(showing: Self.movedOld)
        let error = #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdates(changes, resultingIn: Self.movedNew)
        }
        #expect(error?.code == .updatedItemMoved)
        #expect(view.snapshot == Self.movedOld && view.batchCount == 0)

        let stages = changes.stagedForUIKit()
        #expect(stages.count == 2)
        #expect(stages[0].batch.updatedItems.isEmpty && stages[0].reconfigures.isEmpty)
        #expect(
            stages[1]
                == .init(
                    batch: StringChanges(updatedItems: [
                        Update(from: Self.path(1, 0), to: Self.path(1, 0), summary: "2", kind: .reload)
                    ])))
        try Self.perform(stages, on: &view, resultingIn: Self.movedNew)
        #expect(view.snapshot == Self.movedNew)
        #expect(view.batchCount == 2 && view.reloadedItemCount == 1 && view.reconfiguredItemCount == 0)
    }

    // MARK: Rule 3: no reload of a row whose section moves

    static let sectionOld = snapshot([("A", ["a"]), ("B", ["b=1", "c"])])
    static let sectionNew = snapshot([("B", ["b=2", "c"]), ("A", ["a"])])

    @Test("an update in a moving section: .uiKit refuses the batch, .format accepts it")
    func updateInMovedSection() throws {
        let changes = Self.sectionOld.changes(to: Self.sectionNew)
        try #require(changes.movedSections.map(\.from) == [1])
        #expect(changes.movedItems.isEmpty)
        var view = View(showing: Self.sectionOld)
        let error = #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdates(changes, resultingIn: Self.sectionNew)
        }
        #expect(error?.code == .updatedItemInMovedSection)
        #expect(error?.position == [1, 0])
        #expect(
            error?.message
                == "attempt to reload row 0 in section 1, which is moved to section 0 in the same update (the row "
                + "would be reloaded as (<NSIndexPath> {length = 2, path = 0 - 0}); reload it after the batch "
                + "instead: ListChanges.stagedForUIKit())")
        #expect(view.snapshot == Self.sectionOld)

        var format = View(strictness: .format, showing: Self.sectionOld)
        try format.performBatchUpdates(changes, resultingIn: Self.sectionNew)
        #expect(format.snapshot == Self.sectionNew)

        // The interchange format's own check does not refuse it: applying works.
        #expect(try Self.sectionOld.applying(changes) == Self.sectionNew)
        #expect(
            ListChangesError(
                changes.violation(oldItemCounts: [1, 2], refusingUpdatesOfMovedItems: true)!
            ).code == .updatedItemInMovedSection)
    }

    @Test("an update in a moving section is staged: reconfigured after the batch, or reloaded in a second one")
    func stagedUpdateInMovedSection() throws {
        for kind in ItemUpdateKind.allCases {
            let changes = Self.all(Self.sectionOld.changes(to: Self.sectionNew), kind)
            let stages = changes.stagedForUIKit()
            #expect(stages.count == (kind == .reload ? 2 : 1))
            var view = View(showing: Self.sectionOld)
            try Self.perform(stages, on: &view, resultingIn: Self.sectionNew)
            #expect(view.snapshot == Self.sectionNew)
            #expect(view.reloadedItemCount == (kind == .reload ? 1 : 0))
            #expect(view.reconfiguredItemCount == (kind == .reload ? 0 : 1))

            // splitForUIKit, which ignores kinds, defers the update too.
            let (batch, reconfigures, sectionReloads) = changes.splitForUIKit()
            #expect(batch.updatedItems.isEmpty && reconfigures.count == 1 && sectionReloads.isEmpty)
        }
    }

    // MARK: Rule 4: section header updates after the first batch

    static let headerOld = SectionSummaryTests.snapshot([("A", nil, ["a"]), ("B", "1 unread", ["b=1", "c"])])
    static let headerNew = SectionSummaryTests.snapshot([("B", "2 unread", ["b=2", "c"]), ("A", nil, ["a"])])

    @Test("a moved-and-updated section: .uiKit refuses it in the batch; the stages update its header after it")
    func movedAndUpdatedSection() throws {
        let changes = Self.headerOld.changes(to: Self.headerNew)
        try #require(changes.updatedSections == [.init(from: 1, to: 0, summary: "2 unread")])
        var view = View(showing: Self.headerOld)
        let error = #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdates(changes, resultingIn: Self.headerNew)
        }
        #expect(error?.code == .updatedSectionMoved)
        #expect(view.snapshot == Self.headerOld)

        for kind in ItemUpdateKind.allCases {
            let stages = Self.all(changes, kind).stagedForUIKit()
            #expect(stages.count == (kind == .reload ? 2 : 1))
            #expect(stages.allSatisfy { $0.batch.updatedSections.isEmpty })
            #expect(stages[0].sectionUpdates == [.init(from: 0, to: 0, summary: "2 unread")])
            var staged = View(showing: Self.headerOld)
            try Self.perform(stages, on: &staged, resultingIn: Self.headerNew)
            #expect(staged.snapshot == Self.headerNew)
            #expect(staged.updatedSectionCount == 1 && staged.batchCount == stages.count)
        }
    }

    @Test("a section update that does not move still waits for the batch, which stays the only one")
    func unmovedSectionUpdate() throws {
        let old = SectionSummaryTests.snapshot([("A", "old", ["a", "b"])])
        let new = SectionSummaryTests.snapshot([("A", "new", ["b", "a"])])
        let changes = old.changes(to: new)
        let stages = changes.stagedForUIKit()
        #expect(stages.count == 1)
        #expect(stages[0].batch.updatedSections.isEmpty && stages[0].batch.movedItems == changes.movedItems)
        #expect(stages[0].sectionUpdates == [.init(from: 0, to: 0, summary: "new")])
        var view = View(showing: old)
        try view.performBatchUpdatesDeferringReconfigures(changes, resultingIn: new)
        #expect(view.snapshot == new && view.batchCount == 1 && view.updatedSectionCount == 1)
    }

    @Test("a header update names a shown section by the same offset on both sides, or is refused")
    func headerUpdateChecks() {
        let shown = Self.snapshot([("A", ["a"]), ("B", ["b"])])
        var view = View(showing: shown)
        let outside = #expect(throws: BatchUpdateError.self) {
            try view.reloadSections([.init(from: 2, to: 2, summary: "x")])
        }
        #expect(outside?.code == .sectionOutOfBounds)
        let crossed = #expect(throws: BatchUpdateError.self) {
            try view.reloadSections([.init(from: 0, to: 1, summary: "x")])
        }
        #expect(crossed?.code == .updateMismatch)
        #expect(
            crossed?.message
                == "Invalid update: section update from 0 to 1: the section at 0 is \"A\", but the section at 1 "
                + "after the changes is \"B\"")
        #expect(view.snapshot == shown && view.updatedSectionCount == 0)
    }

    // MARK: Reloads that UIKit accepts stay in the batch

    @Test("a reload of an item that neither moves nor has its section move stays in the one batch")
    func reloadInTheBatch() throws {
        let old = Self.snapshot([("A", ["a=1", "b"]), ("B", ["c"])])
        let new = Self.snapshot([("A", ["x", "a=2"]), ("B", ["c", "b"])])
        let changes = Self.all(old.changes(to: new), .reload)
        let stages = changes.stagedForUIKit()
        #expect(stages.count == 1)
        #expect(stages[0].batch == changes && stages[0].reconfigures.isEmpty)
        var view = View(showing: old)
        try view.performBatchUpdatesDeferringReconfigures(changes, resultingIn: new)
        #expect(view.snapshot == new && view.batchCount == 1 && view.reloadedItemCount == 1)
    }

    @Test("changes without updates are one stage, the batch itself; empty changes too")
    func noUpdates() {
        let changes = Self.snapshot([("A", ["a", "b"])]).changes(to: Self.snapshot([("A", ["b", "a"])]))
        #expect(changes.stagedForUIKit() == [.init(batch: changes)])
        #expect(StringChanges().stagedForUIKit() == [.init(batch: StringChanges())])
    }

    // MARK: The property

    /// The kind of the update of `id` in pair `index`: every third pair all reconfigures, every
    /// third all reloads, the others mixed by the identifier, so that a shrunk pair keeps its kinds.
    static func kind(of id: String, inPair index: Int) -> ItemUpdateKind {
        switch index % 3 {
        case 0: return .reconfigure
        case 1: return .reload
        default:
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for scalar in id.unicodeScalars { hash = (hash ^ UInt64(scalar.value)) &* 0x100_0000_01B3 }
            var generator = SplitMix64(seed: hash ^ UInt64(index))
            return generator.next() & 1 == 0 ? .reconfigure : .reload
        }
    }

    @Test("10,000 random pairs: every stage accepted, section updates after the first batch, N, the fewest stages")
    func randomPairs() async {
        var movedAndUpdatedItems = 0
        var updatedInMovedSections = 0
        var movedAndUpdatedSections = 0
        var twoStages = 0
        await propertyCheck(count: 10_000, input: SnapshotPairs.generator(seed: 0x57A6_ED00)) { pair in
            let (old, new) = (pair.old, pair.new)
            let changes = old.changes(to: new).classifyingUpdates(from: old) { id, _, _ in
                Self.kind(of: id, inPair: pair.index)
            }
            let movedFrom = Set(changes.movedItems.map(\.from))
            let movedSections = Set(changes.movedSections.map(\.from))
            let movedAndUpdated = changes.updatedItems.filter { movedFrom.contains($0.from) }
            let inMovedSections = changes.updatedItems.filter { movedSections.contains($0.from.section) }
            if !movedAndUpdated.isEmpty { movedAndUpdatedItems += 1 }
            if !inMovedSections.isEmpty { updatedInMovedSections += 1 }
            let movedAndUpdatedSection = changes.updatedSections.contains { movedSections.contains($0.from) }
            if movedAndUpdatedSection { movedAndUpdatedSections += 1 }
            let mustWait = (movedAndUpdated + inMovedSections).contains { $0.kind == .reload }

            let stages = changes.stagedForUIKit()
            // The fewest: one batch (with at most one list of reconfigures) unless a reload must
            // wait for the moves, then two, the second reloads only.
            #expect(stages.count == (mustWait ? 2 : 1))
            #expect(stages.dropFirst().allSatisfy { $0.reconfigures.isEmpty && $0.batch.operationCount > 0 })
            #expect(
                stages.dropFirst().allSatisfy {
                    $0.batch.updatedItems.count == $0.batch.operationCount
                        && $0.batch.updatedItems.allSatisfy { $0.kind == .reload }
                })
            #expect(stages.flatMap(\.reconfigures).allSatisfy { $0.kind == .reconfigure })
            #expect(
                stages.map { $0.batch.updatedItems.count + $0.reconfigures.count }.reduce(0, +)
                    == changes.updatedItems.count)
            // Every section update is delivered once, after the first batch, at its N offset;
            // none is inside a batch.
            #expect(stages.allSatisfy { $0.batch.updatedSections.isEmpty })
            #expect(stages.dropFirst().allSatisfy { $0.sectionUpdates.isEmpty })
            #expect(
                stages[0].sectionUpdates
                    == changes.updatedSections.map { .init(from: $0.to, to: $0.to, summary: $0.summary) })
            if mustWait { twoStages += 1 }

            var view = View(showing: old)
            do {
                try Self.perform(stages, on: &view, resultingIn: new)
            } catch {
                // Recorded rather than thrown, so that the case shrinks like a failed expectation.
                Issue.record(error)
            }
            #expect(view.snapshot == new)
            #expect(view.batchCount == stages.count)
            #expect(view.reloadedItemCount == changes.updatedItems.count(where: { $0.kind == .reload }))
            #expect(view.reconfiguredItemCount == changes.updatedItems.count(where: { $0.kind == .reconfigure }))
            #expect(view.updatedSectionCount == changes.updatedSections.count)

            // Unstaged, the strict view refuses exactly the changes that update a moved item, an
            // item of a moved section, or a moved section.
            var unstaged = View(showing: old)
            let refused = (try? unstaged.performBatchUpdates(changes, resultingIn: new)) == nil
            #expect(refused == !(movedAndUpdated.isEmpty && inMovedSections.isEmpty && !movedAndUpdatedSection))
        }
        #expect(movedAndUpdatedItems > 100)
        #expect(updatedInMovedSections > 100)
        #expect(movedAndUpdatedSections > 100)
        #expect(twoStages > 100)
    }
}
