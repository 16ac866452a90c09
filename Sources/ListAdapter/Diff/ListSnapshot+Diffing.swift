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
    ///   more after a lookup); this snapshot's items are never hashed again, nor are `new`'s when
    ///   it was built by ``init(sections:)``: a lookup uses the hash its index holds.
    @inlinable
    public func changes(to new: ListSnapshot) -> ListChanges<ItemID, Summary, SectionSummary> {
        var changes = ListChanges<ItemID, Summary, SectionSummary>()
        // Sections: inserted and deleted by title, then the survivors that must move.
        let sectionMatching = matchSections(with: new, into: &changes)
        sectionMatching.appendSectionMoves(to: &changes)

        // Items of each surviving section: inserted, updated and claimed as they are matched,
        // then the ones that must move. A section that is the old one's storage is unchanged.
        var claims = OldItemClaims(sections)
        var origins = ItemOrigins()
        let newFirstFlatOffsets = new.firstFlatOffsetsOfEntries
        withEntriesInDisplayOrder { oldEntries in
            new.withEntriesInDisplayOrder { newEntries in
                for survivor in sectionMatching.survivingOldOffsets.indices {
                    let oldSection = sectionMatching.survivingOldOffsets[survivor]
                    let newSection = sectionMatching.survivingNewOffsets[survivor]
                    if sharesItems(ofSection: oldSection, withSection: newSection, of: new) {
                        claims.claimAll(inSection: oldSection, count: sections[oldSection].items.count)
                        continue
                    }
                    let hashes = SectionHashes(
                        old: oldEntries, from: claims.firstFlatOffset[oldSection],
                        count: sections[oldSection].items.count,
                        new: newEntries, from: newEntries.isEmpty ? 0 : newFirstFlatOffsets[newSection],
                        count: new.sections[newSection].items.count)
                    matchItems(
                        ofSection: oldSection, toSection: newSection, of: new, hashes: hashes,
                        sectionMatching: sectionMatching, origins: &origins, claims: &claims, changes: &changes)
                    origins.appendItemMoves(oldSection: oldSection, newSection: newSection, to: &changes)
                }
            }
        }

        // What no surviving section claimed leaves.
        claims.appendDeletions(of: sections, matching: sectionMatching, to: &changes)
        return changes
    }
}

extension ListChanges {
    /// The changes that take `old` to `new`: the same as `old.changes(to: new)`.
    /// - Complexity: See ``ListSnapshot/changes(to:)``.
    @inlinable
    public init(
        from old: ListSnapshot<ItemID, Summary, SectionSummary>, to new: ListSnapshot<ItemID, Summary, SectionSummary>
    ) {
        self = old.changes(to: new)
    }
}
