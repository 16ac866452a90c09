/// The reason an edit of a ``ListSnapshot`` in place was refused: it names an item or a section
/// the snapshot does not hold, or would add one it already holds.
///
/// The snapshot is left as it was when this error is thrown. ``description`` names the item or
/// section and, for a duplicate, where the snapshot already holds it.
public struct ListSnapshotEditError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong with the edit.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name.
        public let name: String
        /// The edit names an item identifier the snapshot does not hold.
        public static let unknownItemID = Code(name: "unknownItemID")
        /// The edit names a section title the snapshot does not hold.
        public static let unknownSectionTitle = Code(name: "unknownSectionTitle")
        /// The edit adds an item whose identifier the snapshot already holds, or adds it twice.
        public static let duplicateItemID = Code(name: "duplicateItemID")
        /// The edit adds a section whose title the snapshot already holds, or adds it twice.
        public static let duplicateSectionTitle = Code(name: "duplicateSectionTitle")
        /// The edit appends items to the last section of a snapshot that has none.
        public static let noSection = Code(name: "noSection")
        /// The edit moves an item or a section next to itself.
        public static let moveNextToItself = Code(name: "moveNextToItself")
        /// The code's stable name.
        /// - Complexity: O(1).
        public var description: String { name }
    }

    /// What was wrong with the edit.
    public let code: Code
    /// The identifier or title concerned, as text (empty for ``Code/noSection``).
    public let subject: String
    /// Where the snapshot already holds a duplicate: `[section]` for a title, `[section, item]`
    /// for an item; empty when the duplicate is within the edit itself, or for other codes.
    public let existingPosition: [Int]

    /// Creates an error.
    package init(code: Code, subject: String, existingPosition: [Int] = []) {
        self.code = code
        self.subject = subject
        self.existingPosition = existingPosition
    }

    /// A one-line explanation naming the identifier or title (its first 60 characters, when
    /// longer) and, for a duplicate the snapshot holds, its position.
    /// - Complexity: O(1): the subject is quoted by its first 60 characters at most.
    public var description: String {
        let quoted = quotedExcerpt(subject)
        let held = existingPosition.isEmpty ? "twice in the edit" : "already at \(existingPosition)"
        switch code {
        case .unknownItemID:
            return "no item with id \(quoted) in the snapshot; edits name items the snapshot holds"
        case .unknownSectionTitle:
            return "no section titled \(quoted) in the snapshot; edits name sections the snapshot holds"
        case .duplicateItemID:
            return "item id \(quoted) \(held); item ids must be unique across a snapshot"
        case .duplicateSectionTitle:
            return "section title \(quoted) \(held); section titles must be unique within a snapshot"
        case .noSection:
            return "the snapshot has no section to append items to; append a section first"
        default:
            return "\(quoted) cannot be moved next to itself"
        }
    }
}
