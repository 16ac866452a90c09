/// The operations that take an old snapshot *O* to a new snapshot *N*, in the batch semantics of
/// `UITableView.performBatchUpdates` and `UICollectionView.performBatchUpdates`.
///
/// Everything that removes (deletions, the `from` of moves and updates) refers to *O*'s
/// coordinates; everything that adds (insertions, the `to` of moves and updates) refers to *N*'s.
/// Sections are identified by title, items by identifier. ``ListSnapshot/applying(_:)`` is the
/// reference meaning of these operations (the README's interchange format, "Applying changes").
public struct ListChanges<
    ItemID: Hashable & Sendable, Summary: Hashable & Sendable, SectionSummary: Hashable & Sendable
>: Hashable, Sendable {
    /// The snapshot's section type.
    public typealias Section = ListSnapshot<ItemID, Summary, SectionSummary>.Section

    /// A section that appears, at its offset in *N*, with all of its items.
    public struct SectionInsertion: Hashable, Sendable {
        /// The section's offset in *N*.
        public var index: Int
        /// The inserted section with its full item list.
        public var section: Section

        /// Creates a section insertion.
        /// - Complexity: O(1).
        @inlinable
        public init(index: Int, section: Section) {
            self.index = index
            self.section = section
        }
    }

    /// A section present in both snapshots whose relative order changed.
    public struct SectionMove: Hashable, Sendable {
        /// The section's offset in *O*.
        public var from: Int
        /// The section's offset in *N*.
        public var to: Int

        /// Creates a section move.
        /// - Complexity: O(1).
        @inlinable
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// A section present in both snapshots whose summary changed (appeared, disappeared or
    /// differs).
    public struct SectionUpdate: Hashable, Sendable {
        /// The section's offset in *O*.
        public var from: Int
        /// The section's offset in *N*.
        public var to: Int
        /// The new section summary (`nil` when the new snapshot has none).
        public var summary: SectionSummary?

        /// Creates a section update.
        /// - Complexity: O(1).
        @inlinable
        public init(from: Int, to: Int, summary: SectionSummary?) {
            self.from = from
            self.to = to
            self.summary = summary
        }

        /// Equal when the offsets are and the summaries are, strings compared by their Unicode
        /// scalars, as snapshots compare them.
        /// - Complexity: O(1), plus O(*l*) for a string summary of length *l*.
        @inlinable
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.from == rhs.from && lhs.to == rhs.to && literallyEqual(lhs.summary, rhs.summary)
        }

        /// Hashes the offsets and the summary, consistently with `==`.
        /// - Complexity: O(1), plus O(*l*) for a string summary of length *l*.
        @inlinable
        public func hash(into hasher: inout Hasher) {
            hasher.combine(from)
            hasher.combine(to)
            hashLiterally(summary, into: &hasher)
        }
    }

    /// An item that arrives in a surviving section.
    public struct ItemInsertion: Hashable, Sendable {
        /// The item's path in *N*.
        public var at: ItemPath
        /// The item's identifier.
        public var id: ItemID
        /// The item's summary, or `nil` for none.
        public var summary: Summary?

        /// Creates an item insertion.
        /// - Complexity: O(1).
        @inlinable
        public init(at: ItemPath, id: ItemID, summary: Summary?) {
            self.at = at
            self.id = id
            self.summary = summary
        }

        /// Equal when the paths are and the identifiers and summaries are, strings compared by
        /// their Unicode scalars, as snapshots compare them.
        /// - Complexity: O(1), plus O(*l*) for strings of length *l*.
        @inlinable
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.at == rhs.at && literallyEqual(lhs.id, rhs.id) && literallyEqual(lhs.summary, rhs.summary)
        }

        /// Hashes the path, the identifier and the summary, consistently with `==`.
        /// - Complexity: O(1), plus O(*l*) for strings of length *l*.
        @inlinable
        public func hash(into hasher: inout Hasher) {
            hasher.combine(at)
            hashLiterally(id, into: &hasher)
            hashLiterally(summary, into: &hasher)
        }
    }

    /// An item that moves to another section, or whose relative order in its section changed.
    public struct ItemMove: Hashable, Sendable {
        /// The item's path in *O*.
        public var from: ItemPath
        /// The item's path in *N*.
        public var to: ItemPath

        /// Creates an item move.
        /// - Complexity: O(1).
        @inlinable
        public init(from: ItemPath, to: ItemPath) {
            self.from = from
            self.to = to
        }
    }

    /// An item present in both snapshots whose summary changed.
    public struct ItemUpdate: Hashable, Sendable {
        /// The item's path in *O*.
        public var from: ItemPath
        /// The item's path in *N*.
        public var to: ItemPath
        /// The new summary (`nil` when the new snapshot has none).
        public var summary: Summary?
        /// How a renderer shows the change: ``ItemUpdateKind/reconfigure`` (the default) or
        /// ``ItemUpdateKind/reload``. Applying changes ignores it; the interchange format writes
        /// `"reload": true` for a reload and nothing for a reconfigure.
        public var kind: ItemUpdateKind

        /// Creates an item update, a reconfigure unless `kind` says otherwise.
        /// - Complexity: O(1).
        @inlinable
        public init(from: ItemPath, to: ItemPath, summary: Summary?, kind: ItemUpdateKind = .reconfigure) {
            self.from = from
            self.to = to
            self.summary = summary
            self.kind = kind
        }

        /// Equal when the paths, the summaries and the kinds are, strings compared by their
        /// Unicode scalars, as snapshots compare them.
        /// - Complexity: O(1), plus O(*l*) for a string summary of length *l*.
        @inlinable
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.from == rhs.from && lhs.to == rhs.to && lhs.kind == rhs.kind
                && literallyEqual(lhs.summary, rhs.summary)
        }

        /// Hashes the paths, the summary and the kind, consistently with `==`.
        /// - Complexity: O(1), plus O(*l*) for a string summary of length *l*.
        @inlinable
        public func hash(into hasher: inout Hasher) {
            hasher.combine(from)
            hasher.combine(to)
            hasher.combine(kind)
            hashLiterally(summary, into: &hasher)
        }
    }

    /// Ascending *O* offsets of sections not in *N*; their items go with them.
    public var deletedSections: [Int]
    /// Sections not in *O*, ascending by *N* offset, each with its full item list.
    public var insertedSections: [SectionInsertion]
    /// Sections in both whose relative order changed.
    public var movedSections: [SectionMove]
    /// Sections in both whose summary changed, in *N* order.
    public var updatedSections: [SectionUpdate]
    /// Ascending *O* paths of items that leave a surviving section.
    public var deletedItems: [ItemPath]
    /// Items that arrive in a surviving section, ascending by *N* path.
    public var insertedItems: [ItemInsertion]
    /// Items in surviving sections on both sides whose place the other operations do not explain.
    public var movedItems: [ItemMove]
    /// Items in surviving sections on both sides whose summary changed.
    public var updatedItems: [ItemUpdate]

    /// Creates changes from their operation lists; every list defaults to empty.
    /// - Complexity: O(1).
    @inlinable
    public init(
        deletedSections: [Int] = [],
        insertedSections: [SectionInsertion] = [],
        movedSections: [SectionMove] = [],
        updatedSections: [SectionUpdate] = [],
        deletedItems: [ItemPath] = [],
        insertedItems: [ItemInsertion] = [],
        movedItems: [ItemMove] = [],
        updatedItems: [ItemUpdate] = []
    ) {
        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
        self.movedSections = movedSections
        self.updatedSections = updatedSections
        self.deletedItems = deletedItems
        self.insertedItems = insertedItems
        self.movedItems = movedItems
        self.updatedItems = updatedItems
    }

    /// Whether there is no operation at all.
    /// - Complexity: O(1).
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty && updatedSections.isEmpty
            && deletedItems.isEmpty && insertedItems.isEmpty && movedItems.isEmpty && updatedItems.isEmpty
    }

    /// The total number of operations of every kind.
    /// - Complexity: O(1).
    public var operationCount: Int {
        deletedSections.count + insertedSections.count + movedSections.count + updatedSections.count
            + deletedItems.count
            + insertedItems.count + movedItems.count + updatedItems.count
    }
}
