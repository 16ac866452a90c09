/// The reason ``ListChanges`` cannot be applied to a snapshot: they break one of the interchange format's
/// validity rules, or they do not produce a valid snapshot.
///
/// Such changes were computed for another snapshot, or were damaged on the way. Nothing is
/// applied when this error is thrown. ``message`` names the operation, the offending index or
/// path, and what is wrong with it, for example `item move from [1, 2]: section 1 has 2 items`.
public struct ListChangesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of rule the changes break.
    public typealias Code = ListRuleViolationCode

    /// What kind of rule the changes break.
    public let code: Code
    /// The offending index or path: `[section]` or `[section, item]`, in the coordinates of the
    /// snapshot the operation refers to; empty for ``ListRuleViolationCode/sectionCountMismatch``.
    public let position: [Int]
    /// A one-line explanation: the operation, the offending value, what is wrong.
    public let message: String
    /// Why the result is not a valid snapshot, for ``ListRuleViolationCode/invalidResult``.
    public let underlying: ListSnapshotError?

    /// Creates an error.
    package init(code: Code, position: [Int], message: String, underlying: ListSnapshotError? = nil) {
        self.code = code
        self.position = position
        self.message = message
        self.underlying = underlying
    }

    /// ``message``.
    /// - Complexity: O(1).
    public var description: String { message }
}

extension ListChangesError {
    /// Renders a violation of the interchange format's rules in its terms.
    package init(_ violation: ListChangesViolation) {
        typealias Role = ListChangesViolation.Role
        switch violation {
        case let .sectionOutOfBounds(role, index, count, _):
            let snapshot = Self.isOldSide(role) ? "the snapshot" : "the result"
            self.init(
                code: .sectionOutOfBounds, position: [index],
                message: "\(Self.sectionOperation(role)) \(index): \(snapshot) has \(count) sections")
        case let .sectionListedTwice(first, second, index):
            self.init(
                code: .sectionListedTwice, position: [index],
                message: "\(Self.sectionOperation(second)) \(index): "
                    + Self.twice(first: first, second: second, noun: "section", at: "\(index)"))
        case let .sectionCountMismatch(before, after, inserted, deleted):
            self.init(
                code: .sectionCountMismatch, position: [],
                message: "section count: the result has \(after) sections, but \(before) sections "
                    + "minus \(deleted) deleted plus \(inserted) inserted make \(before - deleted + inserted)")
        case let .itemSectionOutOfBounds(role, path, sectionCount, _):
            let snapshot = Self.isOldSide(role) ? "the snapshot" : "the result"
            self.init(
                code: .itemOutOfBounds, position: [path.section, path.item],
                message: "\(Self.itemOperation(role)) \(path): \(snapshot) has \(sectionCount) sections")
        case let .itemOutOfBounds(role, path, itemCount, _):
            let when = Self.isOldSide(role) ? "" : " in the result"
            self.init(
                code: .itemOutOfBounds, position: [path.section, path.item],
                message: "\(Self.itemOperation(role)) \(path): section \(path.section) has \(itemCount) items\(when)")
        case let .itemInDeletedSection(role, path):
            self.init(
                code: .itemInDeletedSection, position: [path.section, path.item],
                message: "\(Self.itemOperation(role)) \(path): section \(path.section) is deleted, "
                    + "and its items go with it")
        case let .itemInInsertedSection(role, path):
            self.init(
                code: .itemInInsertedSection, position: [path.section, path.item],
                message: "\(Self.itemOperation(role)) \(path): section \(path.section) is inserted "
                    + "with all of its items")
        case let .itemListedTwice(first, second, path):
            self.init(
                code: .itemListedTwice, position: [path.section, path.item],
                message: "\(Self.itemOperation(second)) \(path): "
                    + Self.twice(first: first, second: second, noun: "item", at: "\(path)"))
        case let .itemCountMismatch(section, before, after, inserted, deleted, movedIn, movedOut):
            let expected = before - deleted - movedOut + inserted + movedIn
            self.init(
                code: .itemCountMismatch, position: [section],
                message: "section \(section): the result has \(after) items, but \(before) items minus "
                    + "\(deleted) deleted and \(movedOut) moved out plus \(inserted) inserted and "
                    + "\(movedIn) moved in make \(expected)")
        case let .updatedItemDeleted(path):
            self.init(
                code: .updatedItemDeleted, position: [path.section, path.item],
                message: "item update from \(path): the item there is also deleted")
        case let .updatedItemInserted(path):
            self.init(
                code: .updatedItemInserted, position: [path.section, path.item],
                message: "item update to \(path): an item is also inserted there")
        case let .updatedItemMoved(from, to):
            self.init(
                code: .updatedItemMoved, position: [from.section, from.item],
                message: "item update from \(from) to \(to): the item also moves, and UIKit refuses "
                    + "to reload a moving item; deliver the update after the batch (splitForUIKit())")
        case let .updatedItemInMovedSection(from, to, sectionTo):
            self.init(
                code: .updatedItemInMovedSection, position: [from.section, from.item],
                message: "item update from \(from) to \(to): its section moves from \(from.section) to "
                    + "\(sectionTo), and UIKit does not reload a row of a moving section; deliver the update "
                    + "after the batch (stagedForUIKit())")
        case let .updatedSectionDeleted(index):
            self.init(
                code: .updatedSectionDeleted, position: [index],
                message: "section update from \(index): the section there is also deleted")
        case let .updatedSectionInserted(index):
            self.init(
                code: .updatedSectionInserted, position: [index],
                message: "section update to \(index): a section is also inserted there")
        case let .updatedSectionMoved(from, to):
            self.init(
                code: .updatedSectionMoved, position: [from],
                message: "section update from \(from) to \(to): the section also moves, and UIKit refuses "
                    + "to reload a moving section; reload its header after the batch (splitForUIKit())")
        }
    }

