import ListAdapter

/// What one revision did to an item or a section, worked out from the snapshot before it, the
/// snapshot after it and its changes. It depends on no storage engine: every engine's history
/// index and every scan answer through it.
package enum HistoryAnalysis {
    /// The identifiers and section titles a revision touched: every item its changes insert,
    /// delete, move or update (with the items of the sections it deletes or inserts), and every
    /// section it inserts, deletes, moves or updates.
    package struct Touched: Hashable, Sendable {
        /// The items' identifiers.
        package var items: Set<String> = []
        /// The sections' titles.
        package var sections: Set<String> = []

        /// Every subject touched.
        package var subjects: [HistorySubject] {
            items.map(HistorySubject.item) + sections.map(HistorySubject.section)
        }

        /// What the revision did to each subject touched, as the history index stores it: with
        /// revision, time and annotations left out (0, 0 and none). A subject touched to no
        /// effect has none.
        package var events: [HistorySubject: HistoryEvent] = [:]
    }

    /// What `changes`, which take `old` to `new`, touched.
    package static func touched(old: LogSnapshot, new: LogSnapshot, changes: LogChanges) -> Touched {
        var touched = Touched()
        for offset in changes.deletedSections where old.sections.indices.contains(offset) {
            let section = old.sections[offset]
            touched.sections.insert(section.title)
            for item in section.items { touched.items.insert(item.id) }
        }
        for insertion in changes.insertedSections {
            touched.sections.insert(insertion.section.title)
            for item in insertion.section.items { touched.items.insert(item.id) }
        }
        for move in changes.movedSections {
            if let title = new.title(ofSection: move.to) { touched.sections.insert(title) }
        }
        for update in changes.updatedSections {
            if let title = new.title(ofSection: update.to) { touched.sections.insert(title) }
        }
        for path in changes.deletedItems {
            if let id = old.identifier(at: path) { touched.items.insert(id) }
        }
        for insertion in changes.insertedItems { touched.items.insert(insertion.id) }
        for move in changes.movedItems {
            if let id = new.identifier(at: move.to) { touched.items.insert(id) }
        }
        for update in changes.updatedItems {
            if let id = new.identifier(at: update.to) { touched.items.insert(id) }
        }
        for subject in touched.subjects {
            touched.events[subject] = event(for: subject, old: old, new: new, changes: changes)
        }
        return touched
    }

    /// What the revision `record` (whose changes take `old` to its snapshot) did to `subject`,
    /// or `nil` when it did nothing to it.
    package static func event(for subject: HistorySubject, old: LogSnapshot, record: RevisionRecord)
        -> HistoryEvent?
    {
        guard var event = event(for: subject, old: old, new: record.snapshot, changes: record.changes) else {
            return nil
        }
        event.revision = record.revision
        event.millisecondsSince1970 = record.millisecondsSince1970
        event.meta = record.meta
        return event
    }

    /// What `changes`, which take `old` to `new`, did to `subject`, with revision, time and
    /// annotations left out (0, 0 and none); `nil` when they did nothing to it.
    package static func event(for subject: HistorySubject, old: LogSnapshot, new: LogSnapshot, changes: LogChanges)
        -> HistoryEvent?
    {
        switch subject {
        case .item(let id):
            return itemEvent(id, old: old, new: new, changes: changes)
        case .section(let title):
            return sectionEvent(title, old: old, new: new, changes: changes)
        }
    }

    private static func itemEvent(_ id: String, old: LogSnapshot, new: LogSnapshot, changes: LogChanges)
        -> HistoryEvent?
    {
        let before = old.path(of: id)
        let after = new.path(of: id)
        let leftWithSection = before.map { changes.deletedSections.contains($0.section) } ?? false
        let cameWithSection =
            after.map { path in changes.insertedSections.contains { $0.index == path.section } } ?? false
        let fate: HistoryEvent.SectionFate? =
            leftWithSection ? .deleted : cameWithSection ? .inserted : nil
        var kinds: [HistoryEvent.Kind] = []
        switch (before, after) {
        case (nil, nil):
            return nil
        case (nil, .some):
            kinds = [.inserted]
        case (.some, nil):
            kinds = [.deleted]
        case (.some(let from), .some(let to)):
            let deleted = changes.deletedItems.contains(from)
            let inserted = changes.insertedItems.contains { $0.at == to }
            if fate != nil || changes.movedItems.contains(where: { $0.from == from }) || (deleted && inserted) {
                kinds.append(.moved)
            }
            let summaryChanged = !literallyEqual(old.item(at: from)?.summary, new.item(at: to)?.summary)
            if summaryChanged || changes.updatedItems.contains(where: { $0.from == from }) {
                kinds.append(.updated)
            }
        }
        guard !kinds.isEmpty else { return nil }
        return HistoryEvent(
            revision: 0, millisecondsSince1970: 0, meta: [:], kinds: kinds, withSection: fate,
            before: before.map { place(of: $0, in: old) }, after: after.map { place(of: $0, in: new) },
            summaryBefore: before.flatMap { old.item(at: $0)?.summary },
            summaryAfter: after.flatMap { new.item(at: $0)?.summary })
    }

    private static func place(of path: ItemPath, in snapshot: LogSnapshot) -> HistoryEvent.Place {
        HistoryEvent.Place(
            section: snapshot.sections[path.section].title, sectionIndex: path.section, itemIndex: path.item)
    }

    private static func sectionEvent(_ title: String, old: LogSnapshot, new: LogSnapshot, changes: LogChanges)
        -> HistoryEvent?
    {
        let before = old.sectionOffset(titled: title)
        let after = new.sectionOffset(titled: title)
        var kinds: [HistoryEvent.Kind] = []
        switch (before, after) {
        case (nil, nil):
            return nil
        case (nil, .some):
            kinds = [.inserted]
        case (.some, nil):
            kinds = [.deleted]
        case (.some(let from), .some(let to)):
            if changes.movedSections.contains(where: { $0.from == from }) { kinds.append(.moved) }
            let summaryChanged = !literallyEqual(old.sections[from].summary, new.sections[to].summary)
            if summaryChanged || changes.updatedSections.contains(where: { $0.from == from }) {
                kinds.append(.updated)
            }
        }
        guard !kinds.isEmpty else { return nil }
        return HistoryEvent(
            revision: 0, millisecondsSince1970: 0, meta: [:], kinds: kinds, withSection: nil,
            before: before.map { HistoryEvent.Place(section: title, sectionIndex: $0, itemIndex: nil) },
            after: after.map { HistoryEvent.Place(section: title, sectionIndex: $0, itemIndex: nil) },
            summaryBefore: before.flatMap { old.sections[$0].summary },
            summaryAfter: after.flatMap { new.sections[$0].summary })
    }
}
