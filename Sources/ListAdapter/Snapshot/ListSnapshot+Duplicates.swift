extension ListSnapshot {
    /// The snapshot of `sections` under ``DuplicatePolicy/keepFirst``: the first occurrence of
    /// each title and identifier is kept, every later one dropped and reported.
    ///
    /// In order: a section whose title an earlier section has is dropped with all its items;
    /// in the sections that remain, an item whose identifier an earlier item has is dropped.
    /// Sections that lose items stay, even when they end up empty. Positions in the report
    /// count in `sections` as given: `[section]` for a section, `[section, item]` for an item
    /// (``DroppedDuplicate``).
    ///
    /// - Returns: the snapshot, equal to `try ListSnapshot(sections: sections)` when nothing
    ///   repeats, and what was dropped, in the order of `sections` (empty when nothing repeats).
    /// - Complexity: O(*n*) expected, where *n* is the number of items.
    public static func keepingFirstOccurrences(in sections: [Section]) -> (
        snapshot: Self, dropped: [DroppedDuplicate<ItemID>]
    ) {
        // Most lists repeat nothing: build them at the usual cost, and look again only on a repeat.
        if let snapshot = try? Self(sections: sections) { return (snapshot, []) }
        var kept: [Section] = []
        var dropped: [DroppedDuplicate<ItemID>] = []
        var firstSections: [LiteralKey<String>: Int] = [:]
        var firstPaths: [LiteralKey<ItemID>: ItemPath] = [:]
        for (sectionOffset, section) in sections.enumerated() {
            if let first = firstSections[LiteralKey(section.title)] {
                dropped.append(
                    DroppedDuplicate(
                        kind: .section(title: section.title, itemCount: section.items.count),
                        position: [sectionOffset], firstPosition: [first]))
                continue
            }
            firstSections[LiteralKey(section.title)] = sectionOffset
            var keptSection = section
            keptSection.items.removeAll(keepingCapacity: true)
            for (itemOffset, item) in section.items.enumerated() {
                let path = ItemPath(section: sectionOffset, item: itemOffset)
                if let first = firstPaths[LiteralKey(item.id)] {
                    dropped.append(
                        DroppedDuplicate(
                            kind: .item(id: item.id), position: [sectionOffset, itemOffset],
                            firstPosition: [first.section, first.item]))
                } else {
                    firstPaths[LiteralKey(item.id)] = path
                    keptSection.items.append(item)
                }
            }
            kept.append(keptSection)
        }
        return (uniqueSections(kept), dropped)
    }

    /// The snapshot of `sections`, whose titles and identifiers the caller made unique.
    static func uniqueSections(_ sections: [Section]) -> Self {
        do {
            return try Self(sections: sections)
        } catch {
            preconditionFailure("sections made unique still repeat: \(error)")
        }
    }
}
