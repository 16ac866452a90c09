/// Which items of the old snapshot reappear in a surviving section of the new one: the diff's
/// record of the old items it has matched, so that the rest of each surviving section can be
/// deleted at the end.
///
/// The old items are numbered in display order across all sections (a flat offset), so the
/// marks are one array. Invariants: `firstFlatOffset` has one entry per old section, ascending,
/// starting at 0, each the sum of the item counts of the sections before it; `claimed` has one
/// entry per old item. An item is claimed at most once (its identifier is unique in the new
/// snapshot too).
@usableFromInline
struct OldItemClaims {
    /// The flat offset of the first item of each old section.
    @usableFromInline var firstFlatOffset: [Int]
    /// Whether each old item, by flat offset, reappears in a surviving section.
    @usableFromInline var claimed: [Bool]

    /// No item claimed, for the old snapshot's `sections`.
    /// - Complexity: O(*s* + *n*), where *s* is the number of sections and *n* the number of
    ///   items (the marks are allocated zeroed).
    @inlinable
    init<ItemID, Summary, SectionSummary>(_ sections: [ListSnapshot<ItemID, Summary, SectionSummary>.Section]) {
        var firstFlatOffset = [Int](repeating: 0, count: sections.count)
        var flatCount = 0
        for (offset, section) in sections.enumerated() {
            firstFlatOffset[offset] = flatCount
            flatCount += section.items.count
        }
        self.firstFlatOffset = firstFlatOffset
        claimed = [Bool](repeating: false, count: flatCount)
    }

    /// Marks the old item at `path` as reappearing.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    mutating func claim(_ path: ItemPath) {
        claimed[firstFlatOffset[path.section] + path.item] = true
    }

    /// Marks the old item at `flatOffset` (its section's first flat offset plus its offset in the
    /// section) as reappearing.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    mutating func claim(flatOffset: Int) {
        claimed[flatOffset] = true
    }

    /// Marks the first `count` items of the old section at `section` (all of them) as reappearing.
    /// - Complexity: O(*count*).
    @inlinable
    mutating func claimAll(inSection section: Int, count: Int) {
        let first = firstFlatOffset[section]
        for offset in 0..<count { claimed[first + offset] = true }
    }

    /// Delete what is left: every unclaimed item of a surviving old section leaves.
    ///
    /// Appends to `changes.deletedItems`, in ascending old paths. The items of deleted sections
    /// are not listed: they go with their section.
    ///
    /// - Complexity: O(*n*), where *n* counts the items of the surviving old sections.
    @inlinable
    func appendDeletions<ItemID, Summary, SectionSummary>(
        of sections: [ListSnapshot<ItemID, Summary, SectionSummary>.Section], matching: SectionMatching,
        to changes: inout ListChanges<ItemID, Summary, SectionSummary>
    ) {
        for (sectionOffset, section) in sections.enumerated() where matching.survives(oldSection: sectionOffset) {
            let first = firstFlatOffset[sectionOffset]
            for itemOffset in section.items.indices where !claimed[first + itemOffset] {
                changes.deletedItems.append(ItemPath(section: sectionOffset, item: itemOffset))
            }
        }
    }
}
