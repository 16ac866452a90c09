extension ListSnapshot {
    /// The number of sections.
    /// - Complexity: O(1).
    @inlinable
    public var sectionCount: Int { sections.count }

    /// The total number of items across all sections.
    /// - Complexity: O(1).
    public var itemCount: Int { pendingIndex?.itemCount ?? storedPathsByID.count }

    /// Whether the snapshot has no sections.
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { sections.isEmpty }

    /// The number of items in the section at `section`, or `nil` when there is no such section.
    /// - Complexity: O(1).
    public func itemCount(inSection section: Int) -> Int? {
        sections.indices.contains(section) ? sections[section].items.count : nil
    }

    /// The title of the section at `section`, or `nil` when there is no such section.
    /// - Complexity: O(1).
    public func title(ofSection section: Int) -> String? {
        sections.indices.contains(section) ? sections[section].title : nil
    }

    /// The offset of the section titled `title`, or `nil` when there is none.
    /// - Complexity: O(1) expected.
    public func sectionOffset(titled title: String) -> Int? {
        offsetsByTitle[LiteralKey(title)]
    }

    /// The item at `path`, or `nil` when `path` is outside the snapshot.
    /// - Complexity: O(1).
    public func item(at path: ItemPath) -> Item? {
        guard sections.indices.contains(path.section) else { return nil }
        let items = sections[path.section].items
        return items.indices.contains(path.item) ? items[path.item] : nil
    }

    /// The identifier at `path`, or `nil` when `path` is outside the snapshot.
    /// - Complexity: O(1).
    public func identifier(at path: ItemPath) -> ItemID? {
        item(at: path)?.id
    }

    /// The path of the item identified by `id`, or `nil` when it is not in the snapshot.
    /// - Complexity: O(1) expected; after edits in place, plus one step for each edit not yet
    ///   folded into the index (at most the larger of 32 and *n* / 1,024).
    public func path(of id: ItemID) -> ItemPath? {
        indexedPath(of: LiteralKey(id))
    }

    /// Whether the snapshot holds an item identified by `id`.
    /// - Complexity: That of ``path(of:)``.
    public func contains(_ id: ItemID) -> Bool {
        indexedPath(of: LiteralKey(id)) != nil
    }

    /// The number of items in each section, in section order.
    /// - Complexity: O(*s*), where *s* is the number of sections.
    public var itemCounts: [Int] {
        // A closure, not a key path: a key path through generic types is instantiated at run
        // time on each call, which costs more than the map over a few hundred sections.
        sections.map { $0.items.count }
    }

    /// Every identifier, in display order.
    /// - Complexity: O(*n*).
    public var identifiers: [ItemID] { sections.flatMap { $0.items.map { $0.id } } }
}
