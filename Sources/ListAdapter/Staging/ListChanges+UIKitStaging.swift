extension ListChanges {
    /// One step of ``ListChanges/stagedForUIKit()``: a batch for `performBatchUpdates`, then the
    /// reconfigures and section header updates to deliver once it is done.
    public struct UIKitStage: Hashable, Sendable {
        /// The batch: deletions, insertions and moves of sections and items, and the reloads
        /// UIKit accepts inside it. Paths follow the batch semantics: *O* side before the batch,
        /// *N* side after it.
        public var batch: ListChanges
        /// The reconfigures to deliver after ``batch`` (`reconfigureRows(at:)`,
        /// `reconfigureItems(at:)`), each at the item's path after the batch (`from` and `to`
        /// are both that path).
        public var reconfigures: [ItemUpdate]
        /// The section header updates to deliver after ``batch`` (a header reconfigure, or
        /// `reloadSections(_:)` outside a batch), each at the section's offset after the batch
        /// (`from` and `to` are both that offset).
        public var sectionUpdates: [SectionUpdate]

        /// Creates a stage.
        /// - Complexity: O(1).
        public init(batch: ListChanges, reconfigures: [ItemUpdate] = [], sectionUpdates: [SectionUpdate] = []) {
            self.batch = batch
            self.reconfigures = reconfigures
            self.sectionUpdates = sectionUpdates
        }
    }

    /// These changes as the stages a `UITableView` or `UICollectionView` accepts and animates
    /// as intended, in order: the fewest batches, each followed by its reconfigures and section
    /// header updates.
    ///
    /// The rules (the article <doc:UIKitStaging> gives a source for each):
    ///
    /// 1. A reconfigure names a cell the view shows: every ``ItemUpdateKind/reconfigure``
    ///    update is delivered after the first batch, at the item's *N* path.
    /// 2. A reload of an item that also moves is refused: a ``ItemUpdateKind/reload`` update of
    ///    a moved item waits for a second batch, at its *N* path.
    /// 3. A reload of a row whose section moves is mis-applied: it waits for the second batch too.
    /// 4. A section header update is never inside a batch: a section reload there reloads every
    ///    row of the section, and one of a moving section is refused. Every section update is
    ///    delivered after the first batch, at the section's *N* offset, moved or not.
    ///
    /// Every other reload stays in the first batch, where UIKit takes its *O* path. So the result
    /// is one stage (a batch, then the reconfigures and section header updates) unless a reload
    /// falls under rule 2 or 3; then a second stage holds those reloads alone. The first stage is there even for empty changes,
    /// so a renderer still checks its data source against the view.
    ///
    /// Performing each stage's batch, then its reconfigures, in order, on a view that shows *O*
    /// gives *N*: the first batch takes the view to *N*'s sections and identifiers, and the
    /// reloads and reconfigures set the summaries. Valid changes give stages that
    /// ``StrictListView`` accepts in its ``StrictListView/Strictness-swift.enum/uiKit`` mode.
    ///
    /// - Complexity: O(*c*) expected, where *c* is the number of operations.
    public func stagedForUIKit() -> [UIKitStage] {
        var first = self
        first.updatedSections = []
        let sectionUpdates = updatedSections.map { update in
            SectionUpdate(from: update.to, to: update.to, summary: update.summary)
        }
        guard !updatedItems.isEmpty else { return [UIKitStage(batch: first, sectionUpdates: sectionUpdates)] }
        let movedFrom = Set(movedItems.map(\.from))
        let movedSectionsFrom = Set(movedSections.map(\.from))
        first.updatedItems = []
        var reconfigures: [ItemUpdate] = []
        var lateReloads: [ItemUpdate] = []
        for update in updatedItems {
            let atNewPath = ItemUpdate(from: update.to, to: update.to, summary: update.summary, kind: update.kind)
            switch update.kind {
            case .reconfigure:
                reconfigures.append(atNewPath)
            case .reload:
                if movedFrom.contains(update.from) || movedSectionsFrom.contains(update.from.section) {
                    lateReloads.append(atNewPath)
                } else {
                    first.updatedItems.append(update)
                }
            }
        }
        var stages = [UIKitStage(batch: first, reconfigures: reconfigures, sectionUpdates: sectionUpdates)]
        if !lateReloads.isEmpty {
            stages.append(UIKitStage(batch: ListChanges(updatedItems: lateReloads)))
        }
        return stages
    }
}
