/// The reason ``StrictListView`` refused a batch: where `UITableView` would raise
/// `NSInternalInconsistencyException` (and the app would crash), it throws this error instead.
///
/// ``message`` uses UIKit's wording, so that a refused batch reads like the crash report it
/// prevents, for example `attempt to delete row 4 from section 1 which only contains 3 rows
/// before the update`. Index paths are written as UIKit writes them, without the object address:
/// `(<NSIndexPath> {length = 2, path = 1 - 4})`. The same rules as ``ListChangesError``'s apply;
/// only the wording differs. A refused batch leaves the view as it was.
public struct BatchUpdateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of rule the batch breaks: the codes ``ListChangesError`` uses, plus
    /// ``ListRuleViolationCode/identifiersDiffer``.
    public typealias Code = ListRuleViolationCode

    /// What kind of rule the batch breaks.
    public let code: Code
    /// The offending index or path: `[section]` or `[section, row]`, before the update for
    /// deletions, moves from and reloads, after it otherwise; empty for the section count.
    public let position: [Int]
    /// The explanation, in the wording of UIKit's `NSInternalInconsistencyException`.
    public let message: String
    /// The apply failure behind ``ListRuleViolationCode/updateMismatch`` and
    /// ``ListRuleViolationCode/invalidResult``.
    public let underlying: ListChangesError?

    /// Creates an error.
    package init(code: Code, position: [Int], message: String, underlying: ListChangesError? = nil) {
        self.code = code
        self.position = position
        self.message = message
        self.underlying = underlying
    }

    /// ``message``.
    /// - Complexity: O(1).
    public var description: String { message }
}

