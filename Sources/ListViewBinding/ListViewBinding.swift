import Foundation
import ListAdapter

/// Drives a `UITableView` or a `UICollectionView` from a `ListAdapter`: the
/// renderer of a `ListConnector`, and the answers the view's data source gives.
///
/// ```swift
/// let binding = ListViewBinding<Message.ID, String, String>(tableView: tableView, animation: .automatic)
/// let connector = ListConnector(adapter: adapter, renderer: binding)
/// // In the data source: binding.numberOfSections, binding.numberOfItems(inSection:),
/// // binding.identifier(at:) — never the model, which may already be ahead of the view.
/// connector.ready()  // once the view is on screen: from now on updates animate
/// ```
///
/// What the binding guarantees, as UIKit requires it:
/// - Before `ListConnector.ready()` every update is a `reloadData()`.
/// - After it, each update is delivered as the stages of
///   `ListChanges.stagedForUIKit()`: each stage's batch inside
///   `performBatchUpdates`, with the data source's answers switched to the new list *inside* the
///   batch (a view that asks for counts as the batch starts still gets the old ones, and the
///   new ones when it checks them after the batch); then the stage's reconfigures
///   (`reconfigureRows(at:)`, or `reloadRows` inside the batch for updates whose
///   `ItemUpdateKind` is `.reload`), then its section
///   header updates (``reconfigureSectionHeader``, or `reloadSections` outside any batch).
/// - A batch UIKit would refuse (one a `UIKitStrictRenderer` refuses, checked
///   before the view sees anything) is not sent: the binding throws, and the connector reloads
///   the view instead. A view that no longer exists (the binding holds it weakly) is left alone.
///
/// Compiled and tested on Linux against a strict stand-in view; on Apple platforms
/// `UITableView` and `UICollectionView` conform to ``TableViewUpdating`` and
/// ``CollectionViewUpdating`` as they are.
@MainActor
public final class ListViewBinding<
    ItemID: Hashable & Sendable, Summary: Hashable & Sendable, SectionSummary: Hashable & Sendable
> {
    /// The binding's snapshot type.
    public typealias Snapshot = ListSnapshot<ItemID, Summary, SectionSummary>

    private let target: any ViewTarget
    /// What the data source answers from: switched inside each batch.
    public private(set) var snapshot: Snapshot
    /// The check a batch passes before the view sees it, holding what the view shows.
    private var check: UIKitStrictRenderer<ItemID, Summary, SectionSummary>
    /// Updates a section's header in place after a batch, given the section's offset in
    /// ``snapshot``. When `nil`, the binding calls `reloadSections` outside any batch instead,
    /// which also reloads the section's rows.
    public var reconfigureSectionHeader: ((Int) -> Void)?
    /// The number of batches sent to the view (`performBatchUpdates` calls).
    public private(set) var batchCount = 0
    /// The number of times the view was reloaded (`reloadData` calls).
    public private(set) var reloadCount = 0

    /// A binding that drives `tableView`, animating rows and sections with `animation`.
    /// - Complexity: O(1).
    public init<View: TableViewUpdating>(tableView: View, animation: View.RowAnimation) {
        target = TableTarget(tableView, animation: animation)
        snapshot = Snapshot()
        check = UIKitStrictRenderer()
    }

    /// A binding that drives `collectionView`.
    /// - Complexity: O(1).
    public init<View: CollectionViewUpdating>(collectionView: View) {
        target = CollectionTarget(collectionView)
        snapshot = Snapshot()
        check = UIKitStrictRenderer()
    }

    // MARK: - The data source's answers

    /// The number of sections, for `numberOfSections(in:)`.
    /// - Complexity: O(1).
    public var numberOfSections: Int { snapshot.sectionCount }

    /// The number of rows or items in `section`, for `tableView(_:numberOfRowsInSection:)` and
    /// `collectionView(_:numberOfItemsInSection:)`; 0 for a section the list does not have.
    /// - Complexity: O(1).
    public func numberOfItems(inSection section: Int) -> Int {
        snapshot.itemCount(inSection: section) ?? 0
    }

    /// The identifier of the item at `indexPath` (section, then row or item), or `nil` outside
    /// the list: what a cell provider looks up its model object with.
    /// - Complexity: O(1).
    public func identifier(at indexPath: IndexPath) -> ItemID? {
        guard let path = Self.itemPath(indexPath) else { return nil }
        return snapshot.identifier(at: path)
    }

    /// The summary of the item at `indexPath`, or `nil` outside the list or without one.
    /// - Complexity: O(1).
    public func summary(at indexPath: IndexPath) -> Summary? {
        guard let path = Self.itemPath(indexPath), snapshot.identifier(at: path) != nil else { return nil }
        return snapshot.sections[path.section].items[path.item].summary
    }

    /// The title of `section`, for its header, or `nil` outside the list.
    /// - Complexity: O(1).
    public func title(ofSection section: Int) -> String? {
        snapshot.title(ofSection: section)
    }

    /// The summary of `section`, for its header, or `nil` outside the list or without one.
    /// - Complexity: O(1).
    public func summary(ofSection section: Int) -> SectionSummary? {
        guard snapshot.sections.indices.contains(section) else { return nil }
        return snapshot.sections[section].summary
    }

    /// The index path UIKit uses for `path`.
    /// - Complexity: O(1).
    public nonisolated static func indexPath(_ path: ItemPath) -> IndexPath {
        IndexPath(indexes: [path.section, path.item])
    }

    /// The `ItemPath` of `indexPath`, or `nil` when it does not have two indexes.
    /// - Complexity: O(1).
    public nonisolated static func itemPath(_ indexPath: IndexPath) -> ItemPath? {
        guard indexPath.count == 2 else { return nil }
        return ItemPath(section: indexPath[0], item: indexPath[1])
    }
}

