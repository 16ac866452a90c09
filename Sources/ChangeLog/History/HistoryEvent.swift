import ListAdapter

/// What a history is asked about: one item, by identifier, or one section, by title.
public enum HistorySubject: Hashable, Sendable {
    /// The item with this identifier.
    case item(String)
    /// The section with this title.
    case section(String)
}

/// One revision in the life of an item or a section: what happened to it, where it was before
/// and after, and its summary before and after.
///
/// ``ChangeLog/history(of:in:where:)`` answers them, oldest first.
public struct HistoryEvent: Hashable, Sendable {
    /// What happened to the subject in a revision.
    public enum Kind: String, Hashable, Sendable, CaseIterable, Comparable {
        /// It appeared.
        case inserted
        /// It disappeared.
        case deleted
        /// It changed place: moved within its section or to another one (items), or changed
        /// order among the sections (sections).
        case moved
        /// Its summary changed.
        case updated

        /// The order of the interchange format: inserted, deleted, moved, updated.
        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// How an item went or came with its section.
    public enum SectionFate: String, Hashable, Sendable {
        /// Its section was deleted in the revision (the item left with it).
        case deleted
        /// Its section was inserted in the revision (the item came with it).
        case inserted
    }

    /// Where the subject was in a snapshot.
    public struct Place: Hashable, Sendable {
        /// The title of the section: the item's section, or the section itself.
        public var section: String
        /// The section's offset in the snapshot.
        public var sectionIndex: Int
        /// The item's offset in its section; `nil` in a section's history.
        public var itemIndex: Int?

        /// Creates a place.
        public init(section: String, sectionIndex: Int, itemIndex: Int?) {
            self.section = section
            self.sectionIndex = sectionIndex
            self.itemIndex = itemIndex
        }

        /// The item's index path, `nil` for a section.
        public var indexPath: ItemPath? {
            itemIndex.map { ItemPath(section: sectionIndex, item: $0) }
        }
    }

    /// The revision.
    public var revision: UInt64
    /// When the revision was appended, in milliseconds since 1970 (UTC).
    public var millisecondsSince1970: Int64
    /// The revision's annotations.
    public var meta: [String: String]
    /// What happened, never empty, in the order of ``Kind``.
    public var kinds: [Kind]
    /// Whether an item went with its deleted section or came with an inserted one; `nil`
    /// otherwise and for sections.
    public var withSection: SectionFate?
    /// Where the subject was before the revision; `nil` when it was not in the list.
    public var before: Place?
    /// Where the subject is after the revision; `nil` when it is not in the list.
    public var after: Place?
    /// The subject's summary before the revision (`nil` when absent or when it had none).
    public var summaryBefore: String?
    /// The subject's summary after the revision (`nil` when absent or when it has none).
    public var summaryAfter: String?

    /// Creates an event.
    public init(
        revision: UInt64, millisecondsSince1970: Int64, meta: [String: String], kinds: [Kind],
        withSection: SectionFate? = nil, before: Place?, after: Place?, summaryBefore: String?,
        summaryAfter: String?
    ) {
        self.revision = revision
        self.millisecondsSince1970 = millisecondsSince1970
        self.meta = meta
        self.kinds = kinds
        self.withSection = withSection
        self.before = before
        self.after = after
        self.summaryBefore = summaryBefore
        self.summaryAfter = summaryAfter
    }
}
