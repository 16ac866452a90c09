/// What has been edited in a snapshot since the snapshot it was edited from (its base): the
/// identifiers whose place changed, the ones whose summary was set, the section titles whose
/// summary was set, and whether sections were inserted, deleted or moved.
///
/// ``ListSnapshot/changes(editedFrom:)`` reads it to find the changes from the base by looking
/// only at what was edited. Invariants: `base` holds no journal of its own; every identifier of
/// an item that was inserted, deleted or moved (by an item edit or with its section) is in
/// `placedItems`; every identifier whose summary was set is in `updateKinds`; every title whose
/// summary was set is in `updatedTitles`; `sectionsRestructured` is `true` once a section was
/// inserted, deleted or moved.
///
/// A journal belongs to one snapshot value: when a snapshot is copied and the copy is edited,
/// the copy starts a journal of its own from the snapshot as it was (`token` tells the two
/// apart), so the edits it records are always from a snapshot someone still holds.
@usableFromInline
package struct ListEditJournal<
    ItemID: Hashable & Sendable, Summary: Hashable & Sendable, SectionSummary: Hashable & Sendable
>: Sendable {
    /// The snapshot the edits start from, without its own journal, shared by reference.
    @usableFromInline
    final class Base: Sendable {
        @usableFromInline let snapshot: ListSnapshot<ItemID, Summary, SectionSummary>

        @usableFromInline
        init(_ snapshot: ListSnapshot<ItemID, Summary, SectionSummary>) {
            self.snapshot = snapshot
        }
    }

    /// Held by the one snapshot value that owns the journal: a copy of it shares the token, so a
    /// shared token means the journal must not grow in place.
    @usableFromInline
    final class Token: Sendable {
        @usableFromInline init() {}
    }

    /// The snapshot the edits start from.
    @usableFromInline var base: Base
    /// Tells whether the journal's snapshot value was copied.
    @usableFromInline var token = Token()
    /// The items inserted, deleted or moved, by themselves or with their section.
    @usableFromInline var placedItems: Set<LiteralKey<ItemID>> = []
    /// The items whose summary was set, with the kind of update asked for (a reload wins).
    @usableFromInline var updateKinds: [LiteralKey<ItemID>: ItemUpdateKind] = [:]
    /// The sections whose summary was set.
    @usableFromInline var updatedTitles: Set<LiteralKey<String>> = []
    /// Whether a section was inserted, deleted or moved.
    @usableFromInline var sectionsRestructured = false

    /// A journal of no edits from `base`, whose own journal is dropped.
    /// - Complexity: O(1).
    @usableFromInline
    init(base: ListSnapshot<ItemID, Summary, SectionSummary>) {
        var base = base
        base.editJournal = nil
        self.base = Base(base)
    }

    /// Whether `snapshot` is this journal's base: the same section storage, hence the same
    /// sections, items and summaries.
    /// - Complexity: O(1).
    @usableFromInline
    func isBase(_ snapshot: ListSnapshot<ItemID, Summary, SectionSummary>) -> Bool {
        let own = base.snapshot.sections
        return own.count == snapshot.sections.count
            && own.withUnsafeBufferPointer { own in
                snapshot.sections.withUnsafeBufferPointer { $0.baseAddress == own.baseAddress }
            }
    }

    /// Records that the item identified by `key` was inserted, deleted or moved.
    /// - Complexity: O(1) amortised.
    @usableFromInline
    mutating func place(_ key: LiteralKey<ItemID>) {
        placedItems.insert(key)
    }

    /// Records that the summary of the item identified by `key` was set, shown as `kind`.
    /// - Complexity: O(1) amortised.
    @usableFromInline
    mutating func update(_ key: LiteralKey<ItemID>, kind: ItemUpdateKind) {
        if updateKinds[key] != .reload { updateKinds[key] = kind }
    }
}

extension ListSnapshot {
    /// Readies the journal for one more edit: starts one from this snapshot as it is when it has
    /// none, or when its journal is shared with a copy (the copy keeps the old one).
    /// - Complexity: O(1).
    @usableFromInline
    mutating func beginEdit() {
        if editJournal != nil, isKnownUniquelyReferenced(&editJournal!.token) { return }
        editJournal = ListEditJournal(base: self)
    }
}
