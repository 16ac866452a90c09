/// Which of the interchange format's validity rules (or UIKit's batch-update rules) a batch of changes breaks:
/// the code of both ``ListChangesError`` (from ``ListSnapshot/applying(_:)``) and
/// ``BatchUpdateError`` (from ``StrictListView``), which render one rule set in two wordings.
public struct ListRuleViolationCode: Hashable, Sendable, CustomStringConvertible {
    /// The code's stable name.
    public let name: String
    /// A section index outside the old snapshot (deleted, moved from) or the result (inserted,
    /// moved to).
    public static let sectionOutOfBounds = Self(name: "sectionOutOfBounds")
    /// An item path outside the old snapshot (deleted, moved from, updated from) or the result
    /// (inserted, moved to, updated to).
    public static let itemOutOfBounds = Self(name: "itemOutOfBounds")
    /// An old section index twice across deleted and moved-from, or a new one twice across
    /// inserted and moved-to.
    public static let sectionListedTwice = Self(name: "sectionListedTwice")
    /// An old item path twice across deleted and moved-from, a new one twice across inserted and
    /// moved-to, or an item updated twice.
    public static let itemListedTwice = Self(name: "itemListedTwice")
    /// An item deleted, moved or updated from a section that is deleted.
    public static let itemInDeletedSection = Self(name: "itemInDeletedSection")
    /// An item inserted, moved or updated into a section that is inserted.
    public static let itemInInsertedSection = Self(name: "itemInInsertedSection")
    /// An item both deleted and updated.
    public static let updatedItemDeleted = Self(name: "updatedItemDeleted")
    /// An item both inserted and updated.
    public static let updatedItemInserted = Self(name: "updatedItemInserted")
    /// An item both moved and updated in the same batch, which UIKit refuses
    /// (``StrictListView/Strictness-swift.enum/uiKit`` only).
    public static let updatedItemMoved = Self(name: "updatedItemMoved")
    /// An item updated in the same batch as its section moves, which UIKit mis-applies
    /// (``StrictListView/Strictness-swift.enum/uiKit`` only).
    public static let updatedItemInMovedSection = Self(name: "updatedItemInMovedSection")
    /// A section both deleted and updated.
    public static let updatedSectionDeleted = Self(name: "updatedSectionDeleted")
    /// A section both inserted and updated.
    public static let updatedSectionInserted = Self(name: "updatedSectionInserted")
    /// A section both moved and updated in the same batch, which UIKit refuses
    /// (``StrictListView/Strictness-swift.enum/uiKit`` only).
    public static let updatedSectionMoved = Self(name: "updatedSectionMoved")
    /// The number of sections after the batch does not add up (UIKit's "invalid number of
    /// sections").
    public static let sectionCountMismatch = Self(name: "sectionCountMismatch")
    /// The number of items of a section after the batch does not add up (UIKit's "invalid
    /// number of rows in section").
    public static let itemCountMismatch = Self(name: "itemCountMismatch")
    /// An update whose `from` and `to` hold different items (or different sections).
    public static let updateMismatch = Self(name: "updateMismatch")
    /// The result would hold a title or identifier twice.
    public static let invalidResult = Self(name: "invalidResult")
    /// ``StrictListView`` only: the counts balance, but after the batch the view would show
    /// other sections or items than the data source reports.
    public static let identifiersDiffer = Self(name: "identifiersDiffer")

    /// The code's stable name.
    /// - Complexity: O(1).
    public var description: String { name }
}
