/// The identifier hashes of the items of one surviving section, old and new, as the snapshots
/// indexes hold them when they follow the display order (``ListSnapshot``'s
/// `indexFollowsDisplayOrder`): the diff compares two hashes before it compares two
/// identifiers, and looks a new item up in the old snapshot's index by its hash, so that no
/// identifier is hashed during the diff.
///
/// Invariants: `old` is empty or has one entry per item of the old section, in order, each the
/// item's (``IdentifierIndex``); `new` likewise for the new section. Empty means "not known": the
/// hashes are then not compared, and computed when a lookup needs one.
@usableFromInline
struct SectionHashes<ID: Hashable & Sendable> {
    @usableFromInline typealias Entries = UnsafeBufferPointer<IdentifierIndex<ID>.Entry>

    /// The old section's items' entries, or none.
    @usableFromInline let old: Entries
    /// The new section's items' entries, or none.
    @usableFromInline let new: Entries

    /// The entries of `oldCount` items from `oldStart` in `oldEntries` and of `newCount` items
    /// from `newStart` in `newEntries`; an empty buffer gives none.
    @inlinable
    init(
        old oldEntries: Entries, from oldStart: Int, count oldCount: Int,
        new newEntries: Entries, from newStart: Int, count newCount: Int
    ) {
        old = oldEntries.isEmpty ? oldEntries : Entries(rebasing: oldEntries[oldStart..<oldStart + oldCount])
        new = newEntries.isEmpty ? newEntries : Entries(rebasing: newEntries[newStart..<newStart + newCount])
    }

    /// Whether the old item at `oldOffset` and the new one at `newOffset` may have the same
    /// identifier: `false` only when their hashes are known and differ.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    func mayMatch(old oldOffset: Int, new newOffset: Int) -> Bool {
        old.isEmpty || new.isEmpty || old[oldOffset].hash == new[newOffset].hash
    }

    /// The hash of `id`, the identifier of the new item at `newOffset`: the one held, or computed.
    /// - Complexity: O(1), plus hashing `id` when the hashes are not known.
    @inlinable @inline(__always)
    func hash(ofNew newOffset: Int, id: ID) -> Int {
        new.isEmpty ? IdentifierIndex<ID>.hash(of: id) : new[newOffset].hash
    }
}

extension ListSnapshot {
    /// The offset, in display order across the sections, of each section's first item: where
    /// its items' entries start in the index when it follows the display order. Empty when it
    /// does not.
    /// - Complexity: O(*s*), where *s* is the number of sections.
    @inlinable
    var firstFlatOffsetsOfEntries: [Int] {
        guard indexFollowsDisplayOrder else { return [] }
        var offsets: [Int] = []
        offsets.reserveCapacity(sections.count)
        var flatCount = 0
        for section in sections {
            offsets.append(flatCount)
            flatCount += section.items.count
        }
        return offsets
    }

    /// Calls `body` with the index's entries when they follow the display order, or with none.
    /// - Complexity: O(1).
    @inlinable
    func withEntriesInDisplayOrder<Result>(
        _ body: (UnsafeBufferPointer<IdentifierIndex<ItemID>.Entry>) -> Result
    ) -> Result {
        guard indexFollowsDisplayOrder else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return pathsByID.withEntries(body)
    }
}
