import Synchronization

/// The data source of an adapter fed only with snapshots (``ListAdapter/apply(_:)``), as a
/// diffable data source is: its contents are the last snapshot applied, and its items are that
/// snapshot's items (an identifier with its summary).
///
/// ```swift
/// let adapter = ListAdapter(dataSource: SnapshotSource<Int, String, Never>())
/// adapter.apply(try ListSnapshot(sections: [.init(title: "Today", items: [.init(id: 1, summary: "Milk")])]))
/// ```
///
/// An invalidation of the adapter reads the last snapshot applied again (an update with no
/// changes). A snapshot given to ``init(_:)`` is the contents until the first one is applied.
public final class SnapshotSource<
    ItemID: Hashable & Sendable, Summary: Hashable & Sendable, SectionSummary: Hashable & Sendable
>: ListSource {
    /// The snapshot type the source holds.
    public typealias Snapshot = ListSnapshot<ItemID, Summary, SectionSummary>

    /// Why ``item(for:)`` failed: the identifier is not in the last snapshot applied.
    public struct MissingItem: Error, CustomStringConvertible {
        /// The identifier asked for.
        public let id: ItemID

        /// Says which identifier is missing.
        public var description: String {
            "The identifier \(String(describing: id)) is not in the last snapshot applied"
        }
    }

    private let latest: Mutex<Snapshot>

    /// Creates a source whose contents are `snapshot` until one is applied.
    ///
    /// - Complexity: O(1).
    public init(_ snapshot: Snapshot = Snapshot()) {
        latest = Mutex(snapshot)
    }

    /// The last snapshot applied (or given to ``init(_:)``).
    ///
    /// - Complexity: O(1).
    public var snapshot: Snapshot { latest.withLock { $0 } }

    /// The last snapshot applied, as it is.
    ///
    /// - Complexity: O(1).
    public func contents() -> ListContents<ItemID, Summary, SectionSummary> {
        ListContents(snapshot)
    }

    /// The item of the last snapshot applied identified by `id`: its identifier and summary.
    ///
    /// - Throws: ``MissingItem`` when `id` is not in that snapshot.
    /// - Complexity: O(1) expected.
    public func item(for id: ItemID) throws -> Snapshot.Item {
        let snapshot = self.snapshot
        guard let path = snapshot.path(of: id), let item = snapshot.item(at: path) else { throw MissingItem(id: id) }
        return item
    }
}

extension SnapshotSource: AppliedSnapshotKeeper {
    func keep(_ snapshot: Any) {
        guard let snapshot = snapshot as? Snapshot else { return }
        latest.withLock { $0 = snapshot }
    }
}

/// A data source that keeps the snapshots applied to its adapter, so that reading it again gives
/// the last one.
protocol AppliedSnapshotKeeper: Sendable {
    /// Keeps `snapshot`, a snapshot of the adapter's type.
    func keep(_ snapshot: Any)
}
