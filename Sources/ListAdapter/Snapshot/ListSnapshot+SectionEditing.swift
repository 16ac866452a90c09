extension ListSnapshot {
    /// Appends `newSections`, with their items, after the last section.
    ///
    /// Like every edit in place, this records what it changes (see
    /// ``changes(editedFrom:)``).
    ///
    /// - Throws: ``ListSnapshotEditError`` when a title is already in the snapshot or twice in
    ///   `newSections` (``ListSnapshotEditError/Code/duplicateSectionTitle``), or an item
    ///   identifier is (``ListSnapshotEditError/Code/duplicateItemID``); the snapshot is then
    ///   unchanged.
    /// - Complexity: O(*k*) expected, where *k* counts the sections and items appended.
    public mutating func appendSections(_ newSections: [Section]) throws(ListSnapshotEditError) {
        try checkNew(newSections)
        insertUnchecked(newSections, at: storedSections.count)
    }

    /// Inserts `newSections`, with their items, just before the section titled `title`.
    /// - Throws: ``ListSnapshotEditError`` when there is no such section, or as
    ///   ``appendSections(_:)`` does; the snapshot is then unchanged.
    /// - Complexity: O(*k* + *m*) expected, where *k* counts the sections and items inserted
    ///   and *m* the items of the sections after them (their index entries move).
    public mutating func insertSections(_ newSections: [Section], beforeSection title: String)
        throws(ListSnapshotEditError)
    {
        let offset = try existingOffset(of: title)
        try checkNew(newSections)
        insertUnchecked(newSections, at: offset)
    }

    /// Inserts `newSections`, with their items, just after the section titled `title`.
    /// - Throws: See ``insertSections(_:beforeSection:)``.
    /// - Complexity: See ``insertSections(_:beforeSection:)``.
    public mutating func insertSections(_ newSections: [Section], afterSection title: String)
        throws(ListSnapshotEditError)
    {
        let offset = try existingOffset(of: title)
        try checkNew(newSections)
        insertUnchecked(newSections, at: offset + 1)
    }

    /// Deletes the sections titled `titles`, with their items (a title listed twice is deleted
    /// once).
    /// - Throws: ``ListSnapshotEditError`` naming the first title that is not in the snapshot
    ///   (``ListSnapshotEditError/Code/unknownSectionTitle``); nothing is deleted then.
    /// - Complexity: O(*k* + *m*) expected, where *k* counts the sections and items deleted and
    ///   *m* the items of the sections after the first one deleted.
    public mutating func deleteSections(_ titles: [String]) throws(ListSnapshotEditError) {
        var offsets: Set<Int> = []
        for title in titles { offsets.insert(try existingOffset(of: title)) }
        guard let first = offsets.min() else { return }
        beginEdit()
        editJournal!.sectionsRestructured = true
        var shifts: [PendingIndex<ItemID>.Shift] = []
        var touched: [(LiteralKey<ItemID>, ItemPath?)] = []
        for offset in offsets.sorted(by: >) {
            let section = storedSections.remove(at: offset)
            offsetsByTitle.removeValue(forKey: LiteralKey(section.title))
            shifts.append(.removedSection(at: offset))
            for item in section.items {
                let key = LiteralKey(item.id)
                touched.append((key, nil))
                editJournal!.place(key)
            }
        }
        recordInIndex(shifts, touched: touched, itemCountChange: -touched.count)
        reindexTitles(from: first)
        _checkInvariants()
    }

    /// Moves the section titled `title`, with its items, to just before the section titled
    /// `other`.
    /// - Throws: ``ListSnapshotEditError`` when either title is not in the snapshot, or they are
    ///   the same (``ListSnapshotEditError/Code/moveNextToItself``); the snapshot is then
    ///   unchanged.
    /// - Complexity: O(*s* + *m*) expected, where *s* counts the sections between the two places
    ///   and *m* their items (their index entries move).
    public mutating func moveSection(_ title: String, beforeSection other: String) throws(ListSnapshotEditError) {
        try moveSection(title, nextTo: other, after: false)
    }

    /// Moves the section titled `title`, with its items, to just after the section titled
    /// `other`.
    /// - Throws: See ``moveSection(_:beforeSection:)``.
    /// - Complexity: See ``moveSection(_:beforeSection:)``.
    public mutating func moveSection(_ title: String, afterSection other: String) throws(ListSnapshotEditError) {
        try moveSection(title, nextTo: other, after: true)
    }

    /// Sets the summary of the section titled `title`: an update of the section when it differs
    /// from the one it had before the edits.
    /// - Throws: ``ListSnapshotEditError`` when there is no such section; the snapshot is then
    ///   unchanged.
    /// - Complexity: O(1) expected.
    public mutating func updateSection(_ title: String, summary: SectionSummary?) throws(ListSnapshotEditError) {
        let offset = try existingOffset(of: title)
        beginEdit()
        storedSections[offset].summary = summary
        editJournal!.updatedTitles.insert(LiteralKey(title))
    }

    /// The offset of the section titled `title`, or an error naming it.
    func existingOffset(of title: String) throws(ListSnapshotEditError) -> Int {
        guard let offset = offsetsByTitle[LiteralKey(title)] else {
            throw ListSnapshotEditError(code: .unknownSectionTitle, subject: title)
        }
        return offset
    }

    /// Checks that no title of `newSections` is in the snapshot or twice in them, and that no
    /// identifier of their items is.
    func checkNew(_ newSections: [Section]) throws(ListSnapshotEditError) {
        var seen: Set<LiteralKey<String>> = []
        for section in newSections {
            let key = LiteralKey(section.title)
            if let offset = offsetsByTitle[key] {
                throw ListSnapshotEditError(
                    code: .duplicateSectionTitle, subject: section.title, existingPosition: [offset])
            }
            if !seen.insert(key).inserted {
                throw ListSnapshotEditError(code: .duplicateSectionTitle, subject: section.title)
            }
        }
        try checkNew(newSections.lazy.flatMap(\.items))
    }

    /// Inserts checked `newSections` at `offset`, indexes them and what follows, and records them.
    mutating func insertUnchecked(_ newSections: [Section], at offset: Int) {
        guard !newSections.isEmpty else { return }
        beginEdit()
        editJournal!.sectionsRestructured = true
        var touched: [(LiteralKey<ItemID>, ItemPath?)] = []
        for (sectionOffset, section) in newSections.enumerated() {
            for (itemOffset, item) in section.items.enumerated() {
                let key = LiteralKey(item.id)
                editJournal!.place(key)
                touched.append((key, ItemPath(section: offset + sectionOffset, item: itemOffset)))
            }
        }
        storedSections.insert(contentsOf: newSections, at: offset)
        recordInIndex(
            [.insertedSections(at: offset, count: newSections.count)], touched: touched,
            itemCountChange: touched.count)
        reindexTitles(from: offset)
        _checkInvariants()
    }

    /// Moves the section `title` next to `other`, before or after it.
    mutating func moveSection(_ title: String, nextTo other: String, after: Bool) throws(ListSnapshotEditError) {
        let from = try existingOffset(of: title)
        var target = try existingOffset(of: other)
        guard from != target else { throw ListSnapshotEditError(code: .moveNextToItself, subject: title) }
        beginEdit()
        editJournal!.sectionsRestructured = true
        let section = storedSections.remove(at: from)
        if target > from { target -= 1 }
        if after { target += 1 }
        storedSections.insert(section, at: target)
        recordInIndex([.movedSection(from: from, to: target)], touched: [], itemCountChange: 0)
        reindexTitles(from: min(from, target))
        _checkInvariants()
    }
}
