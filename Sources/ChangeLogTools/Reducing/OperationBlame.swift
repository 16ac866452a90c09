import ChangeLog
import ListAdapter

/// The kind of operation a failing revision's failure comes from, so that a reduction keeps the
/// failure on the same kind of operation (a wrong move stays a wrong move).
///
/// Each operation says what it does to one section or item: a move from `[0, 1]` to `[0, 3]`
/// says that the item at `[0, 1]` of the previous snapshot is at `[0, 3]` of the new one. The
/// first operation whose claim the two snapshots contradict names the kind (`item move`, `section
/// delete`, …); when every operation agrees with them, the failure comes from an operation that
/// is missing (`missing item insert`, …) or from operations that are only wrong together
/// (`unattributed`).
enum OperationBlame {
    /// The kind of operation of `changes` that takes `old` elsewhere than to `new`.
    /// - Complexity: O(*n* + *c*), where *n* counts the items of both snapshots and *c* the
    ///   operations.
    static func kind(of changes: LogChanges, from old: LogSnapshot, to new: LogSnapshot) -> String {
        if let kind = sectionKind(of: changes, from: old, to: new) { return kind }
        if let kind = itemKind(of: changes, from: old, to: new) { return kind }
        return "unattributed"
    }

    private static func title(_ snapshot: LogSnapshot, _ index: Int) -> String? {
        snapshot.sections.indices.contains(index) ? snapshot.sections[index].title : nil
    }

    private static func item(_ snapshot: LogSnapshot, _ path: ItemPath) -> LogSnapshot.Item? {
        guard snapshot.sections.indices.contains(path.section) else { return nil }
        let items = snapshot.sections[path.section].items
        return items.indices.contains(path.item) ? items[path.item] : nil
    }

    private static func id(_ snapshot: LogSnapshot, _ path: ItemPath) -> String? { item(snapshot, path)?.id }

    private static func sectionKind(of changes: LogChanges, from old: LogSnapshot, to new: LogSnapshot) -> String? {
        let oldTitles = Set(old.sections.map(\.title))
        let newTitles = Set(new.sections.map(\.title))
        let inserted = Set(changes.insertedSections.map(\.section.title))
        for index in changes.deletedSections {
            guard let title = title(old, index), !newTitles.contains(title) || inserted.contains(title) else {
                return "section delete"
            }
        }
        for insertion in changes.insertedSections
        where !new.sections.indices.contains(insertion.index) || new.sections[insertion.index] != insertion.section {
            return "section insert"
        }
        for move in changes.movedSections
        where title(old, move.from) == nil || title(old, move.from) != title(new, move.to) {
            return "section move"
        }
        for update in changes.updatedSections
        where title(old, update.from) == nil || title(old, update.from) != title(new, update.to)
            || new.sections[update.to].summary != update.summary
        {
            return "section update"
        }
        let deleted = Set(changes.deletedSections.compactMap { title(old, $0) })
        if !newTitles.subtracting(oldTitles).subtracting(inserted).isEmpty { return "missing section insert" }
        if !oldTitles.subtracting(newTitles).subtracting(deleted).isEmpty { return "missing section delete" }
        return nil
    }

    private static func itemKind(of changes: LogChanges, from old: LogSnapshot, to new: LogSnapshot) -> String? {
        let oldIDs = Set(old.sections.lazy.flatMap { $0.items.lazy.map(\.id) })
        let newIDs = Set(new.sections.lazy.flatMap { $0.items.lazy.map(\.id) })
        let inserted = Set(changes.insertedItems.map(\.id))
        for path in changes.deletedItems {
            guard let id = id(old, path), !newIDs.contains(id) || inserted.contains(id) else { return "item delete" }
        }
        for insertion in changes.insertedItems
        where item(new, insertion.at) != LogSnapshot.Item(id: insertion.id, summary: insertion.summary) {
            return "item insert"
        }
        for move in changes.movedItems where id(old, move.from) == nil || id(old, move.from) != id(new, move.to) {
            return "item move"
        }
        for update in changes.updatedItems
        where id(old, update.from) == nil || id(old, update.from) != id(new, update.to)
            || item(new, update.to)?.summary != update.summary
        {
            return "item update"
        }
        let deleted = Set(changes.deletedItems.compactMap { id(old, $0) })
        if !newIDs.subtracting(oldIDs).subtracting(inserted).isEmpty { return "missing item insert" }
        if !oldIDs.subtracting(newIDs).subtracting(deleted).isEmpty { return "missing item delete" }
        return nil
    }
}
