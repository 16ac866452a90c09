/// A section or an item left out of a list because an earlier one has the same title or
/// identifier: what ``DuplicatePolicy/keepFirst`` drops, and where it was.
///
/// Positions are 0-based and count in the contents as they were given, before anything was
/// dropped, so that they point at the data that repeats itself:
/// - `[section]` for a dropped section: its offset among the given sections;
/// - `[section, item]` for an item of contents given as sections (a snapshot line,
///   ``ListContents/init(sections:)``): its section's offset among the given sections and its
///   offset in that section;
/// - `[offset]` for an item of contents given as one flat sequence (elements or identifiers in
///   display order, grouped into sections by title): its offset in that sequence.
public struct DroppedDuplicate<ItemID: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// What was dropped.
    public enum Kind: Hashable, Sendable {
        /// A section whose title an earlier section has, dropped with its `itemCount` items.
        case section(title: String, itemCount: Int)
        /// An item whose identifier an earlier item has.
        case item(id: ItemID)

        /// Two kinds are equal when they drop the same thing; titles, and identifiers that are
        /// strings, compare by their Unicode scalars, as ``ListSnapshot`` compares them.
        /// - Complexity: O(1), plus O(*l*) for strings of length *l*.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            switch (lhs, rhs) {
            case (.section(let left, let leftCount), .section(let right, let rightCount)):
                literallyEqualStrings(left, right) && leftCount == rightCount
            case (.item(let left), .item(let right)):
                literallyEqual(left, right)
            default:
                false
            }
        }

        /// Hashes the kind consistently with `==`.
        /// - Complexity: O(1), plus O(*l*) for strings of length *l*.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case .section(let title, let itemCount):
                hasher.combine(0)
                hashStringLiterally(title, into: &hasher)
                hasher.combine(itemCount)
            case .item(let id):
                hasher.combine(1)
                hashLiterally(id, into: &hasher)
            }
        }
    }

    /// What was dropped.
    public var kind: Kind
    /// Where it was in the contents as given (see ``DroppedDuplicate``).
    public var position: [Int]
    /// Where the occurrence that was kept is, in the same form as ``position``.
    public var firstPosition: [Int]

    /// Creates the report of a dropped section or item.
    /// - Complexity: O(1).
    public init(kind: Kind, position: [Int], firstPosition: [Int]) {
        self.kind = kind
        self.position = position
        self.firstPosition = firstPosition
    }

    /// `item "b" at [0, 3] (first at [0, 1])`, or `section "Today" at [2] with 3 items (first at
    /// [0])`; a title or identifier is quoted by its first 60 characters at most.
    /// - Complexity: O(1).
    public var description: String {
        switch kind {
        case .section(let title, let itemCount):
            return
                "section \(quotedExcerpt(title)) at \(position) with \(itemCount == 1 ? "1 item" : "\(itemCount) items") "
                + "(first at \(firstPosition))"
        case .item(let id):
            return "item \(quotedExcerpt(String(describing: id))) at \(position) (first at \(firstPosition))"
        }
    }
}
