extension ListSnapshot {
    // `applying` is specialised for string identifiers and summaries, the log's and the tool's
    // types: the generic body spends most of its time in metadata lookups, which would
    // dominate `verify`.

    /// The snapshot that `changes` produce from this one: the interchange format's reference `apply`.
    ///
    /// The changes are first checked against the interchange format's validity rules, then applied in its
    /// four steps:
    /// 1. Removals, in this snapshot's coordinates: the deleted sections go, with their items;
    ///    in every other section the deleted items and the `from` of every moved item go, the
    ///    moved items being kept (with their identifier and summary) for step 3.
    /// 2. Section order: the result has as many sections as this one, minus the deleted, plus
    ///    the inserted. Each inserted section goes at its `index`, each moved one at its `to`; the
    ///    other surviving sections fill the free slots in their old order.
    /// 3. Item order, for each section that was not inserted: its size is what stayed plus what
    ///    arrives. Each inserted item goes at its `at`, each moved item at its `to`; the items
    ///    that stayed fill the free slots in their old order.
    /// 4. Updates: each item `updated[].to` gets its new summary; the item there must be the
    ///    one at its `from` in this snapshot. Each section `updated[].to` gets its new section
    ///    summary; the section there must be the one at its `from` in this snapshot.
    ///
    /// Invalid changes never trap: every broken rule is a thrown error, and nothing is applied.
    ///
    /// - Parameter changes: changes computed for this snapshot, such as `changes(to:)` returns.
    /// - Returns: the new snapshot.
    /// - Throws: ``ListChangesError`` naming the first broken rule, the update whose item or
    ///   section does not match (``ListRuleViolationCode/updateMismatch``), or the duplicate title or
    ///   identifier that the result would hold (``ListRuleViolationCode/invalidResult``).
    /// - Complexity: O(*n* + *c*) expected, where *n* counts the items of both snapshots and *c*
    ///   the operations; changes that only update summaries hash no identifier (the result
    ///   keeps this snapshot's index).
    @_specialize(exported:true,where ItemID == String, Summary == String, SectionSummary == String)
    public func applying(_ changes: ListChanges<ItemID, Summary, SectionSummary>) throws(ListChangesError)
        -> ListSnapshot
    {
        if let violation = changes.violation(oldItemCounts: itemCounts) {
            throw ListChangesError(violation)
        }
        return try applying(checkedChanges: changes)
    }

    /// ``applying(_:)`` for changes already checked against this snapshot's item counts
    /// (`ListChanges.violation(oldItemCounts:)` found none), by a caller that checks them with
    /// stricter rules of its own: the rest of `applying(_:)`'s checks and its result.
    ///
    /// - Complexity: That of ``applying(_:)``.
    @_specialize(exported:true,where ItemID == String, Summary == String, SectionSummary == String)
    package func applying(checkedChanges changes: ListChanges<ItemID, Summary, SectionSummary>)
        throws(ListChangesError) -> ListSnapshot
    {
        let placement = changes.sectionPlacement(oldSectionCount: sections.count)

        // Step 1: what leaves the surviving sections. Moved items travel to step 3 with their
        // identifier and summary.
        var removedPaths = Set<ItemPath>(minimumCapacity: changes.deletedItems.count + changes.movedItems.count)
        var sectionsLosingItems = Set<Int>()
        for path in changes.deletedItems {
            removedPaths.insert(path)
            sectionsLosingItems.insert(path.section)
        }
        var arrivals: [Int: [(offset: Int, item: Item)]] = [:]
        for move in changes.movedItems {
            removedPaths.insert(move.from)
            sectionsLosingItems.insert(move.from.section)
            let item = sections[move.from.section].items[move.from.item]
            arrivals[move.to.section, default: []].append((move.to.item, item))
        }
        for insertion in changes.insertedItems {
            arrivals[insertion.at.section, default: []].append(
                (insertion.at.item, Item(id: insertion.id, summary: insertion.summary)))
        }

        // Steps 2 and 3: sections in their slots, then items in theirs.
        var newSections: [Section] = []
        newSections.reserveCapacity(placement.oldOffsetOfNew.count)
        for (newOffset, oldOffset) in placement.oldOffsetOfNew.enumerated() {
            guard oldOffset >= 0 else {
                newSections.append(changes.insertedSections[placement.insertionOfNew[newOffset]].section)
                continue
            }
            let oldSection = sections[oldOffset]
            let arriving = arrivals[newOffset] ?? []
            guard !arriving.isEmpty || sectionsLosingItems.contains(oldOffset) else {
                newSections.append(oldSection)
                continue
            }
            var stayed: [Item] = []
            stayed.reserveCapacity(oldSection.items.count)
            for (itemOffset, item) in oldSection.items.enumerated()
            where !removedPaths.contains(ItemPath(section: oldOffset, item: itemOffset)) {
                stayed.append(item)
            }
            var slots = [Item?](repeating: nil, count: stayed.count + arriving.count)
            for arrival in arriving { slots[arrival.offset] = arrival.item }
            var nextStayed = stayed.makeIterator()
            let items = slots.compactMap { slot in slot ?? nextStayed.next() }
            newSections.append(Section(title: oldSection.title, summary: oldSection.summary, items: items))
        }

        // Step 4: updates, checking that each lands on its own item.
        for update in changes.updatedItems {
            let oldID = sections[update.from.section].items[update.from.item].id
            let newID = newSections[update.to.section].items[update.to.item].id
            guard literallyEqual(oldID, newID) else {
                throw .updateMismatch(
                    from: update.from, to: update.to,
                    oldID: String(describing: oldID), newID: String(describing: newID))
            }
            newSections[update.to.section].items[update.to.item].summary = update.summary
        }
        for update in changes.updatedSections {
            let oldTitle = sections[update.from].title
            let newTitle = newSections[update.to].title
            guard literallyEqualStrings(oldTitle, newTitle) else {
                throw .sectionUpdateMismatch(from: update.from, to: update.to, oldTitle: oldTitle, newTitle: newTitle)
            }
            newSections[update.to].summary = update.summary
        }

        if changes.deletedSections.isEmpty, changes.insertedSections.isEmpty, changes.movedSections.isEmpty,
            changes.deletedItems.isEmpty, changes.insertedItems.isEmpty, changes.movedItems.isEmpty
        {
            // Only summaries changed: every title and identifier is where it was, so this
            // snapshot's index (already checked for duplicates) describes the result, and no
            // identifier is hashed again. What a reconfigure after a batch applies.
            let result = ListSnapshot(
                uncheckedSections: newSections, pathsByID: pathsByID, offsetsByTitle: offsetsByTitle,
                indexFollowsDisplayOrder: indexFollowsDisplayOrder)
            result._checkInvariants()
            return result
        }
        do {
            return try ListSnapshot(sections: newSections)
        } catch {
            throw .invalidResult(error)
        }
    }
}
