/// An immutable, sectioned list of uniquely identified items: what a list shows at one moment.
///
/// Sections are ordered and identified by their ``Section/title`` (unique within the snapshot,
/// `""` allowed); a section's ``Section/summary`` describes its header's current state (a count,
/// a date, a status), and a different section summary for the same title is a section update,
/// as for items. Items are ordered inside their section and identified by their ``Item/id``
/// (unique across the whole snapshot). An item's ``Item/summary`` describes its current state:
/// a different summary for the same identifier is an update, and an item without a summary in
/// both snapshots never updates (a summary that appears or disappears is an update too).
///
/// Titles, and identifiers and summaries (of items and sections) that are `String`s, compare by their Unicode scalars
/// (code point by code point), as JSON and `NSString` do, not by Swift's canonical equivalence:
/// a precomposed `"é"` and `"e"` + U+0301 are two identifiers, and a summary that only changes
/// its normalization is an update. So applying ``changes(to:)`` gives the new snapshot's
/// strings exactly. Identifiers and summaries of other types compare with their own `==`.
///
/// Building a snapshot checks both uniqueness rules and indexes every identifier, so lookups by
/// identifier and by path are O(1) afterwards. Snapshots are values: copies share storage.
public struct ListSnapshot<
    ItemID: Hashable & Sendable, Summary: Hashable & Sendable, SectionSummary: Hashable & Sendable
