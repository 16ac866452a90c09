extension ListSnapshot {
    /// Appends `items` to the end of the section titled `title`.
    ///
    /// Like every edit in place, this records what it changes, so that
    /// ``changes(editedFrom:)`` finds the changes from the snapshot before the edits by looking
    /// at the edited items only.
    ///
    /// - Throws: ``ListSnapshotEditError`` when there is no such section
    ///   (``ListSnapshotEditError/Code/unknownSectionTitle``) or an identifier is already in the
    ///   snapshot or twice in `items` (``ListSnapshotEditError/Code/duplicateItemID``); the
    ///   snapshot is then unchanged.
    /// - Complexity: O(*k*) amortised, where *k* is the number of items appended, plus a copy of
    ///   the section's items when their storage is shared with another snapshot.
    public mutating func appendItems(_ items: [Item], toSection title: String) throws(ListSnapshotEditError) {
        guard let section = offsetsByTitle[LiteralKey(title)] else {
            throw ListSnapshotEditError(code: .unknownSectionTitle, subject: title)
        }
        try checkNew(items)
        insertUnchecked(items, at: ItemPath(section: section, item: storedSections[section].items.count))
    }

    /// Appends `items` to the end of the last section.
    /// - Throws: ``ListSnapshotEditError`` when the snapshot has no section
    ///   (``ListSnapshotEditError/Code/noSection``) or an identifier is already in the snapshot or
    ///   twice in `items`; the snapshot is then unchanged.
    /// - Complexity: See ``appendItems(_:toSection:)``.
    public mutating func appendItems(_ items: [Item]) throws(ListSnapshotEditError) {
        guard let last = storedSections.last else { throw ListSnapshotEditError(code: .noSection, subject: "") }
        try appendItems(items, toSection: last.title)
    }

    /// Inserts `items` just before the item identified by `id`, in its section.
    /// - Throws: ``ListSnapshotEditError`` when `id` is not in the snapshot, or an identifier of
    ///   `items` is already in it or twice in `items`; the snapshot is then unchanged.
    /// - Complexity: O(*k* + *m*) expected, where *k* is the number of items inserted and *m*
    ///   the number of items of the section after them (their index entries move).
    public mutating func insertItems(_ items: [Item], beforeItem id: ItemID) throws(ListSnapshotEditError) {
        let path = try existingPath(of: id)
        try checkNew(items)
        insertUnchecked(items, at: path)
    }

    /// Inserts `items` just after the item identified by `id`, in its section.
    /// - Throws: See ``insertItems(_:beforeItem:)``.
    /// - Complexity: See ``insertItems(_:beforeItem:)``.
    public mutating func insertItems(_ items: [Item], afterItem id: ItemID) throws(ListSnapshotEditError) {
        let path = try existingPath(of: id)
        try checkNew(items)
        insertUnchecked(items, at: ItemPath(section: path.section, item: path.item + 1))
    }

    /// Deletes the items identified by `ids` (an identifier listed twice is deleted once).
    /// - Throws: ``ListSnapshotEditError`` naming the first identifier that is not in the
    ///   snapshot (``ListSnapshotEditError/Code/unknownItemID``); nothing is deleted then.
    /// - Complexity: O(*k* + *m*) expected, where *k* is the number of identifiers and *m* the
    ///   number of items after the first deleted one in each section concerned.
    public mutating func deleteItems(_ ids: [ItemID]) throws(ListSnapshotEditError) {
        var offsetsBySection: [Int: [Int]] = [:]
        for id in ids {
            let path = try existingPath(of: id)
            offsetsBySection[path.section, default: []].append(path.item)
        }
        beginEdit()
        var shifts: [PendingIndex<ItemID>.Shift] = []
        var touched: [(LiteralKey<ItemID>, ItemPath?)] = []
        for (section, offsets) in offsetsBySection {
            let sorted = Set(offsets).sorted()
            for offset in sorted.reversed() {
                let key = LiteralKey(storedSections[section].items[offset].id)
                shifts.append(.removedItem(at: ItemPath(section: section, item: offset)))
                touched.append((key, nil))
                editJournal!.place(key)
            }
            if sorted.count == 1 {
                storedSections[section].items.remove(at: sorted[0])
            } else {
                var next = 0
                var kept: [Item] = []
                kept.reserveCapacity(storedSections[section].items.count - sorted.count)
                for (offset, item) in storedSections[section].items.enumerated() {
                    if next < sorted.count, sorted[next] == offset {
                        next += 1
                    } else {
                        kept.append(item)
                    }
                }
                storedSections[section].items = kept
            }
        }
        recordInIndex(shifts, touched: touched, itemCountChange: -touched.count)
        _checkInvariants()
    }

    /// Moves the item identified by `id` to just before the item identified by `other`, which
    /// may be in another section.
    /// - Throws: ``ListSnapshotEditError`` when either identifier is not in the snapshot, or they
    ///   are the same (``ListSnapshotEditError/Code/moveNextToItself``); the snapshot is then
    ///   unchanged.
    /// - Complexity: O(*m*) expected, where *m* counts the items between the two places (or
    ///   after them, in two sections).
    public mutating func moveItem(_ id: ItemID, beforeItem other: ItemID) throws(ListSnapshotEditError) {
        try moveItem(id, nextTo: other, after: false)
    }

    /// Moves the item identified by `id` to just after the item identified by `other`, which
    /// may be in another section.
    /// - Throws: See ``moveItem(_:beforeItem:)``.
    /// - Complexity: See ``moveItem(_:beforeItem:)``.
    public mutating func moveItem(_ id: ItemID, afterItem other: ItemID) throws(ListSnapshotEditError) {
        try moveItem(id, nextTo: other, after: true)
    }

    /// Sets the summary of the item identified by `id`: an update of the item when the summary
    /// differs from the one it had before the edits, shown as `kind` (a reload asked for once
    /// stays a reload).
    /// - Throws: ``ListSnapshotEditError`` when `id` is not in the snapshot; the snapshot is
    ///   then unchanged.
    /// - Complexity: O(1) expected, plus a copy of the section's items when their storage is
    ///   shared with another snapshot.
    public mutating func updateItem(_ id: ItemID, summary: Summary?, kind: ItemUpdateKind = .reconfigure)
        throws(ListSnapshotEditError)
    {
        let path = try existingPath(of: id)
        beginEdit()
        storedSections[path.section].items[path.item].summary = summary
        editJournal!.update(LiteralKey(id), kind: kind)
    }

    /// Deletes every section and item.
    /// - Complexity: O(*n*), where *n* is the number of items (each is recorded as deleted).
    public mutating func deleteAllItems() {
        beginEdit()
        for section in storedSections {
            for item in section.items { editJournal!.place(LiteralKey(item.id)) }
        }
        editJournal!.sectionsRestructured = true
        storedSections = []
        storedPathsByID = IdentifierIndex()
        indexFollowsDisplayOrder = true
        pendingIndex = nil
        offsetsByTitle = [:]
    }

    /// The path of `id`, or an error naming it.
    func existingPath(of id: ItemID) throws(ListSnapshotEditError) -> ItemPath {
        guard let path = indexedPath(of: LiteralKey(id)) else {
            throw ListSnapshotEditError(code: .unknownItemID, subject: String(describing: id))
        }
        return path
    }

    /// Checks that no identifier of `items` is in the snapshot or twice in `items`.
    func checkNew(_ items: some Sequence<Item>) throws(ListSnapshotEditError) {
        var seen: Set<LiteralKey<ItemID>> = []
        for item in items {
            let key = LiteralKey(item.id)
            if let path = indexedPath(of: key) {
                throw ListSnapshotEditError(
                    code: .duplicateItemID, subject: String(describing: item.id),
                    existingPosition: [path.section, path.item])
            }
            if !seen.insert(key).inserted {
                throw ListSnapshotEditError(code: .duplicateItemID, subject: String(describing: item.id))
            }
        }
    }

    /// Inserts checked `items` at `path`, indexes them and what follows, and records them.
    mutating func insertUnchecked(_ items: [Item], at path: ItemPath) {
        beginEdit()
        storedSections[path.section].items.insert(contentsOf: items, at: path.item)
        for item in items { editJournal!.place(LiteralKey(item.id)) }
        recordInIndex(
            [.insertedItems(at: path, count: items.count)],
            touched: items.enumerated().map {
                (LiteralKey($1.id), ItemPath(section: path.section, item: path.item + $0))
            },
            itemCountChange: items.count)
        _checkInvariants()
    }

    /// Moves the item `id` next to `other`, before or after it.
    mutating func moveItem(_ id: ItemID, nextTo other: ItemID, after: Bool) throws(ListSnapshotEditError) {
        let from = try existingPath(of: id)
        var target = try existingPath(of: other)
        guard from != target else {
            throw ListSnapshotEditError(code: .moveNextToItself, subject: String(describing: id))
        }
        beginEdit()
        let item = storedSections[from.section].items.remove(at: from.item)
        if target.section == from.section, target.item > from.item { target.item -= 1 }
        if after { target.item += 1 }
        storedSections[target.section].items.insert(item, at: target.item)
        editJournal!.place(LiteralKey(id))
        recordInIndex(
            [.removedItem(at: from), .insertedItems(at: target, count: 1)], touched: [(LiteralKey(id), target)],
            itemCountChange: 0)
        _checkInvariants()
    }
}