extension ListViewBinding: @MainActor ListRenderer {
    /// Shows `snapshot` with one `reloadData()`.
    /// - Complexity: O(1), plus the view's reload.
    public func reloadData(_ snapshot: Snapshot) {
        self.snapshot = snapshot
        check.reloadData(snapshot)
        guard target.isAlive else { return }
        reloadCount += 1
        target.reloadData()
    }

    /// Animates `changes`, which take the shown list to `snapshot`, as UIKit requires (see
    /// ``ListViewBinding``).
    ///
    /// - Throws: the `BatchUpdateError` of a batch UIKit would refuse, before the
    ///   view is touched; the connector then reloads the view.
    /// - Complexity: O(*n* + *c*) for the check, plus the view's work.
    public func performBatchUpdates(
        _ changes: ListChanges<ItemID, Summary, SectionSummary>, resultingIn snapshot: Snapshot
    )
        throws
    {
        try check.performBatchUpdates(changes, resultingIn: snapshot)
        guard target.isAlive else {
            self.snapshot = snapshot
            return
        }
        for stage in changes.stagedForUIKit() {
            batchCount += 1
            target.performBatchUpdates {
                self.snapshot = snapshot
                self.send(stage.batch)
            }
            if !stage.reconfigures.isEmpty {
                target.reconfigureItems(at: stage.reconfigures.map { Self.indexPath($0.to) })
            }
            for update in stage.sectionUpdates {
                if let reconfigureSectionHeader {
                    reconfigureSectionHeader(update.to)
                } else {
                    target.reloadSections(IndexSet(integer: update.to))
                }
            }
        }
    }

    /// Sends one batch's operations, each kind in one call.
    private func send(_ batch: ListChanges<ItemID, Summary, SectionSummary>) {
        if !batch.deletedSections.isEmpty { target.deleteSections(IndexSet(batch.deletedSections)) }
        if !batch.insertedSections.isEmpty { target.insertSections(IndexSet(batch.insertedSections.map(\.index))) }
        for move in batch.movedSections { target.moveSection(move.from, toSection: move.to) }
        if !batch.updatedSections.isEmpty { target.reloadSections(IndexSet(batch.updatedSections.map(\.from))) }
        if !batch.deletedItems.isEmpty { target.deleteItems(at: batch.deletedItems.map(Self.indexPath)) }
        if !batch.insertedItems.isEmpty { target.insertItems(at: batch.insertedItems.map { Self.indexPath($0.at) }) }
        for move in batch.movedItems { target.moveItem(at: Self.indexPath(move.from), to: Self.indexPath(move.to)) }
        if !batch.updatedItems.isEmpty { target.reloadItems(at: batch.updatedItems.map { Self.indexPath($0.from) }) }
    }
}
