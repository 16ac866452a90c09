// The interchange format's validity rules, checked in one place. `ListSnapshot.applying(_:)` renders a
// violation as a `ListChangesError`; `StrictListView` renders the same violation as a
// `BatchUpdateError` in UIKit's words. One rule set, two renderings.

/// The first validity rule of the interchange format that a ``ListChanges`` value breaks, with the values
/// needed to explain it.
///
/// "Old" means *O*, the snapshot before the changes (deletions, the `from` of moves and
/// updates); "new" means *N*, the snapshot after them (insertions, the `to` of moves and
/// updates).
package enum ListChangesViolation: Hashable, Sendable {
    /// The part an index or path plays in the changes.
    package enum Role: Hashable, Sendable {
        /// In `deleted` (an *O* index or path).
        case deleted
        /// In `inserted` (an *N* index or path).
        case inserted
        /// The `from` of a move (an *O* index or path).
        case movedFrom
        /// The `to` of a move (an *N* index or path).
        case movedTo
        /// The `from` of an update (an *O* path).
        case updatedFrom
        /// The `to` of an update (an *N* path).
        case updatedTo
    }

    /// A section index outside *O* (`deleted`, `movedFrom`) or outside *N* (`inserted`,
    /// `movedTo`); `count` is that snapshot's section count, `counterpart` the other end of a move.
    case sectionOutOfBounds(Role, index: Int, count: Int, counterpart: Int?)
    /// An *O* section index listed twice across deleted and moved-from, or an *N* one listed
    /// twice across inserted and moved-to.
    case sectionListedTwice(first: Role, second: Role, index: Int)
    /// The new section count is not the old one minus deletions plus insertions (only when the
    /// new counts are given, as a data source reports them).
    case sectionCountMismatch(before: Int, after: Int, inserted: Int, deleted: Int)
    /// An item path whose section is outside *O* or *N*; `sectionCount` is that snapshot's.
    case itemSectionOutOfBounds(Role, path: ItemPath, sectionCount: Int, counterpart: ItemPath?)
    /// An item path past the end of its section in *O* or *N*; `itemCount` is that section's size.
    case itemOutOfBounds(Role, path: ItemPath, itemCount: Int, counterpart: ItemPath?)
    /// An *O* item path inside a deleted section.
    case itemInDeletedSection(Role, path: ItemPath)
    /// An *N* item path inside an inserted section.
    case itemInInsertedSection(Role, path: ItemPath)
    /// An *O* path listed twice across deleted and moved-from (or two updates from one path),
    /// or an *N* path listed twice across inserted and moved-to (or two updates to one path).
    case itemListedTwice(first: Role, second: Role, path: ItemPath)
    /// A surviving section's new size is not its old size minus deletions and moves out plus
    /// insertions and moves in (only when the new counts are given). `section` is its *N* offset.
    case itemCountMismatch(
        section: Int, before: Int, after: Int, inserted: Int, deleted: Int, movedIn: Int, movedOut: Int)
    /// An update from an *O* path that is also deleted.
    case updatedItemDeleted(path: ItemPath)
    /// An update to an *N* path where an item is also inserted.
    case updatedItemInserted(path: ItemPath)
    /// An update of an item that also moves in the same batch (refused in UIKit-strict mode only).
    case updatedItemMoved(from: ItemPath, to: ItemPath)
    /// An update of an item whose section moves in the same batch (refused in UIKit-strict mode
    /// only); `sectionTo` is the section's *N* offset.
    case updatedItemInMovedSection(from: ItemPath, to: ItemPath, sectionTo: Int)
    /// A section update from an *O* index that is also deleted.
    case updatedSectionDeleted(index: Int)
    /// A section update to an *N* index where a section is also inserted.
    case updatedSectionInserted(index: Int)
    /// An update of a section that also moves in the same batch (refused in UIKit-strict mode only).
    case updatedSectionMoved(from: Int, to: Int)
}

