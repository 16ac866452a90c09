extension IdentifierIndex {
    /// The index of the items of `sections`, filed in display order: entry *k* is the *k*-th
    /// item (what ``ListSnapshot``'s `indexFollowsDisplayOrder` vouches for), each identifier
    /// hashed once.
    ///
    /// One pass over the items, with the table and the entries held in place throughout: what
    /// `init(sections:)` spends its time in, at about the cost of filling a dictionary of the
    /// same identifiers.
    ///
    /// - Parameters:
    ///   - sections: the sections, in display order.
    ///   - itemCount: the number of their items.
    ///   - hashes: each item's hash (``hash(of:)`` of its identifier), section by section, when the
    ///     caller computed them earlier in this process (a reader that kept them from the
    ///     snapshot before); `nil` to hash every identifier here. Given hashes are trusted: one
    ///     that is not its identifier's makes lookups miss, so they must come from ``hash(of:)``
    ///     of these very identifiers, never from outside the process.
    /// - Returns: the index; or, when an identifier repeats, the paths of its first and second
    ///   occurrences (the first such pair in display order) and an index of the items before the
    ///   second.
    /// - Complexity: O(*n*) expected, where *n* is `itemCount`.
    @inlinable
    package static func indexing<Summary, SectionSummary>(
        _ sections: [ListSnapshot<ID, Summary, SectionSummary>.Section], itemCount: Int, hashes: [[Int]]? = nil
    ) -> (index: Self, duplicate: (first: ItemPath, second: ItemPath)?) {
        precondition(sections.count <= maximumOffset, "too many sections for one index")
        precondition(hashes == nil || hashes!.count == sections.count, "one array of hashes per section")
        var slots = [UInt64](repeating: 0, count: slotCount(forCapacity: itemCount))
        var duplicate: (first: ItemPath, second: ItemPath)?
        let entries = slots.withUnsafeMutableBufferPointer { slots in
            [Entry](unsafeUninitializedCapacity: itemCount) { entries, filed in
                let mask = slots.count &- 1
                for sectionOffset in sections.indices where duplicate == nil {
                    let given = hashes?[sectionOffset] ?? []
                    precondition(
                        hashes == nil || given.count == sections[sectionOffset].items.count,
                        "one hash per item")
                    // Items read in place: copying each one would retain and release its strings.
                    // Both buffers live only inside these closures, and the precondition above
                    // keeps `given`'s reads inside it when hashes are given.
                    sections[sectionOffset].items.withUnsafeBufferPointer { items in
                        given.withUnsafeBufferPointer { given in
                            for itemOffset in items.indices {
                                let id = items[itemOffset].id
                                let hash = hashes == nil ? Self.hash(of: id) : given[itemOffset]
                                let tag = Self.tag(hash)
                                var slot = hash & mask
                                while slots[slot] != 0 {
                                    if slots[slot] & 0xFFFF_FFFF_0000_0000 == tag {
                                        let entry = entries[Self.entryPosition(slots[slot])]
                                        if entry.hash == hash, literallyEqual(entry.id, id) {
                                            duplicate = (entry.path, ItemPath(section: sectionOffset, item: itemOffset))
                                            return
                                        }
                                    }
                                    slot = (slot &+ 1) & mask
                                }
                                slots[slot] = tag | UInt64(truncatingIfNeeded: filed &+ 1)
                                (entries.baseAddress! + filed).initialize(
                                    to: Entry(
                                        hash: hash, id: id, path: ItemPath(section: sectionOffset, item: itemOffset)))
                                filed &+= 1
                            }
                        }
                    }
                }
            }
        }
        return (Self(slots: slots, entries: entries), duplicate)
    }

    /// Calls `body` with the entries, in the order they were filed: for an index from
    /// ``indexing(_:itemCount:hashes:)`` that no one changed since, the items in display order.
    /// - Complexity: O(1).
    @inlinable
    func withEntries<Result>(_ body: (UnsafeBufferPointer<Entry>) -> Result) -> Result {
        entries.withUnsafeBufferPointer(body)
    }
}
