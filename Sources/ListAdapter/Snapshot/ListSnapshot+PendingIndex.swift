extension ListSnapshot {
    /// Where each identifier sits: the stored index, or, while edits in place are pending in
    /// it, that index with the edits folded in, built on first need and kept.
    /// - Complexity: O(1), or O(*n*) expected the first time after edits in place.
    @inlinable
    package var pathsByID: IdentifierIndex<ItemID> {
        guard let pendingIndex else { return storedPathsByID }
        return foldedPathsByID(pendingIndex)
    }

    /// The index with the pending edits folded in: built from the sections once, then kept.
    @usableFromInline
    func foldedPathsByID(_ pending: PendingIndex<ItemID>) -> IdentifierIndex<ItemID> {
        pending.folded.index.withLock { index in
            if let index { return index }
            let built = Self.index(of: storedSections)
            index = built
            return built
        }
    }

    /// The path of the item identified by `key`, without folding the pending edits.
    /// - Complexity: O(1) expected, plus O(*p*) for *p* pending shifts (at most
    ///   `PendingIndex.limit(itemCount:)`).
    @inlinable
    package func indexedPath(of key: LiteralKey<ItemID>) -> ItemPath? {
        guard let pendingIndex else { return storedPathsByID[key] }
        return pendingIndex.path(of: key, stored: storedPathsByID)
    }

    /// An index of `sections`, whose identifiers are unique, filed in display order.
    /// - Complexity: O(*n*) expected.
    static func index(of sections: [Section]) -> IdentifierIndex<ItemID> {
        let (index, duplicate) = IdentifierIndex<ItemID>.indexing(
            sections, itemCount: sections.reduce(0) { $0 + $1.items.count })
        assert(duplicate == nil, "an edited snapshot repeats an identifier")
        return index
    }

    /// Records in the index that the edit made `shift` and left the items `touched` where they
    /// now are (`nil`: deleted), after the shift; folds the pending edits into a fresh stored
    /// index once there are too many.
    /// - Complexity: O(*t*) expected for *t* touched items, or O(*n*) when the edits are folded
    ///   (once every `PendingIndex.limit(itemCount:)` shifts at most).
    mutating func recordInIndex(
        _ shifts: [PendingIndex<ItemID>.Shift], touched: [(LiteralKey<ItemID>, ItemPath?)], itemCountChange: Int
    ) {
        var pending = pendingIndex ?? PendingIndex(itemCount: storedPathsByID.count)
        pendingIndex = nil
        for shift in shifts { pending.shift(shift) }
        for (key, path) in touched { pending.touch(key, at: path) }
        pending.itemCount += itemCountChange
        if pending.shifts.count > PendingIndex<ItemID>.limit(itemCount: pending.itemCount) {
            storedPathsByID = Self.index(of: storedSections)
            indexFollowsDisplayOrder = true
        } else {
            pendingIndex = pending
        }
    }

    /// Points the title index's entries of the sections from `start` on to where they now are.
    /// - Complexity: O(*s*) expected, where *s* counts those sections.
    mutating func reindexTitles(from start: Int) {
        guard start < storedSections.count else { return }
        for offset in start..<storedSections.count {
            offsetsByTitle[LiteralKey(storedSections[offset].title)] = offset
        }
    }
}