/// Where each section of *O* goes in *N* and where each section of *N* comes from, following
/// The interchange format's step 2. Only meaningful for changes whose section operations are valid.
struct SectionPlacement {
    /// For each *N* offset, the *O* offset of the section there, or -1 for an inserted section.
    var oldOffsetOfNew: [Int]
    /// For each *N* offset, the index in `insertedSections` of the section there, or -1.
    var insertionOfNew: [Int]
    /// For each *O* offset, the *N* offset of the section, or -1 for a deleted section.
    var newOffsetOfOld: [Int]
}

extension ListChanges {
    /// Places the sections as the interchange format's step 2 does: inserted sections at their index, moved
    /// ones at their `to`, the other survivors in the free slots in their *O* order.
    ///
    /// Requires section operations that passed ``violation(oldItemCounts:newItemCounts:refusingUpdatesOfMovedItems:)``.
    /// - Complexity: O(*s* + *c*), where *s* counts the sections and *c* the section operations.
    func sectionPlacement(oldSectionCount: Int) -> SectionPlacement {
        let newSectionCount = oldSectionCount - deletedSections.count + insertedSections.count
        var placement = SectionPlacement(
            oldOffsetOfNew: Array(repeating: -1, count: newSectionCount),
            insertionOfNew: Array(repeating: -1, count: newSectionCount),
            newOffsetOfOld: Array(repeating: -1, count: oldSectionCount))
        var taken = [Bool](repeating: false, count: newSectionCount)
        var removed = [Bool](repeating: false, count: oldSectionCount)
        for (position, insertion) in insertedSections.enumerated() {
            taken[insertion.index] = true
            placement.insertionOfNew[insertion.index] = position
        }
        for index in deletedSections { removed[index] = true }
        for move in movedSections {
            taken[move.to] = true
            removed[move.from] = true
            placement.oldOffsetOfNew[move.to] = move.from
            placement.newOffsetOfOld[move.from] = move.to
        }
        var slot = 0
        for old in 0..<oldSectionCount where !removed[old] {
            while taken[slot] { slot += 1 }
            placement.oldOffsetOfNew[slot] = old
            placement.newOffsetOfOld[old] = slot
            slot += 1
        }
        return placement
    }

