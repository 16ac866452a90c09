import Foundation

/// The methods of `UITableView` that ``ListViewBinding`` calls, named and typed as Apple
/// documents them, so that `UITableView` conforms with an empty extension (this module declares
/// it where UIKit exists).
///
/// The binding calls nothing else: a test can drive the binding with a view of its own that
/// checks what UIKit checks.
@MainActor
public protocol TableViewUpdating: AnyObject {
    /// The animation of inserted, deleted and reloaded rows and sections
    /// (`UITableView.RowAnimation`).
    associatedtype RowAnimation

    /// Reloads every row and section from the data source.
    func reloadData()
    /// Animates the insertions, deletions, moves and reloads made in `updates` as one batch.
    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?)
    /// Inserts the sections at `sections` (offsets after the batch).
    func insertSections(_ sections: IndexSet, with animation: RowAnimation)
    /// Deletes the sections at `sections` (offsets before the batch).
    func deleteSections(_ sections: IndexSet, with animation: RowAnimation)
    /// Reloads the sections at `sections`: their headers, footers and rows.
    func reloadSections(_ sections: IndexSet, with animation: RowAnimation)
    /// Moves the section at `section` (before the batch) to `newSection` (after it).
    func moveSection(_ section: Int, toSection newSection: Int)
    /// Inserts rows at `indexPaths` (after the batch).
    func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation)
    /// Deletes the rows at `indexPaths` (before the batch).
    func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation)
    /// Replaces the cells of the rows at `indexPaths` (before the batch) with new ones.
    func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation)
    /// Moves the row at `indexPath` (before the batch) to `newIndexPath` (after it).
    func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath)
    /// Asks the data source to fill the existing cells of the rows at `indexPaths` again.
    func reconfigureRows(at indexPaths: [IndexPath])
}

/// The methods of `UICollectionView` that ``ListViewBinding`` calls, named and typed as Apple
/// documents them, so that `UICollectionView` conforms with an empty extension (this module
/// declares it where UIKit exists).
@MainActor
public protocol CollectionViewUpdating: AnyObject {
    /// Reloads every item and section from the data source.
    func reloadData()
    /// Animates the insertions, deletions, moves and reloads made in `updates` as one batch.
    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?)
    /// Inserts the sections at `sections` (offsets after the batch).
    func insertSections(_ sections: IndexSet)
    /// Deletes the sections at `sections` (offsets before the batch).
    func deleteSections(_ sections: IndexSet)
    /// Reloads the sections at `sections`: their supplementary views and items.
    func reloadSections(_ sections: IndexSet)
    /// Moves the section at `section` (before the batch) to `newSection` (after it).
    func moveSection(_ section: Int, toSection newSection: Int)
    /// Inserts items at `indexPaths` (after the batch).
    func insertItems(at indexPaths: [IndexPath])
    /// Deletes the items at `indexPaths` (before the batch).
    func deleteItems(at indexPaths: [IndexPath])
    /// Replaces the cells of the items at `indexPaths` (before the batch) with new ones.
    func reloadItems(at indexPaths: [IndexPath])
    /// Moves the item at `indexPath` (before the batch) to `newIndexPath` (after it).
    func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath)
    /// Asks the data source to fill the existing cells of the items at `indexPaths` again.
    func reconfigureItems(at indexPaths: [IndexPath])
}