>: Sendable {
    /// One item: its identifier and, optionally, a summary of its current state.
    public struct Item: Hashable, Sendable {
        /// The identifier, unique across the snapshot.
        public var id: ItemID
        /// The item's state, or `nil` for none: an item without a summary on both sides of a
        /// diff never updates; one whose summary appears or disappears does.
        public var summary: Summary?

        /// Creates an item.
        /// - Complexity: O(1).
        @inlinable
        public init(id: ItemID, summary: Summary? = nil) {
            self.id = id
            self.summary = summary
        }

        /// Two items are equal when their identifiers and summaries are; strings compare by
        /// their Unicode scalars, not by canonical equivalence (see ``ListSnapshot``).
        /// - Complexity: O(1), plus O(*l*) for strings of length *l* that do not share storage.
        @inlinable
        public static func == (lhs: Self, rhs: Self) -> Bool {
            literallyEqual(lhs.id, rhs.id) && literallyEqual(lhs.summary, rhs.summary)
        }

        /// Hashes the identifier and the summary, consistently with `==`.
        /// - Complexity: O(1), plus O(*l*) for strings of length *l*.
        @inlinable
        public func hash(into hasher: inout Hasher) {
            hashLiterally(id, into: &hasher)
            hashLiterally(summary, into: &hasher)
        }
    }

    /// One section: a title, optionally a summary of its header's state, and its ordered items.
    public struct Section: Hashable, Sendable {
        /// The title, unique within the snapshot; `""` is a valid title.
        public var title: String
        /// The state of the section's header, or `nil` for none: a section without a summary on
        /// both sides of a diff never updates; one whose summary appears, disappears or changes
        /// does.
        public var summary: SectionSummary?
        /// The section's items, in display order.
        public var items: [Item]

        /// Creates a section.
        /// - Complexity: O(1).
        @inlinable
        public init(title: String, summary: SectionSummary? = nil, items: [Item] = []) {
            self.title = title
            self.summary = summary
            self.items = items
        }

        /// Two sections are equal when their titles and summaries (strings by Unicode scalars)
        /// and their items are.
        /// - Complexity: O(*k*), where *k* is the number of items.
        @inlinable
        public static func == (lhs: Self, rhs: Self) -> Bool {
            literallyEqualStrings(lhs.title, rhs.title) && literallyEqual(lhs.summary, rhs.summary)
                && lhs.items == rhs.items
        }

        /// Hashes the title, the summary and the items, consistently with `==`.
        /// - Complexity: O(*k*), where *k* is the number of items.
        @inlinable
        public func hash(into hasher: inout Hasher) {
            hashStringLiterally(title, into: &hasher)
            hashLiterally(summary, into: &hasher)
            hasher.combine(items)
        }
    }

    /// The sections, in display order.
    /// - Complexity: O(1).
    @inlinable
    public var sections: [Section] { storedSections }
    /// The sections, in display order: what ``sections`` reads and the edits in place change.
    @usableFromInline package var storedSections: [Section]
    /// Where each identifier sat before the edits in place still pending in `pendingIndex`;
    /// where each one sits when there are none (see `pathsByID`).
    @usableFromInline package var storedPathsByID: IdentifierIndex<ItemID>
    /// The edits in place not yet folded into `storedPathsByID`, or `nil` when there are none.
    @usableFromInline package var pendingIndex: PendingIndex<ItemID>?
    /// Whether the entries of `storedPathsByID` are the items in display order, as
    /// `init(sections:)` files them: the diff then reads the hashes they hold instead of hashing
    /// identifiers (``IdentifierIndex``). An index folded from pending edits is built the same
    /// way, so this holds of `pathsByID` whenever it holds of `storedPathsByID`.
    @usableFromInline package var indexFollowsDisplayOrder: Bool
    /// Where each section title sits.
    @usableFromInline package var offsetsByTitle: [LiteralKey<String>: Int]
    /// The edits made in place since the snapshot this one was edited from, or `nil` for a
    /// snapshot that was built, not edited (see ``ListSnapshot/changes(editedFrom:)``).
    @usableFromInline package var editJournal: ListEditJournal<ItemID, Summary, SectionSummary>?

    /// The snapshot with no sections.
    /// - Complexity: O(1).
    @inlinable
    public init() {
        self.init(
            uncheckedSections: [], pathsByID: IdentifierIndex(), offsetsByTitle: [:], indexFollowsDisplayOrder: true)
        _checkInvariants()
    }

    /// A snapshot of `sections` with the given index, taken as it is: the caller vouches that
    /// the index describes the sections (the invariants that ``_checkInvariants()`` checks), in
    /// display order when `indexFollowsDisplayOrder` says so.
    /// Every other initializer ends here, then checks the invariants in debug builds.
    @inlinable
    init(
        uncheckedSections sections: [Section], pathsByID: IdentifierIndex<ItemID>,
        offsetsByTitle: [LiteralKey<String>: Int], indexFollowsDisplayOrder: Bool = false
    ) {
        self.storedSections = sections
        self.storedPathsByID = pathsByID
        self.pendingIndex = nil
        self.offsetsByTitle = offsetsByTitle
        self.editJournal = nil
        self.indexFollowsDisplayOrder = indexFollowsDisplayOrder
    }

    /// Builds a snapshot from sections, checking that titles and identifiers are unique.
    ///
    /// - Throws: ``ListSnapshotError`` naming the first duplicate title or identifier and both
    ///   of its positions; nothing is built.
    /// - Complexity: O(*n*) expected, where *n* is the number of items.
    @inlinable
    public init(sections: [Section]) throws(ListSnapshotError) {
        try self.init(sections: sections, itemHashes: nil)
    }

    /// Builds a snapshot from sections as ``init(sections:)`` does, with each identifier's hash
    /// computed earlier in this process (`IdentifierIndex.hash(of:)`, section by section) instead
    /// of hashing them here: what a reader of consecutive revisions does with the identifiers
    /// the revision before already held. Uniqueness is checked as fully as without them.
    ///
    /// The hashes are trusted: one that is not its identifier's would make lookups miss (debug
    /// builds check every lookup), so they must never come from outside the process.
    ///
    /// - Throws: ``ListSnapshotError`` naming the first duplicate title or identifier.
    /// - Complexity: O(*n*) expected, where *n* is the number of items; no identifier is hashed.
    @inlinable
    package init(sections: [Section], itemHashes: [[Int]]?) throws(ListSnapshotError) {
        var offsetsByTitle = [LiteralKey<String>: Int](minimumCapacity: sections.count)
        var itemCount = 0
        for offset in sections.indices {
            if let first = offsetsByTitle.updateValue(offset, forKey: LiteralKey(sections[offset].title)) {
                throw .duplicateSectionTitle(sections[offset].title, first: first, second: offset)
            }
            itemCount += sections[offset].items.count
        }
        let (pathsByID, duplicate) = IdentifierIndex<ItemID>.indexing(
            sections, itemCount: itemCount, hashes: itemHashes)
        if let duplicate {
            let second = duplicate.second
            throw .duplicateItemID(
                String(describing: sections[second.section].items[second.item].id), first: duplicate.first,
                second: second)
        }
        self.init(
            uncheckedSections: sections, pathsByID: pathsByID, offsetsByTitle: offsetsByTitle,
            indexFollowsDisplayOrder: true)
        _checkInvariants()
    }

    /// Builds a snapshot from identifiers in display order, grouping them into sections.
    ///
    /// Sections appear in the order of their first identifier; inside a section, identifiers
    /// keep their relative order. This is how ``ListAdapter`` turns a data source's flat
    /// identifier list into sections.
    ///
    /// - Parameters:
    ///   - identifiers: every identifier, in display order.
    ///   - sectionTitle: the title of an identifier's section.
    ///   - summary: an identifier's summary, or `nil` for none.
    ///   - sectionSummary: a section title's summary, or `nil` for none (asked once per section).
    /// - Throws: ``ListSnapshotError`` when an identifier appears twice.
    /// - Complexity: O(*n*) expected.
    @inlinable
    public init(
        identifiers: some Sequence<ItemID>,
        sectionTitle: (ItemID) -> String,
        summary: (ItemID) -> Summary?,
        sectionSummary: (String) -> SectionSummary? = { _ in nil }
    ) throws(ListSnapshotError) {
        var sections: [Section] = []
        var offsetsByTitle: [LiteralKey<String>: Int] = [:]
        for id in identifiers {
            let title = sectionTitle(id)
            let item = Item(id: id, summary: summary(id))
            if let offset = offsetsByTitle[LiteralKey(title)] {
                sections[offset].items.append(item)
            } else {
                offsetsByTitle[LiteralKey(title)] = sections.count
                sections.append(Section(title: title, summary: sectionSummary(title), items: [item]))
            }
        }
        try self.init(sections: sections)
    }
}

extension ListSnapshot: Equatable {
    /// Two snapshots are equal when they have the same sections, section summaries, items and
    /// summaries, in order.
    /// - Complexity: O(*n*), where *n* is the number of items.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sections == rhs.sections
    }
}

extension ListSnapshot: Hashable {
    /// Hashes the sections, items and summaries.
    /// - Complexity: O(*n*), where *n* is the number of items.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(sections)
    }
}
