import ChangeLog
import ListAdapter
import ListFormat

/// A renderer that prints the list as it evolves: after each reload or batch, a header line
/// and the whole list, with the rows the batch inserted, moved or updated marked `*`.
///
/// It is a class so that the code driving a replay can set ``revision`` between batches while
/// the replay holds the renderer.
public final class TextListRenderer: ListRenderer {
    /// The identifiers' type: strings, as the log stores them.
    public typealias ItemID = String
    /// The summaries' type: strings, as the log stores them.
    public typealias Summary = String
    /// The section summaries' type: strings, as the log stores them.
    public typealias SectionSummary = String

    /// The revision the next reload or batch belongs to, printed in its header when set.
    public var revision: UInt64?
    /// What is shown now.
    public var snapshot: LogSnapshot { view.snapshot }
    private var view = StrictListView<String, String, String>(strictness: .format)
    private let write: (String) -> Void

    /// Creates a renderer that hands each line of output to `write`.
    public init(write: @escaping (String) -> Void) {
        self.write = write
    }

    /// Shows `snapshot` in full.
    public func reloadData(_ snapshot: LogSnapshot) {
        view.reloadData(snapshot)
        write("\(header)reload: \(snapshot.sectionCount) sections, \(snapshot.itemCount) items")
        printList(marking: [])
    }

    /// Applies `changes` (they must take what is shown to `snapshot`) and prints the result.
    ///
    /// - Throws: `BatchUpdateError` when the changes are not valid for what is shown, or do
    ///   not lead to `snapshot` (the interchange format's rules, as `StrictListView` checks
    ///   them).
    public func performBatchUpdates(_ changes: LogChanges, resultingIn snapshot: LogSnapshot) throws {
        try view.performBatchUpdates(changes, resultingIn: snapshot)
        write("\(header)batch: \(changes.counts)")
        let marked = Set(
            changes.insertedItems.map(\.at) + changes.movedItems.map(\.to) + changes.updatedItems.map(\.to))
        printList(marking: marked)
    }

    private var header: String { revision.map { "revision \($0): " } ?? "" }

    private func printList(marking marked: Set<ItemPath>) {
        for (sectionOffset, section) in snapshot.sections.enumerated() {
            let title = section.title.isEmpty ? "(untitled)" : printable(section.title)
            write("  [\(sectionOffset)] \(title)\(section.summary.map { "  \(printable($0))" } ?? "")")
            for (itemOffset, item) in section.items.enumerated() {
                let mark = marked.contains(ItemPath(section: sectionOffset, item: itemOffset)) ? "*" : " "
                write("    \(mark) \(printable(item.id))\(item.summary.map { "  \(printable($0))" } ?? "")")
            }
        }
    }
}