    /// A section update whose `to` holds another section than its `from`.
    package static func sectionUpdateMismatch(from: Int, to: Int, oldTitle: String, newTitle: String) -> Self {
        let (old, new) = quotedApart(oldTitle, newTitle)
        return Self(
            code: .updateMismatch, position: [to],
            message: "section update from \(from) to \(to): the section at \(from) is \(old), "
                + "but the section at \(to) after the changes is \(new)")
    }

    /// An update whose `to` holds another item than its `from`.
    package static func updateMismatch(from: ItemPath, to: ItemPath, oldID: String, newID: String) -> Self {
        let (old, new) = quotedApart(oldID, newID)
        return Self(
            code: .updateMismatch, position: [to.section, to.item],
            message: "item update from \(from) to \(to): the item at \(from) is \(old), "
                + "but the item at \(to) after the changes is \(new)")
    }

    /// A result that is not a valid snapshot.
    package static func invalidResult(_ error: ListSnapshotError) -> Self {
        Self(
            code: .invalidResult, position: error.secondPosition,
            message: "the changes do not produce a valid snapshot: \(error.description)",
            underlying: error)
    }

    private static func isOldSide(_ role: ListChangesViolation.Role) -> Bool {
        switch role {
        case .deleted, .movedFrom, .updatedFrom: true
        case .inserted, .movedTo, .updatedTo: false
        }
    }

    private static func sectionOperation(_ role: ListChangesViolation.Role) -> String {
        switch role {
        case .deleted: "section deletion"
        case .inserted: "section insertion at"
        case .movedFrom: "section move from"
        case .movedTo: "section move to"
        case .updatedFrom: "section update from"
        case .updatedTo: "section update to"
        }
    }

    private static func itemOperation(_ role: ListChangesViolation.Role) -> String {
        switch role {
        case .deleted: "item deletion at"
        case .inserted: "item insertion at"
        case .movedFrom: "item move from"
        case .movedTo: "item move to"
        case .updatedFrom: "item update from"
        case .updatedTo: "item update to"
        }
    }

    /// "section 2 is deleted twice", "the item at [1, 2] is also deleted",
    /// "two items are moved to [2, 5]", "an item is also inserted at [0, 1]".
    private static func twice(
        first: ListChangesViolation.Role, second: ListChangesViolation.Role, noun: String, at position: String
    ) -> String {
        if isOldSide(first) {
            let subject = noun == "section" ? "section \(position)" : "the item at \(position)"
            let verb: (ListChangesViolation.Role) -> String = { role in
                switch role {
                case .deleted: "deleted"
                case .movedFrom: "moved"
                default: "updated"
                }
            }
            return first == second ? "\(subject) is \(verb(first)) twice" : "\(subject) is also \(verb(first))"
        }
        let verb: String =
            switch first {
            case .inserted: "inserted at"
            case .movedTo: "moved to"
            default: "updated at"
            }
        let article = noun == "item" ? "an" : "a"
        return first == second
            ? "two \(noun)s are \(verb) \(position)" : "\(article) \(noun) is also \(verb) \(position)"
    }
}
