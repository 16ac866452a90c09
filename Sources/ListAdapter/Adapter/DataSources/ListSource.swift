/// What a ``ListAdapter`` shows, read in one call per invalidation: the list's identifiers, each
/// one's section and summary (``contents()``), and the items themselves, fetched one at a time only
/// when asked for (``item(for:)``).
///
/// Two kinds of types conform:
///
/// - A model isolated to the main actor, with plain stored properties, the way apps keep their
///   state:
///
///   ```swift
///   @MainActor
///   final class TodoStore: ListSource {
///       var todos: [Todo] = [] { didSet { invalidator?.invalidate() } }
///       private var invalidator: ListInvalidator?
///
///       func contents() -> ListContents<Int, String, Never> {
///           ListContents(todos, id: \.id, sectionTitle: \.list, summary: \.title)
///       }
///       func item(for id: Int) throws -> Todo { ... }
///       func attach(_ invalidator: ListInvalidator) { self.invalidator = invalidator }
///   }
///   ```
///
///   Its methods run on the main actor. The adapter calls ``contents()`` once per invalidation,
///   one hop to the main actor, and builds the snapshot and computes the diff off it: returning
///   ``ListContents`` over the model's array only copies a reference (arrays are copy-on-write),
///   and the identifiers, titles and summaries are read from that copy on the adapter's queue.
/// - A `Sendable` type that is not isolated to an actor (state behind a lock, a database), whose
///   methods run off the main actor, on the adapter's diff queue. ``ListDataSource`` is this
///   kind with one call per identifier for sections and summaries.
///
/// When the data changes, call ``ListInvalidator/invalidate()`` on the invalidator the adapter
/// hands to ``attach(_:)`` (from any thread or actor), or ``ListAdapter/invalidate()``.
public protocol ListSource<ItemID, Summary, Item>: Sendable {
    /// The type that identifies an item, unique across the list.
    associatedtype ItemID: Hashable & Sendable
    /// The type that describes an item's current state; a changed summary is an update.
    associatedtype Summary: Hashable & Sendable
    /// The type of the items the source fetches.
    associatedtype Item: Sendable
    /// The type that describes a section header's state (a count, a date); a changed section
    /// summary is a section update. `Never` by default: sections without summaries.
    associatedtype SectionSummary: Hashable & Sendable = Never

    /// The list as it is now: its identifiers in display order, each one's section title and
    /// summary, and each section's summary.
    ///
    /// Called once per diff, on the conforming type's isolation (the main actor for a
    /// `@MainActor` type); the adapter builds the snapshot from the returned value off the main
    /// actor. Everything the value reads must describe one consistent state.
    ///
    /// - Throws: Any error; the adapter reports it to its observers as a ``ListAdapterError``
    ///   with code ``ListAdapterError/Code/identifiersFailed`` and keeps its last good snapshot.
    ///   An identifier or a section title listed twice is reported as
    ///   ``ListAdapterError/Code/duplicateIdentifier``, unless the adapter was created with
    ///   ``DuplicatePolicy/keepFirst``.
    func contents() async throws -> ListContents<ItemID, Summary, SectionSummary>

    /// Fetches the item identified by `id`.
    ///
    /// - Throws: Any error; ``ListAdapter/item(at:)`` reports it as a ``ListAdapterError`` with
    ///   code ``ListAdapterError/Code/itemFetchFailed``.
    func item(for id: ItemID) async throws -> Item

    /// Called on the main actor when an adapter starts using this source, with the invalidator to
    /// call when the data changes. The default implementation does nothing.
    @MainActor func attach(_ invalidator: ListInvalidator)

    /// How renderers should show that the summary of `id` changed from `oldSummary` to
    /// `newSummary`: ``ItemUpdateKind/reconfigure`` (the same cell, new content; the default)
    /// or ``ItemUpdateKind/reload`` (a new cell, for example of another type).
    ///
    /// Called by the adapter once per updated item after each diff, off the main actor, so a
    /// main-actor type implements it `nonisolated`, from the summaries alone. The answer lands in
    /// ``ListChanges/ItemUpdate/kind`` of the update observers and renderers receive.
    nonisolated func updateKind(of id: ItemID, from oldSummary: Summary?, to newSummary: Summary?) -> ItemUpdateKind
}

extension ListSource {
    /// Does nothing: a source that never changes, or that its owner invalidates through the
    /// adapter directly, does not need the invalidator.
    /// - Complexity: O(1).
    @MainActor public func attach(_ invalidator: ListInvalidator) {}

    /// ``ItemUpdateKind/reconfigure``: every update keeps its cell.
    /// - Complexity: O(1).
    public nonisolated func updateKind(of id: ItemID, from oldSummary: Summary?, to newSummary: Summary?)
        -> ItemUpdateKind
    {
        .reconfigure
    }
}
