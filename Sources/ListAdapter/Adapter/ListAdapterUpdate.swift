/// One delivery of a ``ListAdapter``: the snapshot it showed, the snapshot it shows now, and the
/// changes between them.
///
/// `try oldSnapshot.applying(changes) == newSnapshot` always holds, and each update's
/// ``oldSnapshot`` is the previous update's ``newSnapshot``: a renderer that applies every update
/// in order stays in step with the adapter.
public struct ListAdapterUpdate<
    ItemID: Hashable & Sendable, Summary: Hashable & Sendable, SectionSummary: Hashable & Sendable
>: Sendable {
    /// The position of this update in the adapter's history: 1 for the first, then one more for
    /// each update. Failed invalidations do not count.
    public let generation: Int
    /// What the adapter showed before this update.
    public let oldSnapshot: ListSnapshot<ItemID, Summary, SectionSummary>
    /// What the adapter shows after this update.
    public let newSnapshot: ListSnapshot<ItemID, Summary, SectionSummary>
    /// The changes that take ``oldSnapshot`` to ``newSnapshot``, in the interchange format's batch semantics.
    /// Empty when an invalidation found nothing changed.
    public let changes: ListChanges<ItemID, Summary, SectionSummary>
    /// Whether this update is the transition to a new data source (``ListAdapter/setDataSource(_:)``).
    public let isDataSourceChange: Bool
    /// What the adapter left out of the data source's contents to build ``newSnapshot``: with
    /// ``DuplicatePolicy/keepFirst``, every section and item that repeats an earlier title or
    /// identifier, in the order of the contents, with its position in the contents as given.
    /// Empty when nothing repeated, under ``DuplicatePolicy/refuse``, and for an applied snapshot.
    public let droppedDuplicates: [DroppedDuplicate<ItemID>]

    /// Creates an update.
    public init(
        generation: Int,
        oldSnapshot: ListSnapshot<ItemID, Summary, SectionSummary>,
        newSnapshot: ListSnapshot<ItemID, Summary, SectionSummary>,
        changes: ListChanges<ItemID, Summary, SectionSummary>,
        isDataSourceChange: Bool = false,
        droppedDuplicates: [DroppedDuplicate<ItemID>] = []
    ) {
        self.generation = generation
        self.oldSnapshot = oldSnapshot
        self.newSnapshot = newSnapshot
        self.changes = changes
        self.isDataSourceChange = isDataSourceChange
        self.droppedDuplicates = droppedDuplicates
    }
}
