import Synchronization

/// The index of an edited snapshot, kept without rewriting the entries of the items the edits
/// shifted: the stored index as it was before the edits, the shifts the edits made (in order),
/// and the entries of the items they touched. An item's path is its stored entry, or its
/// touched entry, carried through the shifts made after it.
///
/// Invariants: `touched[key].after <= shifts.count`; for an item the edits did not touch, its
/// stored entry carried through every shift is its path; for a touched item, its entry's path
/// (`nil` once deleted) carried through the shifts from `after` on is its path; `itemCount` is
/// the number of items. The snapshot folds the shifts into a fresh stored index once there
/// are more than ``limit(itemCount:)`` of them, so a lookup costs O(that limit) at most.
@usableFromInline
package struct PendingIndex<ItemID: Hashable & Sendable>: Sendable {
    /// One change of the item paths that follow a place.
    @usableFromInline
    enum Shift: Sendable {
        /// `count` items were inserted at `at`: the items from there on in its section move down.
        case insertedItems(at: ItemPath, count: Int)
        /// The item at `at` was removed: the items after it in its section move up.
        case removedItem(at: ItemPath)
        /// `count` sections were inserted at `offset`: the sections from there on move down.
        case insertedSections(at: Int, count: Int)
        /// The section at `offset` was removed: the sections after it move up.
        case removedSection(at: Int)
        /// The section at `from` was moved to `to`.
        case movedSection(from: Int, to: Int)

        /// Where `path` is after this shift, for an item this shift did not insert or remove.
        @usableFromInline
        func carry(_ path: ItemPath) -> ItemPath {
            var path = path
            switch self {
            case .insertedItems(let at, let count):
                if path.section == at.section, path.item >= at.item { path.item += count }
            case .removedItem(let at):
                if path.section == at.section, path.item > at.item { path.item -= 1 }
            case .insertedSections(let offset, let count):
                if path.section >= offset { path.section += count }
            case .removedSection(let offset):
                if path.section > offset { path.section -= 1 }
            case .movedSection(let from, let to):
                if path.section == from {
                    path.section = to
                } else {
                    if path.section > from { path.section -= 1 }
                    if path.section >= to { path.section += 1 }
                }
            }
            return path
        }
    }

    /// The entry of an item an edit touched: its path (`nil` when deleted) once the first
    /// `after` shifts were made.
    @usableFromInline
    struct Touch: Sendable {
        @usableFromInline var path: ItemPath?
        @usableFromInline var after: Int
    }

    /// The index with the shifts folded in, built once on first need and kept.
    @usableFromInline
    final class Folded: Sendable {
        @usableFromInline let index = Mutex<IdentifierIndex<ItemID>?>(nil)
        @usableFromInline init() {}
    }

    /// The shifts, in the order the edits made them.
    @usableFromInline var shifts: [Shift] = []
    /// The items the edits touched, by identifier.
    @usableFromInline var touched: [LiteralKey<ItemID>: Touch] = [:]
    /// The number of items.
    @usableFromInline var itemCount: Int
    /// The folded index, for readers that need the whole dictionary; replaced on every change.
    @usableFromInline var folded = Folded()

    /// No shifts yet, over a stored index of `itemCount` entries.
    @usableFromInline
    init(itemCount: Int) {
        self.itemCount = itemCount
    }

    /// How many shifts a snapshot of `itemCount` items keeps pending before it folds them.
    /// - Complexity: O(1).
    @usableFromInline
    static func limit(itemCount: Int) -> Int {
        max(32, itemCount / 1_024)
    }

    /// The path of the item identified by `key`, given the stored index.
    /// - Complexity: O(*p*) expected, where *p* is the number of pending shifts.
    @usableFromInline
    func path(of key: LiteralKey<ItemID>, stored: IdentifierIndex<ItemID>) -> ItemPath? {
        var path: ItemPath
        var first: Int
        if let touch = touched[key] {
            guard let touchedPath = touch.path else { return nil }
            path = touchedPath
            first = touch.after
        } else {
            guard let storedPath = stored[key] else { return nil }
            path = storedPath
            first = 0
        }
        while first < shifts.count {
            path = shifts[first].carry(path)
            first += 1
        }
        return path
    }

    /// Records a shift.
    @usableFromInline
    mutating func shift(_ shift: Shift) {
        shifts.append(shift)
        folded = Folded()
    }

    /// Records that the item identified by `key` is now at `path` (`nil`: deleted).
    @usableFromInline
    mutating func touch(_ key: LiteralKey<ItemID>, at path: ItemPath?) {
        touched[key] = Touch(path: path, after: shifts.count)
        folded = Folded()
    }
}
