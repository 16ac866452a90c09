/// What a ``ListAdapter`` shows: the ordered identifiers of a list, each identifier's section and
/// summary, and the items themselves, fetched one at a time only when asked for.
///
/// This is ISListViewAdapter's data source in Swift concurrency. Only identifiers, section titles
/// and summaries are held in memory; items stay in the data source (a database, a server) until
/// ``ListAdapter/item(at:)`` asks for one. On each invalidation the adapter calls
/// ``identifiers()`` once, then ``sectionTitle(for:)`` and ``summary(for:)`` once for every
/// identifier, all on the same task and off the main actor; answer them from one consistent state
/// (an identifier that ``identifiers()`` returned should still have a title and a summary).
///
/// Sections appear in the order of their first identifier, and an identifier's section is the
/// one ``sectionTitle(for:)`` names, so a data source groups items simply by titling them.
///
/// When the data changes, call ``ListInvalidator/invalidate()`` on the invalidator the adapter
/// hands to ``attach(_:)``, from any thread or actor.
public protocol ListDataSource<ItemID, Summary, Item>: Sendable {
    /// The type that identifies an item, unique across the list.
    associatedtype ItemID: Hashable & Sendable
    /// The type that describes an item's current state; a changed summary is an update.
    associatedtype Summary: Hashable & Sendable
    /// The type of the items the data source fetches.
    associatedtype Item: Sendable

    /// Every identifier of the list, in display order.
    ///
    /// - Throws: Any error; the adapter reports it to its observers as a ``ListAdapterError``
    ///   with code ``ListAdapterError/Code/identifiersFailed`` and keeps its last good snapshot.
    ///   Returning an identifier twice is reported as ``ListAdapterError/Code/duplicateIdentifier``.
    func identifiers() async throws -> [ItemID]

    /// The title of the section that holds `id`, or `nil` for the section titled `""`.
    func sectionTitle(for id: ItemID) -> String?

    /// The summary of the item identified by `id`, or `nil` for none. An item whose summary is
    /// `nil` before and after an invalidation is never reported as updated.
    func summary(for id: ItemID) -> Summary?

    /// Fetches the item identified by `id`.
    ///
    /// - Throws: Any error; ``ListAdapter/item(at:)`` reports it as a ``ListAdapterError`` with
    ///   code ``ListAdapterError/Code/itemFetchFailed``.
    func item(for id: ItemID) async throws -> Item

    /// Called when an adapter starts using this data source, with the invalidator to call when
    /// the data changes. The default implementation does nothing.
    func attach(_ invalidator: ListInvalidator)
}

extension ListDataSource {
    /// Does nothing: a data source that never changes, or that its owner invalidates through the
    /// adapter directly, does not need the invalidator.
    /// - Complexity: O(1).
    public func attach(_ invalidator: ListInvalidator) {}
}
