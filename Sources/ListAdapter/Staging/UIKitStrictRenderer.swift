/// A renderer that drives a ``StrictListView`` as code driving `UITableView` must: the stages of
/// ``ListChanges/stagedForUIKit()``, each a batch, then its reconfigures and section header
/// updates
/// (``StrictListView/performBatchUpdatesDeferringReconfigures(_:resultingIn:)``), all checked
/// by UIKit's rules.
///
/// Replaying a log into it tells whether a table view would have accepted every batch. A bare
/// ``StrictListView`` in ``StrictListView/Strictness-swift.enum/uiKit`` mode refuses a batch
/// that moves and updates the same item or section, which the diff reports together and UIKit code
/// delivers in two steps.
public struct UIKitStrictRenderer<
    ItemID: Hashable & Sendable, Summary: Hashable & Sendable, SectionSummary: Hashable & Sendable
>: ListRenderer, Sendable {
    /// The view the batches are checked by and applied to.
    public private(set) var view: StrictListView<ItemID, Summary, SectionSummary>

    /// Creates a renderer showing `snapshot`.
    /// - Complexity: O(1).
    public init(showing snapshot: ListSnapshot<ItemID, Summary, SectionSummary> = .init()) {
        view = StrictListView(strictness: .uiKit, showing: snapshot)
    }

    /// Replaces what the view shows with `snapshot`.
    /// - Complexity: O(1).
    public mutating func reloadData(_ snapshot: ListSnapshot<ItemID, Summary, SectionSummary>) {
        view.reloadData(snapshot)
    }

    /// Applies `changes` as UIKit code does: the stages of ``ListChanges/stagedForUIKit()``, each
    /// a batch, then its reconfigures and section header updates (reconfigures and every section
    /// update after the batch, reloads of moved items in a second batch).
    ///
    /// - Throws: ``BatchUpdateError`` for the first rule a stage breaks; the view is then
    ///   unchanged.
    /// - Complexity: O(*n* + *c*) expected, as ``StrictListView/performBatchUpdates(_:resultingIn:)``.
    public mutating func performBatchUpdates(
        _ changes: ListChanges<ItemID, Summary, SectionSummary>,
        resultingIn snapshot: ListSnapshot<ItemID, Summary, SectionSummary>
    ) throws {
        try view.performBatchUpdatesDeferringReconfigures(changes, resultingIn: snapshot)
    }
}
