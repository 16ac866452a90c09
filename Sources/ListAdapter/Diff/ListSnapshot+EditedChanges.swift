extension ListSnapshot {
    /// The changes that take `base` to this snapshot, found from the edits recorded since this
    /// snapshot was edited from `base`, or `nil` when it was not (then use ``changes(to:)``).
    ///
    /// A snapshot edited in place (``appendItems(_:toSection:)``, ``insertItems(_:beforeItem:)``,
    /// ``deleteItems(_:)``, ``moveItem(_:beforeItem:)``, ``updateItem(_:summary:kind:)``,
    /// ``appendSections(_:)``, ``insertSections(_:beforeSection:)``, ``deleteSections(_:)``,
    /// ``moveSection(_:beforeSection:)``, ``updateSection(_:summary:)`` and their kin) records
    /// which items and sections the edits touched. `base` is the snapshot as it was before the
    /// first of them: the same value, or a copy of it. An edit made while a copy of the
    /// snapshot is alive (the one an adapter shows, one kept to undo) starts the record again
    /// from that copy, so the usual rounds (copy the adapter's snapshot, edit it, apply it,
    /// edit it again, apply it again) each find their changes from the edits. An edited
    /// snapshot keeps the one its edits start from alive, sharing what the edits left alone.
    ///
    /// The result equals `base.changes(to: self)` exactly, the same operations in the same
    /// order, with the same choice of moves among equally few ones; only the
    /// ``ListChanges/ItemUpdate/kind`` of an update is the one the edit asked for (the diff
    /// always reports ``ItemUpdateKind/reconfigure``). As with the diff, an item or section whose
    /// summary was set to the one it had before is not updated, and an item deleted and
    /// inserted again under the same identifier is moved, or stays, as the diff would have it.
    ///
    /// - Complexity: O(*k* log *k*) expected, where *k* counts the items the edits touched;
    ///   plus O(*s*), where *s* counts the sections, when sections were inserted, deleted or
    ///   moved; plus O(*m*) for each section of *m* items in which an item was moved, deleted
    ///   and inserted again, or brought back from another section (to choose the same moves as
    ///   the diff). Items the edits did not touch are neither read nor hashed.
    public func changes(editedFrom base: ListSnapshot) -> ListChanges<ItemID, Summary, SectionSummary>? {
        guard let journal = editJournal, journal.isBase(base) else { return nil }
        return EditedChanges(base: base, edited: self, journal: journal).changes()
    }

    /// The changes that take this snapshot to `new`: from `new`'s recorded edits when it was
    /// edited from this snapshot (``changes(editedFrom:)``), otherwise from the full diff
    /// (``changes(to:)``). Either way the result is the same; this is what ``ListAdapter``,
    /// the log and the recorder use.
    /// - Complexity: See ``changes(editedFrom:)`` and ``changes(to:)``.
    public func changesFollowingEdits(to new: ListSnapshot) -> ListChanges<ItemID, Summary, SectionSummary> {
        new.changes(editedFrom: self) ?? changes(to: new)
    }
}

/// The computation of ``ListSnapshot/changes(editedFrom:)``: the diff's rules (see
/// ``ListSnapshot/changes(to:)``) applied to the touched items only.
struct EditedChanges<ItemID: Hashable & Sendable, Summary: Hashable & Sendable, SectionSummary: Hashable & Sendable> {
    typealias Snapshot = ListSnapshot<ItemID, Summary, SectionSummary>

    let base: Snapshot
    let edited: Snapshot
    let journal: ListEditJournal<ItemID, Summary, SectionSummary>

    /// A touched item that was placed (inserted, deleted or moved) in a surviving section of
    /// the edited snapshot: its offset there, and its path in the base when it comes from the
    /// same surviving section.
    struct Placed {
        var newOffset: Int
        var oldOffset: Int?
    }

