/// An object told, on the main actor, about every update and every failure of a ``ListAdapter``.
///
/// Register with ``ListAdapter/addObserver(_:)``; the adapter holds observers weakly and calls
/// them in the order they were added. A renderer is usually connected through a ``ListConnector``,
/// which is an observer. For async consumers, ``ListAdapter/updates(bufferingPolicy:)`` delivers
/// the same updates as an `AsyncSequence`.
@MainActor
public protocol ListAdapterObserver<DataSource>: AnyObject {
    /// The data source type of the adapters this observer watches.
    associatedtype DataSource: ListSource

    /// Called after `adapter` moved to a new snapshot; `adapter.snapshot` is already
    /// `update.newSnapshot`.
    func listAdapter(
        _ adapter: ListAdapter<DataSource>,
        didUpdate update: ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>)

    /// Called when an invalidation of `adapter` failed; the adapter kept its last good snapshot.
    func listAdapter(_ adapter: ListAdapter<DataSource>, didFail error: ListAdapterError)
}

extension ListAdapterObserver {
    /// Ignores the failure.
    /// - Complexity: O(1).
    public func listAdapter(_ adapter: ListAdapter<DataSource>, didFail error: ListAdapterError) {}
}
