/// Something that shows a sectioned list and is told how it changes: a table or collection view,
/// a web page, or ``StrictListView``, the validator that behaves like `UITableView`.
///
/// A renderer receives either a whole snapshot (``reloadData(_:)``) or one batch of
/// ``ListChanges`` together with the snapshot that the batch produces
/// (``performBatchUpdates(_:resultingIn:)``). The snapshot plays the part of UIKit's data
/// source: after the batch it is what the renderer's data source reports, so a renderer can
/// check the batch against it, as `UITableView` checks its row counts.
public protocol ListRenderer<ItemID, Summary> {
    /// The type that identifies an item.
    associatedtype ItemID: Hashable & Sendable
    /// The type that describes an item's state.
    associatedtype Summary: Hashable & Sendable
    /// The type that describes a section header's state; `Never` for a renderer of lists whose
    /// sections have no summary.
    associatedtype SectionSummary: Hashable & Sendable = Never
    /// Replaces everything shown with `snapshot` (UITableView.reloadData).
    mutating func reloadData(_ snapshot: ListSnapshot<ItemID, Summary, SectionSummary>)
    /// Applies one batch that takes what is shown to `snapshot` (performBatchUpdates).
    ///
    /// - Throws: any error, to refuse the batch (``StrictListView`` throws a ``BatchUpdateError``
    ///   naming the broken rule); ``ListConnector`` then reloads the renderer with `snapshot`.
    mutating func performBatchUpdates(
        _ changes: ListChanges<ItemID, Summary, SectionSummary>,
        resultingIn snapshot: ListSnapshot<ItemID, Summary, SectionSummary>
    ) throws
}