    /// The first validity rule of the interchange format that these changes break when applied to a snapshot
    /// with `oldItemCounts`, or `nil` when they are valid.
    ///
    /// The rules: every *O* index or path is inside *O* and every *N* index or path inside the
    /// result; no *O* index or path appears twice across deleted and moved-from, no *N* one twice
    /// across inserted and moved-to; no item path lies in a deleted (*O* side) or inserted
    /// (*N* side) section; an updated item is neither deleted nor inserted, an updated section
    /// neither deleted nor inserted, and no two item updates (no two section updates) share a
    /// `from` or a `to`. With `refusingUpdatesOfMovedItems`, as UIKit: no update of an item, or
    /// of a section, that also moves, and none of an item whose section moves (the UIKit rules of
    /// ``ListChanges/stagedForUIKit()``).
    ///
    /// - Parameters:
    ///   - oldItemCounts: the number of items in each section of *O*.
    ///   - newItemCounts: the number of items in each section of the result, as a data source
    ///     reports them. When given, the section and item counts must also balance as
    ///     `UITableView` requires; when `nil`, the result's counts are derived from the changes
    ///     (the interchange format's steps 2 and 3), as ``ListSnapshot/applying(_:)`` needs.
    ///   - refusingUpdatesOfMovedItems: whether an update of a moved item or section, or of an
    ///     item in a moved section, is a violation.
    /// - Complexity: O(*s* + *c*) expected, where *s* counts the sections of both snapshots and
    ///   *c* the operations.
    @_specialize(exported:true,where ItemID == String, Summary == String, SectionSummary == String)
    package func violation(
        oldItemCounts: [Int], newItemCounts: [Int]? = nil, refusingUpdatesOfMovedItems: Bool = false
    ) -> ListChangesViolation? {
        typealias Role = ListChangesViolation.Role

        // Sections, O side.
        let oldSectionCount = oldItemCounts.count
        var oldSectionRoles = [Role?](repeating: nil, count: oldSectionCount)
        for index in deletedSections {
            guard (0..<oldSectionCount).contains(index) else {
                return .sectionOutOfBounds(.deleted, index: index, count: oldSectionCount, counterpart: nil)
            }
            if let first = oldSectionRoles[index] {
                return .sectionListedTwice(first: first, second: .deleted, index: index)
            }
            oldSectionRoles[index] = .deleted
        }
        for move in movedSections {
            guard (0..<oldSectionCount).contains(move.from) else {
                return .sectionOutOfBounds(.movedFrom, index: move.from, count: oldSectionCount, counterpart: move.to)
            }
            if let first = oldSectionRoles[move.from] {
                return .sectionListedTwice(first: first, second: .movedFrom, index: move.from)
            }
            oldSectionRoles[move.from] = .movedFrom
        }

        // Section count.
        let derivedSectionCount = oldSectionCount - deletedSections.count + insertedSections.count
        let newSectionCount = newItemCounts?.count ?? derivedSectionCount
        if newSectionCount != derivedSectionCount {
            return .sectionCountMismatch(
                before: oldSectionCount, after: newSectionCount,
                inserted: insertedSections.count, deleted: deletedSections.count)
        }

        // Sections, N side.
        var newSectionRoles = [Role?](repeating: nil, count: newSectionCount)
        for insertion in insertedSections {
            guard (0..<newSectionCount).contains(insertion.index) else {
                return .sectionOutOfBounds(.inserted, index: insertion.index, count: newSectionCount, counterpart: nil)
            }
            if let first = newSectionRoles[insertion.index] {
                return .sectionListedTwice(first: first, second: .inserted, index: insertion.index)
            }
            newSectionRoles[insertion.index] = .inserted
        }
        for move in movedSections {
            guard (0..<newSectionCount).contains(move.to) else {
                return .sectionOutOfBounds(.movedTo, index: move.to, count: newSectionCount, counterpart: move.from)
            }
            if let first = newSectionRoles[move.to] {
                return .sectionListedTwice(first: first, second: .movedTo, index: move.to)
            }
            newSectionRoles[move.to] = .movedTo
        }

        // Section updates: inside O and N, neither deleted nor inserted, at most once each side.
        var updatedSectionFrom = Set<Int>(minimumCapacity: updatedSections.count)
        var updatedSectionTo = Set<Int>(minimumCapacity: updatedSections.count)
        for update in updatedSections {
            guard (0..<oldSectionCount).contains(update.from) else {
                return .sectionOutOfBounds(
                    .updatedFrom, index: update.from, count: oldSectionCount, counterpart: update.to)
            }
            guard updatedSectionFrom.insert(update.from).inserted else {
                return .sectionListedTwice(first: .updatedFrom, second: .updatedFrom, index: update.from)
            }
            switch oldSectionRoles[update.from] {
            case .deleted: return .updatedSectionDeleted(index: update.from)
            case .movedFrom where refusingUpdatesOfMovedItems:
                return .updatedSectionMoved(from: update.from, to: update.to)
            default: break
            }
            guard (0..<newSectionCount).contains(update.to) else {
                return .sectionOutOfBounds(
                    .updatedTo, index: update.to, count: newSectionCount, counterpart: update.from)
            }
            guard updatedSectionTo.insert(update.to).inserted else {
                return .sectionListedTwice(first: .updatedTo, second: .updatedTo, index: update.to)
            }
            if newSectionRoles[update.to] == .inserted { return .updatedSectionInserted(index: update.to) }
        }
        let placement = sectionPlacement(oldSectionCount: oldSectionCount)

        // Items, O side: inside O, outside deleted sections, at most once.
        func checkOld(_ path: ItemPath, _ role: Role, counterpart: ItemPath?) -> ListChangesViolation? {
            guard (0..<oldSectionCount).contains(path.section) else {
                return .itemSectionOutOfBounds(
                    role, path: path, sectionCount: oldSectionCount, counterpart: counterpart)
            }
            if oldSectionRoles[path.section] == .deleted { return .itemInDeletedSection(role, path: path) }
            let itemCount = oldItemCounts[path.section]
            guard (0..<itemCount).contains(path.item) else {
                return .itemOutOfBounds(role, path: path, itemCount: itemCount, counterpart: counterpart)
            }
            return nil
        }
        var removedPaths: [ItemPath: Role] = [:]
        removedPaths.reserveCapacity(deletedItems.count + movedItems.count)
        for path in deletedItems {
            if let violation = checkOld(path, .deleted, counterpart: nil) { return violation }
            if let first = removedPaths.updateValue(.deleted, forKey: path) {
                return .itemListedTwice(first: first, second: .deleted, path: path)
            }
        }
        for move in movedItems {
            if let violation = checkOld(move.from, .movedFrom, counterpart: move.to) { return violation }
            if let first = removedPaths.updateValue(.movedFrom, forKey: move.from) {
                return .itemListedTwice(first: first, second: .movedFrom, path: move.from)
            }
        }
        var updatedFrom = Set<ItemPath>(minimumCapacity: updatedItems.count)
        for update in updatedItems {
            if let violation = checkOld(update.from, .updatedFrom, counterpart: update.to) { return violation }
            guard updatedFrom.insert(update.from).inserted else {
                return .itemListedTwice(first: .updatedFrom, second: .updatedFrom, path: update.from)
            }
            switch removedPaths[update.from] {
            case .deleted: return .updatedItemDeleted(path: update.from)
            case .movedFrom where refusingUpdatesOfMovedItems:
                return .updatedItemMoved(from: update.from, to: update.to)
            default: break
            }
            if refusingUpdatesOfMovedItems, oldSectionRoles[update.from.section] == .movedFrom {
                return .updatedItemInMovedSection(
                    from: update.from, to: update.to, sectionTo: placement.newOffsetOfOld[update.from.section])
            }
        }

        // Items, N side, sections first: inside N, outside inserted sections.
        func checkNewSection(_ path: ItemPath, _ role: Role, counterpart: ItemPath?) -> ListChangesViolation? {
            guard (0..<newSectionCount).contains(path.section) else {
                return .itemSectionOutOfBounds(
                    role, path: path, sectionCount: newSectionCount, counterpart: counterpart)
            }
            if newSectionRoles[path.section] == .inserted { return .itemInInsertedSection(role, path: path) }
            return nil
        }
        for insertion in insertedItems {
            if let violation = checkNewSection(insertion.at, .inserted, counterpart: nil) { return violation }
        }
        for move in movedItems {
            if let violation = checkNewSection(move.to, .movedTo, counterpart: move.from) { return violation }
        }
        for update in updatedItems {
            if let violation = checkNewSection(update.to, .updatedTo, counterpart: update.from) { return violation }
        }

        // Item counts: what stays plus what arrives (the interchange format's step 3).
        var deletedIn = [Int](repeating: 0, count: oldSectionCount)
        var movedOut = [Int](repeating: 0, count: oldSectionCount)
        var insertedIn = [Int](repeating: 0, count: newSectionCount)
        var movedIn = [Int](repeating: 0, count: newSectionCount)
        for path in deletedItems { deletedIn[path.section] += 1 }
        for insertion in insertedItems { insertedIn[insertion.at.section] += 1 }
        for move in movedItems where placement.newOffsetOfOld[move.from.section] != move.to.section {
            movedOut[move.from.section] += 1
            movedIn[move.to.section] += 1
        }
        var resultItemCounts = [Int](repeating: 0, count: newSectionCount)
        for section in 0..<newSectionCount {
            let old = placement.oldOffsetOfNew[section]
            guard old >= 0 else {
                resultItemCounts[section] = insertedSections[placement.insertionOfNew[section]].section.items.count
                continue
            }
            let expected = oldItemCounts[old] - deletedIn[old] - movedOut[old] + insertedIn[section] + movedIn[section]
            if let newItemCounts, newItemCounts[section] != expected {
                return .itemCountMismatch(
                    section: section, before: oldItemCounts[old], after: newItemCounts[section],
                    inserted: insertedIn[section], deleted: deletedIn[old],
                    movedIn: movedIn[section], movedOut: movedOut[old])
            }
            resultItemCounts[section] = expected
        }

        // Items, N side: inside their section of the result, at most once.
        func checkNew(_ path: ItemPath, _ role: Role, counterpart: ItemPath?) -> ListChangesViolation? {
            let itemCount = resultItemCounts[path.section]
            guard (0..<itemCount).contains(path.item) else {
                return .itemOutOfBounds(role, path: path, itemCount: itemCount, counterpart: counterpart)
            }
            return nil
        }
        var addedPaths: [ItemPath: Role] = [:]
        addedPaths.reserveCapacity(insertedItems.count + movedItems.count)
        for insertion in insertedItems {
            if let violation = checkNew(insertion.at, .inserted, counterpart: nil) { return violation }
            if let first = addedPaths.updateValue(.inserted, forKey: insertion.at) {
                return .itemListedTwice(first: first, second: .inserted, path: insertion.at)
            }
        }
        for move in movedItems {
            if let violation = checkNew(move.to, .movedTo, counterpart: move.from) { return violation }
            if let first = addedPaths.updateValue(.movedTo, forKey: move.to) {
                return .itemListedTwice(first: first, second: .movedTo, path: move.to)
            }
        }
        var updatedTo = Set<ItemPath>(minimumCapacity: updatedItems.count)
        for update in updatedItems {
            if let violation = checkNew(update.to, .updatedTo, counterpart: update.from) { return violation }
            guard updatedTo.insert(update.to).inserted else {
                return .itemListedTwice(first: .updatedTo, second: .updatedTo, path: update.to)
            }
            if addedPaths[update.to] == .inserted { return .updatedItemInserted(path: update.to) }
        }
        return nil
    }

