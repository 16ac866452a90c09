import Foundation

@testable import ListViewBinding

/// The animations of the stand-in table view (`UITableView.RowAnimation`).
enum FakeRowAnimation: Equatable {
    case automatic, fade
}

/// A stand-in `UITableView`: ``TableViewUpdating`` over a ``StrictFakeView``.
@MainActor
final class StrictTableView: TableViewUpdating {
    let core = StrictFakeView()
    /// The animations the binding passed.
    private(set) var animations: Set<FakeRowAnimation> = []

    func reloadData() { core.reloadData() }
    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?) {
        core.performBatchUpdates(updates, completion: completion)
    }
    func insertSections(_ sections: IndexSet, with animation: FakeRowAnimation) {
        animations.insert(animation)
        core.record("insertSections") { $0.insertedSections += sections }
    }
    func deleteSections(_ sections: IndexSet, with animation: FakeRowAnimation) {
        animations.insert(animation)
        core.record("deleteSections") { $0.deletedSections += sections }
    }
    func reloadSections(_ sections: IndexSet, with animation: FakeRowAnimation) {
        animations.insert(animation)
        core.reloadSections(sections)
    }
    func moveSection(_ section: Int, toSection newSection: Int) {
        core.record("moveSection") { $0.movedSections.append((section, newSection)) }
    }
    func insertRows(at indexPaths: [IndexPath], with animation: FakeRowAnimation) {
        animations.insert(animation)
        core.record("insertRows") { $0.insertedRows += indexPaths }
    }
    func deleteRows(at indexPaths: [IndexPath], with animation: FakeRowAnimation) {
        animations.insert(animation)
        core.record("deleteRows") { $0.deletedRows += indexPaths }
    }
    func reloadRows(at indexPaths: [IndexPath], with animation: FakeRowAnimation) {
        animations.insert(animation)
        core.record("reloadRows") { $0.reloadedRows += indexPaths }
    }
    func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        core.record("moveRow") { $0.movedRows.append((indexPath, newIndexPath)) }
    }
    func reconfigureRows(at indexPaths: [IndexPath]) { core.reconfigure(indexPaths) }
}

/// A stand-in `UICollectionView`: ``CollectionViewUpdating`` over a ``StrictFakeView``.
@MainActor
final class StrictCollectionView: CollectionViewUpdating {
    let core = StrictFakeView()

    func reloadData() { core.reloadData() }
    func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)?) {
        core.performBatchUpdates(updates, completion: completion)
    }
    func insertSections(_ sections: IndexSet) { core.record("insertSections") { $0.insertedSections += sections } }
    func deleteSections(_ sections: IndexSet) { core.record("deleteSections") { $0.deletedSections += sections } }
    func reloadSections(_ sections: IndexSet) { core.reloadSections(sections) }
    func moveSection(_ section: Int, toSection newSection: Int) {
        core.record("moveSection") { $0.movedSections.append((section, newSection)) }
    }
    func insertItems(at indexPaths: [IndexPath]) { core.record("insertItems") { $0.insertedRows += indexPaths } }
    func deleteItems(at indexPaths: [IndexPath]) { core.record("deleteItems") { $0.deletedRows += indexPaths } }
    func reloadItems(at indexPaths: [IndexPath]) { core.record("reloadItems") { $0.reloadedRows += indexPaths } }
    func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        core.record("moveItem") { $0.movedRows.append((indexPath, newIndexPath)) }
    }
    func reconfigureItems(at indexPaths: [IndexPath]) { core.reconfigure(indexPaths) }
}

extension FakeDataSource {
    /// The data source an app writes over a binding: every answer from the binding.
    init(_ binding: ListViewBinding<String, String, String>) {
        self.init(
            numberOfSections: { binding.numberOfSections },
            numberOfRows: { binding.numberOfItems(inSection: $0) },
            cell: { Shown(id: binding.identifier(at: $0) ?? "?", summary: binding.summary(at: $0)) },
            header: { Shown(id: binding.title(ofSection: $0) ?? "?", summary: binding.summary(ofSection: $0)) })
    }
}
