/// How a renderer shows an item whose summary changed: by giving its cell the new content
/// (``reconfigure``, the default) or by replacing the cell (``reload``).
///
/// `UITableView.reconfigureRows(at:)` and `UICollectionView.reconfigureItems(at:)` keep the
/// existing cell and ask the cell provider to fill it again; `reloadRows(at:with:)` and
/// `reloadItems(at:)` discard it and dequeue a new one, with a cross-fade. Apple recommends
/// reconfiguring "unless you have an explicit need to replace the existing cell with a new cell"
/// (a different cell type for the new state, for example). A ``ListSource`` chooses per item with
/// ``ListSource/updateKind(of:from:to:)``; the adapter records the choice in each
/// ``ListChanges/ItemUpdate/kind``.
public enum ItemUpdateKind: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The same cell shows the new content (`reconfigureRows(at:)`): delivered after the batch,
    /// at the item's new path.
    case reconfigure
    /// The cell is replaced (`reloadRows(at:with:)`): delivered inside a batch.
    case reload

    /// `reconfigure` or `reload`.
    /// - Complexity: O(1).
    public var description: String {
        switch self {
        case .reconfigure: "reconfigure"
        case .reload: "reload"
        }
    }
}