    /// Splits these changes into a batch that `UITableView` accepts and the updates it must get
    /// afterwards: UIKit refuses to reload an item, or a section, that moves in the same batch,
    /// and mis-applies the reload of a row whose section moves.
    ///
    /// `batch` is these changes without the updates of moved items, of items in moved sections
    /// and of moved sections. Each of those item updates becomes a reconfigure in `reconfigures`,
    /// at the item's *N* path (`from` and `to` are both that path), to deliver after the batch
    /// (`reconfigureRows(at:)`); each update of a moved section becomes a header reload in
    /// `sectionReloads`, at the section's *N* offset (`from` and `to` are both that offset,
    /// `reloadSections(_:)`). As a change list, `ListChanges(updatedSections: sectionReloads,
    /// updatedItems: reconfigures)` takes the batch's result to *N*. Applying `batch` and then
    /// those gives what applying these changes gives. The split ignores ``ItemUpdate/kind`` and
    /// keeps the updates of sections that stay in the batch; ``stagedForUIKit()`` honours kinds
    /// and delivers every section update after the first batch.
    ///
    /// - Complexity: O(*c*) expected, where *c* is the number of operations.
    public func splitForUIKit() -> (batch: ListChanges, reconfigures: [ItemUpdate], sectionReloads: [SectionUpdate]) {
        var batch = self
        var reconfigures: [ItemUpdate] = []
        var sectionReloads: [SectionUpdate] = []
        if !movedItems.isEmpty || !movedSections.isEmpty, !updatedItems.isEmpty {
            let movedFrom = Set(movedItems.map(\.from))
            let movedSectionsFrom = Set(movedSections.map(\.from))
            batch.updatedItems = []
            for update in updatedItems {
                if movedFrom.contains(update.from) || movedSectionsFrom.contains(update.from.section) {
                    reconfigures.append(ItemUpdate(from: update.to, to: update.to, summary: update.summary))
                } else {
                    batch.updatedItems.append(update)
                }
            }
        }
        if !movedSections.isEmpty, !updatedSections.isEmpty {
            let movedFrom = Set(movedSections.map(\.from))
            batch.updatedSections = []
            for update in updatedSections {
                if movedFrom.contains(update.from) {
                    sectionReloads.append(SectionUpdate(from: update.to, to: update.to, summary: update.summary))
                } else {
                    batch.updatedSections.append(update)
                }
            }
        }
        return (batch, reconfigures, sectionReloads)
    }
}
