/// Where each item of one surviving section of the new snapshot came from: what matching the
/// section's items finds, and what ordering them reads.
///
/// Invariants, once `ListSnapshot.matchItems(ofSection:…)` has filled it: `paths` has one entry
/// per new item of the section, in order; `stayingOldOffsets` lists, in the same order, the item
/// offsets of the entries of `paths` that lie in the section's own old section, and nothing
/// else. The storage is reused from one section to the next.
@usableFromInline
struct ItemOrigins {
    /// The old path of each new item of the section, or ``inserted`` for an item that was in no
    /// surviving old section.
    @usableFromInline var paths: [ItemPath]
    /// The old offsets of the items that stay in the section, in their new order.
    @usableFromInline var stayingOldOffsets: [Int]

    /// The origin of an item that was in no surviving old section.
    @inlinable
    static var inserted: ItemPath { ItemPath(section: -1, item: -1) }

    /// No origins yet.
    @inlinable
    init() {
        paths = []
        stayingOldOffsets = []
    }

    /// Forgets the last section's origins, keeping room for `count` new items.
    /// - Complexity: O(1) amortised over the sections.
    @inlinable
    mutating func removeAll(reservingCapacity count: Int) {
        paths.removeAll(keepingCapacity: true)
        stayingOldOffsets.removeAll(keepingCapacity: true)
        paths.reserveCapacity(count)
        stayingOldOffsets.reserveCapacity(count)
    }

    /// Records the next new item's old path; `staying` when that path is in the section's own
    /// old section.
    /// - Complexity: O(1) amortised.
    @inlinable @inline(__always)
    mutating func append(_ path: ItemPath, staying: Bool) {
        paths.append(path)
        if staying { stayingOldOffsets.append(path.item) }
    }

    /// Order items: the items that came from another section move, and of those that stay in
    /// their section, the ones outside a longest increasing subsequence of their old offsets
    /// (taken in their new order) move; inserted items and the rest keep their place.
    ///
    /// Appends to `changes.movedItems`, in the section's new order. No other choice moves fewer
    /// items: an item that changes section must be moved, and the items that keep their place
    /// must be in the same relative order on both sides.
    ///
    /// - Parameters:
    ///   - oldSection: the offset of the section in the old snapshot.
    ///   - newSection: its offset in the new snapshot.
    /// - Complexity: O(*k* + *m* log *m*), where *k* is the number of the section's new items and
    ///   *m* the number that stay in it; O(*k*) when those keep their order.
    @inlinable
    func appendItemMoves<ItemID, Summary, SectionSummary>(
        oldSection: Int, newSection: Int, to changes: inout ListChanges<ItemID, Summary, SectionSummary>
    ) {
        let inPlace = longestIncreasingSubsequence(stayingOldOffsets)
        var staying = 0
        for (newItemOffset, from) in paths.enumerated() where from.section >= 0 {
            if from.section == oldSection {
                defer { staying += 1 }
                if inPlace[staying] { continue }
            }
            changes.movedItems.append(.init(from: from, to: ItemPath(section: newSection, item: newItemOffset)))
        }
    }
}

/// Where the next new item of a section is expected in its old section.
///
/// Items mostly keep their order, so the next new item is usually the old item at `offset`:
/// comparing identifiers there skips most hash lookups. Invariant: when `matchesNext` is `true`,
/// the old item at `offset` has the next new item's identifier.
@usableFromInline
struct ItemCursor {
    /// The offset in the old section of the item expected next.
    @usableFromInline var offset = 0
    /// Whether the old item at `offset` is known to have the next new item's identifier.
    @usableFromInline var matchesNext = false

    /// The cursor at the old section's first item.
    @inlinable
    init() {}
}

extension ListSnapshot {
    /// Whether the section at `oldSection` here and the one at `newSection` in `new` are the same
    /// storage, hence the same items with the same summaries: the diff leaves such a section
    /// alone without reading it.
    /// - Complexity: O(1).
    @inlinable
    func sharesItems(ofSection oldSection: Int, withSection newSection: Int, of new: ListSnapshot) -> Bool {
        sections[oldSection].items.withUnsafeBufferPointer { oldItems in
            new.sections[newSection].items.withUnsafeBufferPointer { newItems in
                oldItems.baseAddress == newItems.baseAddress && oldItems.count == newItems.count
            }
        }
    }

