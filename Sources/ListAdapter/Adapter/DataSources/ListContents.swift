/// A list as a ``ListSource`` states it: a value the source returns in one call, from which the
/// adapter builds a ``ListSnapshot`` off the main actor.
///
/// A value type's elements are handed over as they are, with how to read an identifier, a section
/// title and a summary from one of them; the reading happens when ``snapshot()`` runs, on the
/// adapter's diff queue, not where the value was made:
///
/// ```swift
/// ListContents(todos, id: \.id, sectionTitle: \.list, summary: \.title)
/// ```
///
/// Making it from an array copies a reference only (arrays are copy-on-write): a main-actor model
/// returns it in constant time. If the model mutates the array while the adapter still reads the
/// copy, that mutation copies the array once, as any copy-on-write value does.
///
/// Sections appear in the order the contents give (`sectionOrder`, shown even when empty), then
/// in the order of their first element; inside a section, elements keep their relative order. A `nil` section title is the section titled `""`, a `nil` summary (of an item
/// or a section) is none.
public struct ListContents<
    ItemID: Hashable & Sendable, Summary: Hashable & Sendable, SectionSummary: Hashable & Sendable
>: Sendable {
    /// The snapshot type the contents build.
    public typealias Snapshot = ListSnapshot<ItemID, Summary, SectionSummary>

    /// What ``snapshotKeepingFirstOccurrences()`` returns.
    public typealias KeptFirstOccurrences = (snapshot: Snapshot, dropped: [DroppedDuplicate<ItemID>])

    private enum Storage: Sendable {
        case snapshot(Snapshot)
        case sections([Snapshot.Section])
        /// Builds the snapshot; with `keepFirst`, keeping the first occurrence of each identifier.
        case deferred(@Sendable (_ keepFirst: Bool) throws(ListSnapshotError) -> KeptFirstOccurrences)
    }

    private let storage: Storage

    /// Contents that are `snapshot`, as it is: an app that already holds its list as a snapshot.
    ///
    /// - Complexity: O(1).
    public init(_ snapshot: Snapshot) {
        storage = .snapshot(snapshot)
    }

    /// Contents made of `sections`, as they are: for an app that holds its list as sections
    /// (a server's response, a feed), which may repeat a title or an identifier. They are
    /// checked when ``snapshot()`` or ``snapshotKeepingFirstOccurrences()`` runs.
    ///
    /// - Complexity: O(1) (a copy of `sections`).
    public init(sections: [Snapshot.Section]) {
        storage = .sections(sections)
    }

    /// Contents made of `elements`, in display order, read with `id`, `sectionTitle` and
    /// `summary` when ``snapshot()`` runs.
    ///
    /// The elements are grouped by section title as they come: the model need not sort them by
    /// section first. Inside a section, elements keep their relative order.
    ///
    /// - Parameters:
    ///   - elements: the list's elements in display order; kept as they are until ``snapshot()``.
    ///   - id: an element's identifier, unique across the list (an adapter with
    ///     ``DuplicatePolicy/keepFirst`` drops an element that repeats one).
    ///   - sectionTitle: the title of an element's section, or `nil` for `""`; by default every
    ///     element is in the section titled `""`.
    ///   - summary: an element's summary, or `nil` for none; by default no element has one (and
    ///     none is ever updated).
    ///   - sectionOrder: the sections the list shows, in display order, each one shown even when
    ///     no element is in it (an empty "Pinned" section keeps its header). A section that
    ///     elements name but `sectionOrder` does not follows the ordered ones, in the order of its
    ///     first element. By default (`[]`) sections appear in the order of their first element
    ///     and none is empty. A title listed twice is a duplicate section title, as in
    ///     ``ListSnapshot/init(sections:)``.
    ///   - sectionSummary: the summary of the section with a title, or `nil` for none, asked once
    ///     per section; by default no section has one (and none is ever updated).
    /// - Complexity: O(1) here (a copy of `elements`); ``snapshot()`` reads each element once.
    public init<Elements: Sequence & Sendable>(
        _ elements: Elements,
        id: @escaping @Sendable (Elements.Element) -> ItemID,
        sectionTitle: @escaping @Sendable (Elements.Element) -> String? = { _ in nil },
        summary: @escaping @Sendable (Elements.Element) -> Summary? = { _ in nil },
        sectionOrder: [String] = [],
        sectionSummary: @escaping @Sendable (String) -> SectionSummary? = { _ in nil }
    ) {
        self.init(
            elements,
            grouping: ElementGrouping(
                id: id, sectionTitle: sectionTitle, summary: summary, sectionOrder: sectionOrder,
                sectionSummary: .ofTitle(sectionSummary)))
    }

    /// Contents made of `elements`, in display order, whose sections' summaries are computed
    /// from the elements in them (an unread count, a total): `sectionSummary` is called once
    /// per section with its title and its elements, in display order, when ``snapshot()`` runs.
    ///
    /// ```swift
    /// ListContents(
    ///     messages, id: \.id, sectionTitle: \.folder, summary: \.subject,
    ///     sectionOrder: ["Pinned", "Inbox"],
    ///     sectionSummary: { _, messages in "\(messages.filter(\.isUnread).count) unread" })
    /// ```
    ///
    /// The summary changes when the count does, so the section's header is updated then, and
    /// only then. Elements dropped as duplicates under ``DuplicatePolicy/keepFirst`` are not
    /// passed. Every other parameter is as for the initializer whose `sectionSummary` reads a
    /// title alone.
    ///
    /// - Complexity: O(1) here; ``snapshot()`` reads each element once and keeps each section's
    ///   elements until its summary is computed.
    public init<Elements: Sequence & Sendable>(
        _ elements: Elements,
        id: @escaping @Sendable (Elements.Element) -> ItemID,
        sectionTitle: @escaping @Sendable (Elements.Element) -> String? = { _ in nil },
        summary: @escaping @Sendable (Elements.Element) -> Summary? = { _ in nil },
        sectionOrder: [String] = [],
        sectionSummary: @escaping @Sendable (_ title: String, _ elements: [Elements.Element]) -> SectionSummary?
    ) {
        self.init(
            elements,
            grouping: ElementGrouping(
                id: id, sectionTitle: sectionTitle, summary: summary, sectionOrder: sectionOrder,
                sectionSummary: .ofElements(sectionSummary)))
    }

    /// Contents that group `elements` as `grouping` says, when ``snapshot()`` runs.
    private init<Elements: Sequence & Sendable>(_ elements: Elements, grouping: ElementGrouping<Elements.Element>) {
        storage = .deferred { (keepFirst) throws(ListSnapshotError) in
            try grouping.snapshot(of: elements, keepingFirst: keepFirst)
        }
    }

    /// Contents made of `identifiers`, in display order, with each one's section title and
    /// summary asked of `sectionTitle` and `summary`, and each section's summary of
    /// `sectionSummary`, when ``snapshot()`` runs; `sectionOrder` is as for contents made of elements: the
    /// sections shown in that order, even when empty.
    ///
    /// - Complexity: O(1) here; ``snapshot()`` calls `sectionTitle` and `summary` once per
    ///   identifier, `sectionSummary` once per section.
    public init(
        identifiers: [ItemID],
        sectionTitle: @escaping @Sendable (ItemID) -> String? = { _ in nil },
        summary: @escaping @Sendable (ItemID) -> Summary? = { _ in nil },
        sectionOrder: [String] = [],
        sectionSummary: @escaping @Sendable (String) -> SectionSummary? = { _ in nil }
    ) {
        self.init(
            identifiers, id: { $0 }, sectionTitle: sectionTitle, summary: summary, sectionOrder: sectionOrder,
            sectionSummary: sectionSummary)
    }

    /// The snapshot these contents describe: ``DuplicatePolicy/refuse``.
    ///
    /// - Throws: ``ListSnapshotError`` naming a title or an identifier listed twice, with both
    ///   positions (for contents made of a flat sequence, positions once grouped into sections).
    /// - Complexity: O(*n*) expected, where *n* is the number of elements; O(1) for contents
    ///   made of a snapshot.
    public func snapshot() throws(ListSnapshotError) -> Snapshot {
        switch storage {
        case .snapshot(let snapshot): snapshot
        case .sections(let sections): try Snapshot(sections: sections)
        case .deferred(let build): try build(false).snapshot
        }
    }

    /// The snapshot these contents describe under ``DuplicatePolicy/keepFirst``: the first
    /// occurrence of each title and identifier is kept, the later ones are dropped and
    /// reported, in the order of the contents, with their positions in the contents as given
    /// (``DroppedDuplicate``).
    ///
    /// Contents made of a flat sequence (elements, identifiers) never repeat a title, since they
    /// are grouped by it: an element whose identifier an earlier element has is dropped (its
    /// title and summary are not read, and it makes no section), reported at `[offset]`, its
    /// offset in the sequence.
    /// Contents made of sections follow ``ListSnapshot/keepingFirstOccurrences(in:)``.
    ///
    /// - Complexity: O(*n*) expected, where *n* is the number of elements; O(1) for contents
    ///   made of a snapshot.
    public func snapshotKeepingFirstOccurrences() -> KeptFirstOccurrences {
        switch storage {
        case .snapshot(let snapshot):
            return (snapshot, [])
        case .sections(let sections):
            return Snapshot.keepingFirstOccurrences(in: sections)
        case .deferred(let build):
            do {
                return try build(true)
            } catch {
                preconditionFailure("contents kept unique still repeat: \(error)")
            }
        }
    }
}