extension BatchUpdateError {
    /// Renders a violation of the interchange format's rules in UIKit's words.
    package init(_ violation: ListChangesViolation) {
        switch violation {
        case let .sectionOutOfBounds(role, index, count, counterpart):
            let message: String =
                switch role {
                case .deleted:
                    "attempt to delete section \(index), but there are only \(count) sections before the update"
                case .inserted:
                    "attempt to insert section \(index) but there are only \(count) sections after the update"
                case .movedFrom:
                    "attempt to move section \(index), but there are only \(count) sections before the update"
                case .updatedFrom:
                    "attempt to reload section \(index), but there are only \(count) sections before the update"
                case .movedTo, .updatedTo:
                    "attempt to \(role == .movedTo ? "move" : "reload") section \(counterpart ?? index) "
                        + "to section \(index), but there are only \(count) sections after the update"
                }
            self.init(code: .sectionOutOfBounds, position: [index], message: message)

        case let .sectionListedTwice(first, second, index):
            let message: String =
                switch (first, second) {
                case (.deleted, .deleted): "attempt to delete section \(index) twice"
                case (.inserted, .inserted): "attempt to insert section \(index) twice"
                case (.movedFrom, .movedFrom): "attempt to perform multiple moves from the same section (\(index))"
                case (.movedTo, .movedTo): "attempt to perform multiple moves to the same section (\(index))"
                case (.updatedFrom, _): "attempt to reload the same section twice (\(index))"
                case (.updatedTo, _): "attempt to reload two sections as the same section (\(index))"
                case (.inserted, _), (_, .inserted):
                    "attempt to perform an insert and a move to the same section (\(index))"
                default: "attempt to perform a delete and a move from the same section (\(index))"
                }
            self.init(code: .sectionListedTwice, position: [index], message: message)

        case let .sectionCountMismatch(before, after, inserted, deleted):
            self.init(
                code: .sectionCountMismatch, position: [],
                message: "Invalid update: invalid number of sections. The number of sections contained in the "
                    + "table view after the update (\(after)) must be equal to the number of sections contained "
                    + "in the table view before the update (\(before)), plus or minus the number of sections "
                    + "inserted or deleted (\(inserted) inserted, \(deleted) deleted).")

        case let .itemSectionOutOfBounds(role, path, sectionCount, counterpart):
            let (row, section) = (path.item, path.section)
            let from = Self.indexPath(counterpart ?? path)
            let message: String =
                switch role {
                case .deleted:
                    "attempt to delete row \(row) from section \(section), but there are only \(sectionCount) "
                        + "sections before the update"
                case .movedFrom:
                    "attempt to move index path \(Self.indexPath(path)) that does not exist - there are only "
                        + "\(sectionCount) sections before the update"
                case .updatedFrom:
                    "attempt to reload row \(row) in section \(section), but there are only \(sectionCount) "
                        + "sections before the update"
                case .inserted:
                    "attempt to insert row \(row) into section \(section), but there are only \(sectionCount) "
                        + "sections after the update"
                case .movedTo:
                    "attempt to move index path \(from) to index path \(Self.indexPath(path)) that does not "
                        + "exist - there are only \(sectionCount) sections after the update"
                case .updatedTo:
                    "attempt to reload index path \(from) as index path \(Self.indexPath(path)) that does not "
                        + "exist - there are only \(sectionCount) sections after the update"
                }
            self.init(code: .itemOutOfBounds, position: [section, row], message: message)

        case let .itemOutOfBounds(role, path, itemCount, counterpart):
            let (row, section) = (path.item, path.section)
            let from = Self.indexPath(counterpart ?? path)
            let message: String =
                switch role {
                case .deleted:
                    "attempt to delete row \(row) from section \(section) which only contains \(itemCount) rows "
                        + "before the update"
                case .movedFrom:
                    "attempt to move index path \(Self.indexPath(path)) that does not exist - there are only "
                        + "\(itemCount) rows in section \(section) before the update"
                case .updatedFrom:
                    "attempt to reload row \(row) from section \(section) which only contains \(itemCount) rows "
                        + "before the update"
                case .inserted:
                    "attempt to insert row \(row) into section \(section), but there are only \(itemCount) rows "
                        + "in section \(section) after the update"
                case .movedTo:
                    "attempt to move index path \(from) to index path \(Self.indexPath(path)) that does not "
                        + "exist - there are only \(itemCount) rows in section \(section) after the update"
                case .updatedTo:
                    "attempt to reload index path \(from) as index path \(Self.indexPath(path)) that does not "
                        + "exist - there are only \(itemCount) rows in section \(section) after the update"
                }
            self.init(code: .itemOutOfBounds, position: [section, row], message: message)

        case let .itemInDeletedSection(role, path):
            let verb: String =
                switch role {
                case .movedFrom: "move"
                case .updatedFrom, .updatedTo: "reload"
                default: "delete"
                }
            self.init(
                code: .itemInDeletedSection, position: [path.section, path.item],
                message: "cannot \(verb) a row from a deleted section (\(path.section))")

        case let .itemInInsertedSection(role, path):
            let verb: String =
                switch role {
                case .movedTo: "move"
                case .updatedFrom, .updatedTo: "reload"
                default: "insert"
                }
            self.init(
                code: .itemInInsertedSection, position: [path.section, path.item],
                message: "cannot \(verb) a row into a newly inserted section (\(path.section))")

        case let .itemListedTwice(first, second, path):
            let indexPath = Self.indexPath(path)
            let message: String =
                switch (first, second) {
                case (.deleted, .deleted): "attempt to delete the same index path twice \(indexPath)"
                case (.inserted, .inserted): "attempt to insert the same index path twice \(indexPath)"
                case (.movedFrom, .movedFrom): "attempt to perform multiple moves from the same index path \(indexPath)"
                case (.movedTo, .movedTo): "attempt to perform multiple moves to the same index path \(indexPath)"
                case (.updatedFrom, _): "attempt to reload the same index path twice \(indexPath)"
                case (.updatedTo, _): "attempt to reload two rows as the same index path \(indexPath)"
                case (.inserted, _), (_, .inserted):
                    "attempt to perform an insert and a move to the same index path \(indexPath)"
                default: "attempt to perform a delete and a move from the same index path \(indexPath)"
                }
            self.init(code: .itemListedTwice, position: [path.section, path.item], message: message)

        case let .itemCountMismatch(section, before, after, inserted, deleted, movedIn, movedOut):
            self.init(
                code: .itemCountMismatch, position: [section],
                message: "Invalid update: invalid number of rows in section \(section). The number of rows "
                    + "contained in an existing section after the update (\(after)) must be equal to the number "
                    + "of rows contained in that section before the update (\(before)), plus or minus the number "
                    + "of rows inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) "
                    + "and plus or minus the number of rows moved into or out of that section (\(movedIn) moved "
                    + "in, \(movedOut) moved out).")

        case let .updatedItemDeleted(path):
            self.init(
                code: .updatedItemDeleted, position: [path.section, path.item],
                message: "attempt to delete and reload the same index path \(Self.indexPath(path))")

        case let .updatedItemInserted(path):
            self.init(
                code: .updatedItemInserted, position: [path.section, path.item],
                message: "attempt to insert and reload the same index path \(Self.indexPath(path))")

        case let .updatedItemMoved(from, to):
            // UIKit reloads a row by deleting and inserting it, hence its wording.
            self.init(
                code: .updatedItemMoved, position: [from.section, from.item],
                message: "attempt to perform a delete and a move from the same index path \(Self.indexPath(from)) "
                    + "(the row is reloaded and moved to \(Self.indexPath(to)) in the same batch; reload it after "
                    + "the batch instead: ListChanges.splitForUIKit())")

        case let .updatedItemInMovedSection(from, to, sectionTo):
            // A reload is a delete at the old path and an insert at the same path after the update,
            // which lands in whatever section then sits at the old offset.
            self.init(
                code: .updatedItemInMovedSection, position: [from.section, from.item],
                message: "attempt to reload row \(from.item) in section \(from.section), which is moved to section "
                    + "\(sectionTo) in the same update (the row would be reloaded as \(Self.indexPath(to)); reload "
                    + "it after the batch instead: ListChanges.stagedForUIKit())")
        case let .updatedSectionDeleted(index):
            self.init(
                code: .updatedSectionDeleted, position: [index],
                message: "attempt to delete and reload the same section (\(index))")

        case let .updatedSectionInserted(index):
            self.init(
                code: .updatedSectionInserted, position: [index],
                message: "attempt to insert and reload the same section (\(index))")

        case let .updatedSectionMoved(from, to):
            self.init(
                code: .updatedSectionMoved, position: [from],
                message: "attempt to perform a delete and a move from the same section (\(from)) (the section is "
                    + "reloaded and moved to \(to) in the same batch; reload it after the batch instead: "
                    + "ListChanges.splitForUIKit())")
        }
    }

    /// An apply failure beyond UIKit's checks, in UIKit's style.
    package init(applying error: ListChangesError) {
        self.init(
            code: error.code, position: error.position,
            message: "Invalid update: \(error.message)", underlying: error)
    }

    /// The view would show something else than the data source reports after the batch.
    package static func identifiersDiffer(position: [Int], difference: String) -> Self {
        Self(
            code: .identifiersDiffer, position: position,
            message: "Invalid update: after the update, \(difference)")
    }

    /// An index path as UIKit describes one, without the object address.
    static func indexPath(_ path: ItemPath) -> String {
        "(<NSIndexPath> {length = 2, path = \(path.section) - \(path.item)})"
    }
}
