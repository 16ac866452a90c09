/// Connects a ``ListRenderer`` to a ``ListAdapter``: every update of the adapter reaches the
/// renderer, and the renderer's questions (how many sections, how many items, which identifier
/// at a path) are answered from what the renderer has applied.
///
/// As in ISListViewAdapter's connector, a renderer that is not on screen yet gets each update as
/// ``ListRenderer/reloadData(_:)``; after ``ready()`` it gets them as
/// ``ListRenderer/performBatchUpdates(_:resultingIn:)``, so a visible list animates. The connector
/// keeps its own applied ``snapshot``: between two updates the adapter may already hold a newer
/// state, but a view must only ever see counts that agree with the batches it was given, or UIKit
/// raises `NSInternalInconsistencyException`.
///
/// If the renderer rejects a batch, the connector records the error (``lastError``,
/// ``onRendererError``) and resynchronises the renderer with `reloadData`.
@MainActor
public final class ListConnector<DataSource: ListSource, Renderer: ListRenderer>: ListAdapterObserver
where
    Renderer.ItemID == DataSource.ItemID, Renderer.Summary == DataSource.Summary,
    Renderer.SectionSummary == DataSource.SectionSummary
{
    /// The connector's snapshot type.
    public typealias Snapshot = ListSnapshot<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>

    /// The adapter whose updates the renderer gets.
    public let adapter: ListAdapter<DataSource>
    /// The renderer; the connector owns it and is the only one that changes it.
    ///
    /// While the connector calls the renderer (`reloadData`, `performBatchUpdates`), the
    /// renderer is being modified in place: reading this property from inside those calls is an
    /// overlapping access, which Swift's exclusivity checking stops the process for. A renderer
    /// that needs the list during a call asks the connector for ``snapshot`` or the counts,
    /// which are already the new ones.
    public private(set) var renderer: Renderer
    /// What the renderer has applied: the snapshot every count and identifier comes from.
    public private(set) var snapshot: Snapshot
    /// The adapter generation of ``snapshot``.
    public private(set) var generation: Int
    /// Whether ``ready()`` was called: updates arrive as batches rather than reloads.
    public private(set) var isReady = false
    /// The last error the renderer threw, if any.
    public private(set) var lastError: (any Error)?
    /// The number of batches the renderer rejected.
    public private(set) var rendererFailureCount = 0
    /// Called on the main actor with each error the renderer throws, before the connector
    /// resynchronises it with `reloadData`.
    public var onRendererError: ((any Error) -> Void)?

    /// Connects `renderer` to `adapter`: the renderer is reloaded with the adapter's current
    /// snapshot, and the connector starts observing the adapter.
    ///
    /// - Complexity: O(1), plus the renderer's `reloadData`.
    public init(adapter: ListAdapter<DataSource>, renderer: Renderer) {
        self.adapter = adapter
        self.renderer = renderer
        self.snapshot = adapter.snapshot
        self.generation = adapter.generation
        self.renderer.reloadData(adapter.snapshot)
        adapter.addObserver(self)
    }

    /// Tells the connector that the renderer is ready to animate: every later update reaches it as
    /// a batch. Calling it again does nothing.
    ///
    /// - Complexity: O(1).
    public func ready() {
        isReady = true
    }

    /// Applies `update` to the renderer: a reload before ``ready()``, a batch after it.
    ///
    /// The connector's ``snapshot`` becomes `update.newSnapshot` before the renderer is called, so
    /// that a renderer asking for counts during the batch gets the new ones, as `UITableView`
    /// expects of its data source inside `performBatchUpdates`.
    ///
    /// - Complexity: O(1), plus the renderer's work; O(*n*) on the main actor in the unexpected
    ///   case that an update is not the successor of the applied one, to diff from ``snapshot``.
    public func listAdapter(
        _ adapter: ListAdapter<DataSource>,
        didUpdate update: ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>
    ) {
        guard adapter === self.adapter else { return }
        let applied = snapshot
        let isSuccessor = update.generation == generation + 1
        snapshot = update.newSnapshot
        generation = update.generation
        guard isReady else {
            renderer.reloadData(update.newSnapshot)
            return
        }
        // Updates arrive in order, each from the previous one's snapshot; if one was somehow
        // missed, diff from what the renderer has rather than feed it a batch for another state.
        let changes = isSuccessor ? update.changes : applied.changesFollowingEdits(to: update.newSnapshot)
        do {
            try renderer.performBatchUpdates(changes, resultingIn: update.newSnapshot)
        } catch {
            lastError = error
            rendererFailureCount += 1
            onRendererError?(error)
            renderer.reloadData(update.newSnapshot)
        }
    }

    /// The number of sections the renderer has.
    ///
    /// - Complexity: O(1).
    public var numberOfSections: Int { snapshot.sectionCount }

    /// The number of items the renderer has in the section at `section`.
    ///
    /// - Precondition: `section` is in `0..<numberOfSections`.
    /// - Complexity: O(1).
    public func numberOfItems(inSection section: Int) -> Int {
        guard let count = snapshot.itemCount(inSection: section) else {
            preconditionFailure("Section \(section) is out of range: the renderer has \(numberOfSections) sections")
        }
        return count
    }

    /// The title of the section at `section` in what the renderer has.
    ///
    /// - Precondition: `section` is in `0..<numberOfSections`.
    /// - Complexity: O(1).
    public func title(ofSection section: Int) -> String {
        guard let title = snapshot.title(ofSection: section) else {
            preconditionFailure("Section \(section) is out of range: the renderer has \(numberOfSections) sections")
        }
        return title
    }

    /// The identifier at `path` in what the renderer has, or `nil` when `path` is outside it.
    ///
    /// - Complexity: O(1).
    public func identifier(at path: ItemPath) -> DataSource.ItemID? {
        snapshot.identifier(at: path)
    }

    /// The path of `id` in what the renderer has, or `nil` when it is not there.
    ///
    /// - Complexity: O(1) expected.
    public func path(of id: DataSource.ItemID) -> ItemPath? {
        snapshot.path(of: id)
    }

    /// Fetches the item at `path` in what the renderer has, through the adapter's cache.
    ///
    /// - Returns: The item, or `nil` when `path` is outside what the renderer has or the item has
    ///   already left the adapter's snapshot.
    /// - Throws: ``ListAdapterError`` when the data source fails to fetch it.
    /// - Complexity: That of ``ListAdapter/item(for:)``.
    public func item(at path: ItemPath) async throws(ListAdapterError) -> DataSource.Item? {
        guard let id = snapshot.identifier(at: path) else { return nil }
        return try await adapter.item(for: id)
    }

    /// The item at `path` in what the renderer has if the adapter has it cached, without fetching.
    ///
    /// - Complexity: O(1) expected.
    public func cachedItem(at path: ItemPath) -> DataSource.Item? {
        guard let id = snapshot.identifier(at: path), let current = adapter.path(of: id) else { return nil }
        return adapter.cachedItem(at: current)
    }
}