    func changes() -> ListChanges<ItemID, Summary, SectionSummary> {
        var changes = ListChanges<ItemID, Summary, SectionSummary>()
        appendSectionChanges(to: &changes)
        // New section offset → placed items there; old section offset → old offsets of placed
        // items there; the sections whose remaining items must be ordered as the diff does.
        var placedInNew: [Int: [Placed]] = [:]
        var placedInOld: [Int: [Int]] = [:]
        var sectionsToOrder: Set<Int> = []
        func visit(_ key: LiteralKey<ItemID>, placed: Bool) {
            let oldPath = base.indexedPath(of: key)
            let newPath = edited.indexedPath(of: key)
            // The base offset of the new section's title, when that section survives.
            let survivingNew = newPath.flatMap { base.offsetsByTitle[LiteralKey(edited.sections[$0.section].title)] }
            let oldSurvives = oldPath.map { edited.offsetsByTitle[LiteralKey(base.sections[$0.section].title)] != nil }
            let origin = oldSurvives == true ? oldPath : nil
            if let oldPath, oldSurvives == true, placed {
                placedInOld[oldPath.section, default: []].append(oldPath.item)
            }
            guard let newPath, let survivingNew else {
                if let origin { changes.deletedItems.append(origin) }
                return
            }
            guard let origin else {
                let item = edited.sections[newPath.section].items[newPath.item]
                changes.insertedItems.append(.init(at: newPath, id: item.id, summary: item.summary))
                if placed { placedInNew[newPath.section, default: []].append(Placed(newOffset: newPath.item)) }
                return
            }
            let newSummary = edited.sections[newPath.section].items[newPath.item].summary
            if !literallyEqual(base.sections[origin.section].items[origin.item].summary, newSummary) {
                changes.updatedItems.append(
                    .init(
                        from: origin, to: newPath, summary: newSummary, kind: journal.updateKinds[key] ?? .reconfigure))
            }
            if origin.section != survivingNew {
                changes.movedItems.append(.init(from: origin, to: newPath))
                if placed { placedInNew[newPath.section, default: []].append(Placed(newOffset: newPath.item)) }
            } else if placed {
                placedInNew[newPath.section, default: []].append(
                    Placed(newOffset: newPath.item, oldOffset: origin.item))
                sectionsToOrder.insert(newPath.section)
            }
        }
        for key in journal.placedItems { visit(key, placed: true) }
        for key in journal.updateKinds.keys where !journal.placedItems.contains(key) { visit(key, placed: false) }

        for newSection in sectionsToOrder {
            let oldSection = base.offsetsByTitle[LiteralKey(edited.sections[newSection].title)]!
            appendMoves(
                in: newSection, from: oldSection,
                placed: placedInNew[newSection]!.sorted { $0.newOffset < $1.newOffset },
                skippedOld: (placedInOld[oldSection] ?? []).sorted(), to: &changes)
        }
        changes.deletedItems.sort()
        changes.insertedItems.sort { $0.at < $1.at }
        changes.movedItems.sort { $0.to < $1.to }
        changes.updatedItems.sort { $0.to < $1.to }
        return changes
    }

    /// Sections: as the diff finds them when sections were inserted, deleted or moved;
    /// otherwise the sections are the same, in the same order, and only the summaries the edits
    /// set can differ.
    func appendSectionChanges(to changes: inout ListChanges<ItemID, Summary, SectionSummary>) {
        if journal.sectionsRestructured {
            let matching = base.matchSections(with: edited, into: &changes)
            matching.appendSectionMoves(to: &changes)
            return
        }
        let offsets = journal.updatedTitles.compactMap { edited.offsetsByTitle[$0] }.sorted()
        for offset in offsets where !literallyEqual(base.sections[offset].summary, edited.sections[offset].summary) {
            changes.updatedSections.append(.init(from: offset, to: offset, summary: edited.sections[offset].summary))
        }
    }

    /// Orders the items that stay in the section at `newSection` (`oldSection` in the base) as
    /// the diff does: the items the edits did not place keep their relative order, so their
    /// base offsets are read off in step with their new ones, skipping the placed items on both
    /// sides; the placed items that stay bring their base offsets; the items outside a longest
    /// increasing subsequence of those offsets move.
    /// - Complexity: O(*m* log *m*) at worst, O(*m*) when the items mostly keep their order,
    ///   where *m* is the number of the section's items; no item is read or hashed.
    func appendMoves(
        in newSection: Int, from oldSection: Int, placed: [Placed], skippedOld: [Int],
        to changes: inout ListChanges<ItemID, Summary, SectionSummary>
    ) {
        let count = edited.sections[newSection].items.count
        var stayingOld: [Int] = []
        var stayingNew: [Int] = []
        stayingOld.reserveCapacity(count)
        stayingNew.reserveCapacity(count)
        var nextPlaced = 0
        var nextSkipped = 0
        var oldCursor = 0
        for newOffset in 0..<count {
            if nextPlaced < placed.count, placed[nextPlaced].newOffset == newOffset {
                if let oldOffset = placed[nextPlaced].oldOffset {
                    stayingOld.append(oldOffset)
                    stayingNew.append(newOffset)
                }
                nextPlaced += 1
                continue
            }
            while nextSkipped < skippedOld.count, skippedOld[nextSkipped] == oldCursor {
                nextSkipped += 1
                oldCursor += 1
            }
            stayingOld.append(oldCursor)
            stayingNew.append(newOffset)
            oldCursor += 1
        }
        let inPlace = longestIncreasingSubsequence(stayingOld)
        for index in stayingOld.indices where !inPlace[index] {
            changes.movedItems.append(
                .init(
                    from: ItemPath(section: oldSection, item: stayingOld[index]),
                    to: ItemPath(section: newSection, item: stayingNew[index])))
        }
    }
}
