/// The reason a ``ListSnapshot`` could not be built: a section title or an item identifier
/// that appears twice.
///
/// Nothing is built when this error is thrown. ``description`` names the duplicate and both of
/// its positions, so that the data that produced it can be found and fixed.
public struct ListSnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of duplicate was found.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name.
        public let name: String
        /// Two sections have the same title; titles identify sections and must be unique.
        public static let duplicateSectionTitle = Code(name: "duplicateSectionTitle")
        /// Two items have the same identifier; identifiers must be unique across the snapshot.
        public static let duplicateItemID = Code(name: "duplicateItemID")
        /// The code's stable name.
        /// - Complexity: O(1).
        public var description: String { name }
    }

    /// What kind of duplicate was found.
    public let code: Code
    /// The duplicated title or identifier, as text.
    public let duplicate: String
    /// The position of the first occurrence: `[section]` for a title, `[section, item]` for an item.
    public let firstPosition: [Int]
    /// The position of the second occurrence, in the same form as ``firstPosition``.
    public let secondPosition: [Int]

    /// Creates an error for a section title that appears at two section offsets.
    @usableFromInline
    package static func duplicateSectionTitle(_ title: String, first: Int, second: Int) -> Self {
        Self(code: .duplicateSectionTitle, duplicate: title, firstPosition: [first], secondPosition: [second])
    }

    /// Creates an error for an item identifier that appears at two paths.
    @usableFromInline
    package static func duplicateItemID(_ id: String, first: ItemPath, second: ItemPath) -> Self {
        Self(
            code: .duplicateItemID, duplicate: id,
            firstPosition: [first.section, first.item], secondPosition: [second.section, second.item])
    }

    /// A one-line explanation naming the duplicate (its first 60 characters, when longer) and
    /// both positions.
    /// - Complexity: O(1): the duplicate is quoted by its first 60 characters at most.
    public var description: String {
        switch code {
        case .duplicateSectionTitle:
            return "duplicate section title \(quotedExcerpt(duplicate)) at sections \(firstPosition[0]) and "
                + "\(secondPosition[0]); section titles must be unique within a snapshot"
        default:
            return "duplicate item id \(quotedExcerpt(duplicate)) at \(firstPosition) and \(secondPosition); "
                + "item ids must be unique across a snapshot"
        }
    }
}
