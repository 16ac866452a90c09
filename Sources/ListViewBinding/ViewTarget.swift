import Foundation

/// What the binding does to a view, in words common to tables and collections: each wrapper
/// below forwards to the methods its view type has.
@MainActor
protocol ViewTarget: AnyObject {
    /// Whether the view still exists (the binding holds it weakly).
    var isAlive: Bool { get }
    func reloadData()
    func performBatchUpdates(_ updates: () -> Void)
    func insertSections(_ sections: IndexSet)
    func deleteSections(_ sections: IndexSet)
    func reloadSections(_ sections: IndexSet)
    func moveSection(_ section: Int, toSection newSection: Int)
    func insertItems(at paths: [IndexPath])
    func deleteItems(at paths: [IndexPath])
    func reloadItems(at paths: [IndexPath])
    func moveItem(at path: IndexPath, to newPath: IndexPath)
    func reconfigureItems(at paths: [IndexPath])
}

/// A table view, held weakly, with the animation the binding gives every row and section.
@MainActor
final class TableTarget<View: TableViewUpdating>: ViewTarget {
    weak var view: View?
    let animation: View.RowAnimation

    init(_ view: View, animation: View.RowAnimation) {
        self.view = view
        self.animation = animation
    }

    var isAlive: Bool { view != nil }
    func reloadData() { view?.reloadData() }
    func performBatchUpdates(_ updates: () -> Void) {
        withoutActuallyEscaping(updates) { updates in view?.performBatchUpdates(updates, completion: nil) }
    }
    func insertSections(_ sections: IndexSet) { view?.insertSections(sections, with: animation) }
    func deleteSections(_ sections: IndexSet) { view?.deleteSections(sections, with: animation) }
    func reloadSections(_ sections: IndexSet) { view?.reloadSections(sections, with: animation) }
    func moveSection(_ section: Int, toSection newSection: Int) { view?.moveSection(section, toSection: newSection) }
    func insertItems(at paths: [IndexPath]) { view?.insertRows(at: paths, with: animation) }
    func deleteItems(at paths: [IndexPath]) { view?.deleteRows(at: paths, with: animation) }
    func reloadItems(at paths: [IndexPath]) { view?.reloadRows(at: paths, with: animation) }
    func moveItem(at path: IndexPath, to newPath: IndexPath) { view?.moveRow(at: path, to: newPath) }
    func reconfigureItems(at paths: [IndexPath]) { view?.reconfigureRows(at: paths) }
}

/// A collection view, held weakly.
@MainActor
final class CollectionTarget<View: CollectionViewUpdating>: ViewTarget {
    weak var view: View?

    init(_ view: View) { self.view = view }

    var isAlive: Bool { view != nil }
    func reloadData() { view?.reloadData() }
    func performBatchUpdates(_ updates: () -> Void) {
        withoutActuallyEscaping(updates) { updates in view?.performBatchUpdates(updates, completion: nil) }
    }
    func insertSections(_ sections: IndexSet) { view?.insertSections(sections) }
    func deleteSections(_ sections: IndexSet) { view?.deleteSections(sections) }
    func reloadSections(_ sections: IndexSet) { view?.reloadSections(sections) }
    func moveSection(_ section: Int, toSection newSection: Int) { view?.moveSection(section, toSection: newSection) }
    func insertItems(at paths: [IndexPath]) { view?.insertItems(at: paths) }
    func deleteItems(at paths: [IndexPath]) { view?.deleteItems(at: paths) }
    func reloadItems(at paths: [IndexPath]) { view?.reloadItems(at: paths) }
    func moveItem(at path: IndexPath, to newPath: IndexPath) { view?.moveItem(at: path, to: newPath) }
    func reconfigureItems(at paths: [IndexPath]) { view?.reconfigureItems(at: paths) }
}
