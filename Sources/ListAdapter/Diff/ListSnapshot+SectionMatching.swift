/// The diff's view of the sections: which old sections survive (their title is in both
/// snapshots) and where each one went.
///
/// Invariants: `survivingOldOffsets` and `survivingNewOffsets` have the same count, one entry per
/// surviving section; `survivingNewOffsets` is strictly increasing (the survivors in their new
/// order); `newOffsetOfOld[survivingOldOffsets[k]] == survivingNewOffsets[k]`, and every other
/// entry of `newOffsetOfOld` is `-1`.
@usableFromInline
struct SectionMatching {
    /// For each old section, its offset in the new snapshot, or `-1` when its title is gone.
    @usableFromInline var newOffsetOfOld: [Int]
    /// The old offsets of the surviving sections, in their new order.
    @usableFromInline var survivingOldOffsets: [Int]
    /// The new offsets of the surviving sections, ascending, parallel to `survivingOldOffsets`.
    @usableFromInline var survivingNewOffsets: [Int]

    /// No section matched yet: every old section gone until ``ListSnapshot/matchSections(with:into:)`` finds it.
    @inlinable
    init(oldSectionCount: Int, capacity: Int) {
        newOffsetOfOld = [Int](repeating: -1, count: oldSectionCount)
        survivingOldOffsets = []
        survivingNewOffsets = []
        survivingOldOffsets.reserveCapacity(capacity)
        survivingNewOffsets.reserveCapacity(capacity)
    }

    /// Whether the old section at `oldOffset` is in the new snapshot too.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    func survives(oldSection oldOffset: Int) -> Bool {
        newOffsetOfOld[oldOffset] >= 0
    }

    /// Order sections: the surviving sections outside a longest increasing subsequence of their
    /// old offsets (taken in their new order) are moved; the others keep their place.
    ///
    /// Appends to `changes.movedSections`, in the survivors' new order. No other choice moves
    /// fewer sections: the sections that keep their place must be in the same relative order
    /// on both sides.
    ///
    /// - Complexity: O(*s* log *s*), where *s* is the number of surviving sections; O(*s*) when
    ///   they keep their order.
    @inlinable
    func appendSectionMoves<ItemID, Summary, SectionSummary>(
        to changes: inout ListChanges<ItemID, Summary, SectionSummary>
    ) {
        let inPlace = longestIncreasingSubsequence(survivingOldOffsets)
        for index in survivingOldOffsets.indices where !inPlace[index] {
            changes.movedSections.append(.init(from: survivingOldOffsets[index], to: survivingNewOffsets[index]))
        }
    }
}

extension ListSnapshot {
    /// Match sections: pairs each section of `new` with this snapshot's section of the same
    /// title, when there is one.
    ///
    /// Appends every section of `new` without a match to `changes.insertedSections` (ascending
    /// by new offset, each with all of its items), every matched section whose summary differs
    /// (strings by Unicode scalars; one that appears or disappears too) to
    /// `changes.updatedSections` (ascending by new offset), and every section of this snapshot
    /// without a match to `changes.deletedSections` (ascending).
    ///
    /// - Returns: the matching, whose invariants ``SectionMatching`` states.
    /// - Complexity: O(*s*) expected, where *s* counts the sections of both snapshots: one title
    ///   lookup in this snapshot's index for each section of `new`.
    @inlinable
    func matchSections(
        with new: ListSnapshot, into changes: inout ListChanges<ItemID, Summary, SectionSummary>
    ) -> SectionMatching {
        let newSections = new.sections
        var matching = SectionMatching(
            oldSectionCount: sections.count, capacity: min(sections.count, newSections.count))
        for (newOffset, section) in newSections.enumerated() {
            if let oldOffset = offsetsByTitle[LiteralKey(section.title)] {
                matching.newOffsetOfOld[oldOffset] = newOffset
                matching.survivingOldOffsets.append(oldOffset)
                matching.survivingNewOffsets.append(newOffset)
                if !literallyEqual(sections[oldOffset].summary, section.summary) {
                    changes.updatedSections.append(.init(from: oldOffset, to: newOffset, summary: section.summary))
                }
            } else {
                changes.insertedSections.append(.init(index: newOffset, section: section))
            }
        }
        for (oldOffset, newOffset) in matching.newOffsetOfOld.enumerated() where newOffset < 0 {
            changes.deletedSections.append(oldOffset)
        }
        return matching
    }
}
