/// A ``ListSource`` that answers per identifier: the ordered identifiers of a list, each
/// identifier's section and summary, and the items themselves, fetched one at a time only when
/// asked for.
///
/// This is ISListViewAdapter's data source in Swift concurrency, for `Sendable` types that are
/// not isolated to an actor (state behind a lock, a database); a model isolated to the main actor
/// conforms to ``ListSource`` instead. Only identifiers, section titles and summaries are held in
/// memory; items stay in the data source (a database, a server) until ``ListAdapter/item(at:)``
/// asks for one. On each invalidation the adapter calls ``identifiers()`` once, then
/// ``sectionTitle(for:)`` and ``summary(for:)`` once for every identifier and
/// ``sectionSummary(forTitle:)`` once for every section, all on the same task
/// and off the main actor; answer them from one consistent state (an identifier that
/// ``identifiers()`` returned should still have a title and a summary).
///
/// Sections appear in the order of their first identifier, and an identifier's section is the
/// one ``sectionTitle(for:)`` names, so a data source groups items simply by titling them.
///
/// When the data changes, call ``ListInvalidator/invalidate()`` on the invalidator the adapter
/// hands to ``ListSource/attach(_:)``, from any thread or actor.
public protocol ListDataSource<ItemID, Summary, Item>: ListSource {
    /// The type that identifies an item, unique across the list (restated so that a conforming
    /// type's ``identifiers()`` determines it).
    associatedtype ItemID
    /// The type that describes an item's current state (restated so that a conforming type's
    /// ``summary(for:)`` determines it).
    associatedtype Summary

    /// Every identifier of the list, in display order.
    ///
    /// - Throws: Any error; the adapter reports it to its observers as a ``ListAdapterError``
    ///   with code ``ListAdapterError/Code/identifiersFailed`` and keeps its last good snapshot.
    ///   Returning an identifier twice is reported as ``ListAdapterError/Code/duplicateIdentifier``,
    ///   unless the adapter was created with ``DuplicatePolicy/keepFirst``.
    func identifiers() async throws -> [ItemID]

    /// The title of the section that holds `id`, or `nil` for the section titled `""`.
    func sectionTitle(for id: ItemID) -> String?

    /// The summary of the item identified by `id`, or `nil` for none. An item whose summary is
    /// `nil` before and after an invalidation is never reported as updated.
    func summary(for id: ItemID) -> Summary?

    /// The summary of the section titled `title` (its header's state: a count, a date), or `nil`
    /// for none; asked once per section of each snapshot, after the section's first identifier.
    /// A section whose summary is `nil` before and after an invalidation is never reported as
    /// updated. The default implementation returns `nil`.
    func sectionSummary(forTitle title: String) -> SectionSummary?
}

extension ListDataSource {
    /// No section summary: sections of this data source never update.
    /// - Complexity: O(1).
    public func sectionSummary(forTitle title: String) -> SectionSummary? { nil }

    /// The identifiers of ``identifiers()``, with ``sectionTitle(for:)`` and ``summary(for:)``
    /// called for each of them, and ``sectionSummary(forTitle:)`` for each section, when the
    /// adapter builds the snapshot, on the adapter's task.
    ///
    /// - Complexity: That of ``identifiers()``; the per-identifier calls come later, off the
    ///   main actor.
    public func contents() async throws -> ListContents<ItemID, Summary, SectionSummary> {
        ListContents(
            identifiers: try await identifiers(), sectionTitle: { self.sectionTitle(for: $0) },
            summary: { self.summary(for: $0) }, sectionSummary: { self.sectionSummary(forTitle: $0) })
    }
}
