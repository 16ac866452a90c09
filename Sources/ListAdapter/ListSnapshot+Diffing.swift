extension ListSnapshot {
    /// The changes that take this snapshot to `new`, in the interchange format's batch semantics.
    ///
    /// Sections are matched by title and items by identifier. Sections are diffed first: titles
    /// only in this snapshot are deleted, titles only in `new` are inserted with all of their
    /// items, and the surviving sections outside a longest increasing subsequence of their old
    /// offsets are moved. Then, for each surviving section, its items: an item from a surviving
    /// old section of another title is moved there (cross-section move); an item from the same
    /// section is moved only when it is outside a longest increasing subsequence of the old
    /// offsets; an item that is new, or comes out of a deleted section, is inserted; an item of a
    /// surviving old section that is gone, or now inside an inserted section, is deleted. An item
    /// on both sides whose summary differs is updated, including a summary that appears or
    /// disappears (an item without a summary on both sides never is). The moves are therefore
    /// the fewest possible.
    ///
    /// What `new` shares with this snapshot is recognised without comparing values: a section
    /// whose items are the old section's very storage is unchanged, and (for string identifiers
    /// and summaries) an item whose bits are the old item's is the same item, unchanged. So a
    /// snapshot derived from this one costs little more than the parts that changed; for
    /// summaries whose `==` is not reflexive (a `Double.nan`), an item in shared storage is not
    /// reported as updated.
    ///
    /// `try applying(changes(to: new)) == new` holds for every pair of snapshots.
    ///
    /// - Complexity: O(*n* + *m* log *m*) expected, where *n* counts the items of both snapshots
    ///   and *m* the largest number of items that stay in one section; O(*n*) when those keep
    ///   their order. Each item of `new` costs at most one hash lookup in this snapshot's index
    ///   (items that keep their place cost an identifier comparison instead, plus at most one
    ///   more after a lookup); this snapshot's items are never hashed again.
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
            if let oldOffset = offsetsByTitle[LiteralKey(section.title)] {
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
            let first = firstFlatOffset[oldSectionOffset]
            oldSections[oldSectionOffset].items.withUnsafeBufferPointer { oldItems in
                newSections[newSectionOffset].items.withUnsafeBufferPointer { newItems in
                    // A section that shares its items' storage with the old one is unchanged.
                    if oldItems.baseAddress == newItems.baseAddress, oldItems.count == newItems.count {
                        for offset in oldItems.indices { claimed[first + offset] = true }
                        return
                    }
                    origins.removeAll(keepingCapacity: true)
                    stayingOldOffsets.removeAll(keepingCapacity: true)
                    origins.reserveCapacity(newItems.count)
                    stayingOldOffsets.reserveCapacity(newItems.count)
                    // Items mostly keep their order, so the next new item is usually the old item
                    // at `cursor`: comparing identifiers there skips most hash lookups, and an item
                    // whose bits are the same as the old one's (its strings shared with the old
                    // snapshot) is the same item with the same summary.
                    var cursor = 0
                    var cursorMatchesNext = false
                    for newItemOffset in newItems.indices {
                        if Item.comparesByBits, cursor < oldItems.count,
                            identicalBits(oldItems.baseAddress! + cursor, newItems.baseAddress! + newItemOffset)
                        {
                            claimed[first + cursor] = true
                            origins.append(ItemPath(section: oldSectionOffset, item: cursor))
                            stayingOldOffsets.append(cursor)
                            cursor += 1
                            cursorMatchesNext = false
                            continue
                        }
                        let from: ItemPath
                        let matchesCursor =
                            cursorMatchesNext
                            || (cursor < oldItems.count
                                && literallyEqual(oldItems[cursor].id, newItems[newItemOffset].id))
                        cursorMatchesNext = false
                        if matchesCursor {
                            from = ItemPath(section: oldSectionOffset, item: cursor)
                            cursor += 1
                        } else {
                            guard let found = pathsByID[LiteralKey(newItems[newItemOffset].id)],
                                newOffsetOfOld[found.section] >= 0
                            else {
                                let item = newItems[newItemOffset]
                                changes.insertedItems.append(
                                    .init(
                                        at: ItemPath(section: newSectionOffset, item: newItemOffset), id: item.id,
                                        summary: item.summary))
                                origins.append(unmatched)
                                continue
                            }
                            from = found
                            if found.section == oldSectionOffset {
                                // Resynchronise after deleted or moved items when the next items
                                // follow this one in both snapshots.
                                let nextNew = newItemOffset + 1
                                let nextOld = found.item + 1
                                if nextNew < newItems.count, nextOld < oldItems.count,
                                    literallyEqual(oldItems[nextOld].id, newItems[nextNew].id)
                                {
                                    cursor = nextOld
                                    cursorMatchesNext = true
                                }
                            }
                        }
                        claimed[firstFlatOffset[from.section] + from.item] = true
                        origins.append(from)
                        if from.section == oldSectionOffset { stayingOldOffsets.append(from.item) }
                        let summaryChanged =
                            from.section == oldSectionOffset
                            ? !literallyEqual(oldItems[from.item].summary, newItems[newItemOffset].summary)
                            : !literallyEqual(
                                oldSections[from.section].items[from.item].summary, newItems[newItemOffset].summary)
                        if summaryChanged {
                            let to = ItemPath(section: newSectionOffset, item: newItemOffset)
                            changes.updatedItems.append(
                                .init(from: from, to: to, summary: newItems[newItemOffset].summary))
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