    /// Match items: finds, for each item of the section at `newSection` in `new`, where it was in
    /// this snapshot, the section being a survivor of the one at `oldSection` here.
    ///
    /// An item found in a surviving old section (this one or another) is claimed in `claims`, its
    /// old path recorded in `origins`, and its update, if any, appended to `changes.updatedItems`
    /// (`appendUpdateIfSummaryChanged`). An item that is new, or that comes out of a deleted section, is appended to
    /// `changes.insertedItems` (ascending by new path) and recorded in `origins` as inserted.
    ///
    /// An item whose bits are the same as those of the old item at the cursor (for string
    /// identifiers and summaries: its strings are the old snapshot's) is that item with the same
    /// summary, recognised without reading the strings.
    ///
    /// - Complexity: O(*k*) expected, where *k* is the number of the section's new items: each
    ///   costs an identifier comparison at the cursor or, failing that, one hash lookup in this
    ///   snapshot's index and at most one more comparison (see `origin(ofNewItemAt:…)`), plus a
    ///   summary comparison.
    @inlinable
    func matchItems(
        ofSection oldSection: Int, toSection newSection: Int, of new: ListSnapshot, hashes: SectionHashes<ItemID>,
        sectionMatching: SectionMatching, origins: inout ItemOrigins, claims: inout OldItemClaims,
        changes: inout ListChanges<ItemID, Summary, SectionSummary>
    ) {
        sections[oldSection].items.withUnsafeBufferPointer { oldItems in
            new.sections[newSection].items.withUnsafeBufferPointer { newItems in
                origins.removeAll(reservingCapacity: newItems.count)
                let first = claims.firstFlatOffset[oldSection]
                var cursor = ItemCursor()
                for newItemOffset in newItems.indices {
                    if Item.comparesByBits, cursor.offset < oldItems.count,
                        identicalBits(oldItems.baseAddress! + cursor.offset, newItems.baseAddress! + newItemOffset)
                    {
                        claims.claim(flatOffset: first + cursor.offset)
                        origins.append(ItemPath(section: oldSection, item: cursor.offset), staying: true)
                        cursor.offset += 1
                        cursor.matchesNext = false
                        continue
                    }
                    guard
                        let from = origin(
                            ofNewItemAt: newItemOffset, in: newItems, oldItems: oldItems, oldSection: oldSection,
                            hashes: hashes, cursor: &cursor, sectionMatching: sectionMatching)
                    else {
                        changes.insertedItems.append(
                            .init(
                                at: ItemPath(section: newSection, item: newItemOffset), id: newItems[newItemOffset].id,
                                summary: newItems[newItemOffset].summary))
                        origins.append(ItemOrigins.inserted, staying: false)
                        continue
                    }
                    claims.claim(from)
                    origins.append(from, staying: from.section == oldSection)
                    appendUpdateIfSummaryChanged(
                        from: from, oldItems: oldItems, oldSection: oldSection,
                        to: newItemOffset, newItems: newItems, newSection: newSection, changes: &changes)
                }
            }
        }
    }

    /// The old path of the item at `newItemOffset` of `newItems`, or `nil` when it is new or was
    /// in a deleted section.
    ///
    /// The item at the cursor is tried first; failing that, this snapshot's index. An item found
    /// through the index in the same old section resynchronises the cursor after it, when the
    /// next items follow it in both snapshots (after deleted or moved items), so that the next
    /// new item costs no lookup.
    ///
    /// - Complexity: O(1) expected: an identifier comparison at the cursor, or one hash lookup
    ///   and at most one more comparison.
    @inlinable @inline(__always)
    func origin(
        ofNewItemAt newItemOffset: Int, in newItems: UnsafeBufferPointer<Item>, oldItems: UnsafeBufferPointer<Item>,
        oldSection: Int, hashes: SectionHashes<ItemID>, cursor: inout ItemCursor, sectionMatching: SectionMatching
    ) -> ItemPath? {
        let matchesCursor =
            cursor.matchesNext
            || (cursor.offset < oldItems.count && hashes.mayMatch(old: cursor.offset, new: newItemOffset)
                && literallyEqual(oldItems[cursor.offset].id, newItems[newItemOffset].id))
        cursor.matchesNext = false
        if matchesCursor {
            defer { cursor.offset += 1 }
            return ItemPath(section: oldSection, item: cursor.offset)
        }
        let id = newItems[newItemOffset].id
        guard let found = pathsByID.path(of: id, hash: hashes.hash(ofNew: newItemOffset, id: id)),
            sectionMatching.survives(oldSection: found.section)
        else { return nil }
        if found.section == oldSection {
            let nextNew = newItemOffset + 1
            let nextOld = found.item + 1
            if nextNew < newItems.count, nextOld < oldItems.count, hashes.mayMatch(old: nextOld, new: nextNew),
                literallyEqual(oldItems[nextOld].id, newItems[nextNew].id)
            {
                cursor.offset = nextOld
                cursor.matchesNext = true
            }
        }
        return found
    }

    /// Updates: appends an update to `changes.updatedItems` when the summary of the old item at
    /// `from` differs from that of the new item at `newItemOffset` of `newItems`, in the section at
    /// `newSection` of the new snapshot (a summary that
    /// appears or disappears is a difference; two absent ones are not).
    ///
    /// Called by matching for each pair it finds, while both items are at hand, so the updates
    /// are in ascending new paths; pairs recognised by their bits never reach it. `oldItems` are
    /// the items of the old section at `oldSection`, read in place when `from` is there.
    ///
    /// - Complexity: O(1), plus one comparison of summaries.
    @inlinable @inline(__always)
    func appendUpdateIfSummaryChanged(
        from: ItemPath, oldItems: UnsafeBufferPointer<Item>, oldSection: Int,
        to newItemOffset: Int, newItems: UnsafeBufferPointer<Item>, newSection: Int,
        changes: inout ListChanges<ItemID, Summary, SectionSummary>
    ) {
        let summaryChanged =
            from.section == oldSection
            ? !literallyEqual(oldItems[from.item].summary, newItems[newItemOffset].summary)
            : !literallyEqual(sections[from.section].items[from.item].summary, newItems[newItemOffset].summary)
        if summaryChanged {
            changes.updatedItems.append(
                .init(
                    from: from, to: ItemPath(section: newSection, item: newItemOffset),
                    summary: newItems[newItemOffset].summary))
        }
    }
}
