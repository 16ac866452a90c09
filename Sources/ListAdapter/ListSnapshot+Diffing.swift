extension ListSnapshot {
    /// The changes that take this snapshot to `new`, in FORMAT.md's batch semantics.
    ///
    /// Sections are matched by title and items by identifier. Sections are diffed first: titles
    /// only in this snapshot are deleted, titles only in `new` are inserted with all of their
    /// items, and the surviving sections outside a longest increasing subsequence of their old
    /// offsets are moved. Then, for each surviving section, its items: an item from a surviving
    /// old section of another title is moved there (cross-section move); an item from the same
    /// section is moved only when it is outside a longest increasing subsequence of the old
    /// offsets; an item that is new, or comes out of a deleted section, is inserted; an item of a
    /// surviving old section that is gone, or now inside an inserted section, is deleted. An item
    /// on both sides whose summary differs is updated (an item without a summary on either side
    /// never is). The moves are therefore the fewest possible.
    ///
    /// `try applying(changes(to: new)) == new` holds for every pair of snapshots.
    ///
    /// - Complexity: O(*n* + *m* log *m*) expected, where *n* counts the items of both snapshots
    ///   and *m* the largest number of items that stay in one section; O(*n*) when those keep
    ///   their order. Each item of `new` costs one hash lookup in this snapshot's index; this
    ///   snapshot's items are never hashed again.
    @inlinable
    public func changes(to new: ListSnapshot) -> ListChanges<ItemID, Summary> {
        var changes = ListChanges<ItemID, Summary>()
        let oldSections = sections
        let newSections = new.sections

        // Sections, matched by title.
        var newOffsetOfOld = [Int](repeating: -1, count: oldSections.count)
        var survivingOldOffsets: [Int] = []
        var survivingNewOffsets: [Int] = []
        survivingOldOffsets.reserveCapacity(min(oldSections.count, newSections.count))
        survivingNewOffsets.reserveCapacity(min(oldSections.count, newSections.count))
        for (newOffset, section) in newSections.enumerated() {
            if let oldOffset = offsetsByTitle[section.title] {
                newOffsetOfOld[oldOffset] = newOffset
                survivingOldOffsets.append(oldOffset)
                survivingNewOffsets.append(newOffset)
            } else {
                changes.insertedSections.append(.init(index: newOffset, section: section))
            }
        }
        for (oldOffset, newOffset) in newOffsetOfOld.enumerated() where newOffset < 0 {
            changes.deletedSections.append(oldOffset)
        }
        let sectionsInPlace = longestIncreasingSubsequence(survivingOldOffsets)
        for index in survivingOldOffsets.indices where !sectionsInPlace[index] {
            changes.movedSections.append(.init(from: survivingOldOffsets[index], to: survivingNewOffsets[index]))
        }

        // Items of surviving sections, matched by identifier. `claimed` marks the old items that
        // reappear in a surviving section; every other old item of a surviving section is deleted.
        var firstFlatOffset = [Int](repeating: 0, count: oldSections.count)
        var flatCount = 0
        for (offset, section) in oldSections.enumerated() {
            firstFlatOffset[offset] = flatCount
            flatCount += section.items.count
        }
        var claimed = [Bool](repeating: false, count: flatCount)
        var origins: [ItemPath] = []
        var stayingOldOffsets: [Int] = []
        let unmatched = ItemPath(section: -1, item: -1)

        for (survivor, newSectionOffset) in survivingNewOffsets.enumerated() {
            let oldSectionOffset = survivingOldOffsets[survivor]
            let newItems = newSections[newSectionOffset].items
            origins.removeAll(keepingCapacity: true)
            stayingOldOffsets.removeAll(keepingCapacity: true)
            for (newItemOffset, item) in newItems.enumerated() {
                let to = ItemPath(section: newSectionOffset, item: newItemOffset)
                guard let from = pathsByID[item.id], newOffsetOfOld[from.section] >= 0 else {
                    changes.insertedItems.append(.init(at: to, id: item.id, summary: item.summary))
                    origins.append(unmatched)
                    continue
                }
                claimed[firstFlatOffset[from.section] + from.item] = true
                origins.append(from)
                if from.section == oldSectionOffset { stayingOldOffsets.append(from.item) }
                let oldSummary = oldSections[from.section].items[from.item].summary
                if oldSummary != item.summary {
                    changes.updatedItems.append(.init(from: from, to: to, summary: item.summary))
                }
            }
            let itemsInPlace = longestIncreasingSubsequence(stayingOldOffsets)
            var staying = 0
            for (newItemOffset, from) in origins.enumerated() where from.section >= 0 {
                if from.section == oldSectionOffset {
                    defer { staying += 1 }
                    if itemsInPlace[staying] { continue }
                }
                changes.movedItems.append(
                    .init(from: from, to: ItemPath(section: newSectionOffset, item: newItemOffset)))
            }
        }
        for (oldSectionOffset, section) in oldSections.enumerated() where newOffsetOfOld[oldSectionOffset] >= 0 {
            let first = firstFlatOffset[oldSectionOffset]
            for itemOffset in section.items.indices where !claimed[first + itemOffset] {
                changes.deletedItems.append(ItemPath(section: oldSectionOffset, item: itemOffset))
            }
        }
        return changes
    }
}

extension ListChanges {
    /// The changes that take `old` to `new`: the same as `old.changes(to: new)`.
    /// - Complexity: See ``ListSnapshot/changes(to:)``.
    @inlinable
    public init(from old: ListSnapshot<ItemID, Summary>, to new: ListSnapshot<ItemID, Summary>) {
        self = old.changes(to: new)
    }
}
