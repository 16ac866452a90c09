import ChangeLog
import ListAdapter

/// Stored changes carried over to a candidate whose snapshots lost sections and items, or whose
/// strings were rewritten.
///
/// Every index and path is followed to what it names in the original snapshot (a title, an
/// identifier) and then to where that sits in the rewritten snapshot; operations on removed
/// sections and items go. A move or an update whose one end was removed (an item moving between a
/// kept and a removed section) becomes the deletion or insertion that the rewritten snapshots need.
/// An index or path past the end of the original snapshot stays past the end by the same amount,
/// so that changes that break a validity rule keep breaking it. An item update keeps its kind
/// (reconfigure or reload), since a renderer's failure can depend on it.
///
/// When the stored changes take the original old snapshot to the original new one, the projected
/// changes take the rewritten old snapshot to the rewritten new one.
struct ChangesProjection {
    let old: LogSnapshot
    let new: LogSnapshot
    let rewrittenOld: LogSnapshot
    let rewrittenNew: LogSnapshot
    let transform: SnapshotTransform

    /// Where an original path goes.
    private enum Place {
        case kept(ItemPath)
        case removed
    }

    private func sectionOffset(_ offset: Int, in original: LogSnapshot, _ rewritten: LogSnapshot) -> Int? {
        guard let title = original.title(ofSection: offset) else {
            return rewritten.sectionCount + (offset - original.sectionCount)
        }
        guard !transform.removesSection(title) else { return nil }
        return rewritten.sectionOffset(titled: transform.title(title))
    }

    private func place(_ path: ItemPath, in original: LogSnapshot, _ rewritten: LogSnapshot) -> Place {
        guard let section = sectionOffset(path.section, in: original, rewritten) else { return .removed }
        guard let count = original.itemCount(inSection: path.section) else {
            return .kept(ItemPath(section: section, item: path.item))
        }
        guard let id = original.identifier(at: path) else {
            return .kept(
                ItemPath(section: section, item: (rewritten.itemCount(inSection: section) ?? 0) + path.item - count))
        }
        guard !transform.removesItem(id), let rewrittenPath = rewritten.path(of: transform.id(id)) else {
            return .removed
        }
        return .kept(rewrittenPath)
    }

    private func insertion(at path: ItemPath) -> LogChanges.ItemInsertion? {
        guard let item = rewrittenNew.item(at: path) else { return nil }
        return LogChanges.ItemInsertion(at: path, id: item.id, summary: item.summary)
    }

    /// The projection of `changes`.
    /// - Complexity: O(*c*) expected, where *c* counts the operations.
    func project(_ changes: LogChanges) -> LogChanges {
        var result = LogChanges()
        result.deletedSections = changes.deletedSections.compactMap { sectionOffset($0, in: old, rewrittenOld) }
        for insertion in changes.insertedSections where !transform.removesSection(insertion.section.title) {
            guard let index = sectionOffset(insertion.index, in: new, rewrittenNew) else { continue }
            result.insertedSections.append(.init(index: index, section: transform.section(insertion.section)))
        }
        for move in changes.movedSections {
            guard let from = sectionOffset(move.from, in: old, rewrittenOld),
                let to = sectionOffset(move.to, in: new, rewrittenNew)
            else { continue }
            result.movedSections.append(.init(from: from, to: to))
        }
        // A section update keeps its stored summary, rewritten as the section's are (as item
        // updates do): a wrong stored summary stays wrong.
        for update in changes.updatedSections {
            guard let from = sectionOffset(update.from, in: old, rewrittenOld),
                let to = sectionOffset(update.to, in: new, rewrittenNew)
            else { continue }
            let title = new.title(ofSection: update.to) ?? old.title(ofSection: update.from) ?? ""
            result.updatedSections.append(
                .init(from: from, to: to, summary: transform.sectionSummary(of: title, update.summary)))
        }
        var deleted: [ItemPath] = []
        var inserted: [LogChanges.ItemInsertion] = []
        // Deletions and insertions that stand in for a half-removed move or update.
        var extraDeleted: [ItemPath] = []
        var extraInserted: [ItemPath] = []
        for path in changes.deletedItems {
            if case .kept(let path) = place(path, in: old, rewrittenOld) { deleted.append(path) }
        }
        for insertion in changes.insertedItems where !transform.removesItem(insertion.id) {
            guard case .kept(let path) = place(insertion.at, in: new, rewrittenNew) else { continue }
            let summary = transform.summary(of: insertion.id, insertion.summary)
            inserted.append(.init(at: path, id: transform.id(insertion.id), summary: summary))
        }
        for move in changes.movedItems {
            switch (place(move.from, in: old, rewrittenOld), place(move.to, in: new, rewrittenNew)) {
            case (.kept(let from), .kept(let to)): result.movedItems.append(.init(from: from, to: to))
            case (.kept(let from), .removed): extraDeleted.append(from)
            case (.removed, .kept(let to)): extraInserted.append(to)
            case (.removed, .removed): break
            }
        }
        for update in changes.updatedItems {
            switch (place(update.from, in: old, rewrittenOld), place(update.to, in: new, rewrittenNew)) {
            case (.kept(let from), .kept(let to)):
                let id = new.identifier(at: update.to) ?? old.identifier(at: update.from) ?? ""
                result.updatedItems.append(
                    .init(from: from, to: to, summary: transform.summary(of: id, update.summary), kind: update.kind))
            case (.kept(let from), .removed): extraDeleted.append(from)
            case (.removed, .kept(let to)): extraInserted.append(to)
            case (.removed, .removed): break
            }
        }
        var deletedSet = Set(deleted)
        for path in extraDeleted where deletedSet.insert(path).inserted { deleted.append(path) }
        var insertedSet = Set(inserted.map(\.at))
        for path in extraInserted where insertedSet.insert(path).inserted {
            if let insertion = insertion(at: path) { inserted.append(insertion) }
        }
        result.deletedItems = deleted.sorted { ($0.section, $0.item) < ($1.section, $1.item) }
        result.insertedItems = inserted.sorted { ($0.at.section, $0.at.item) < ($1.at.section, $1.at.item) }
        return result
    }
}
