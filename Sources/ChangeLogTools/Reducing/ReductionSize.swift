/// The size of a history as a reduction measures it. Sizes order by revisions, then items, then
/// sections, then the total number of items over every snapshot.
public struct ReductionSize: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number of revisions.
    public var revisions: Int
    /// The number of distinct item identifiers across every snapshot.
    public var items: Int
    /// The number of distinct section titles across every snapshot.
    public var sections: Int
    /// The number of items summed over every snapshot.
    public var itemOccurrences: Int

    /// Creates a size.
    public init(revisions: Int = 0, items: Int = 0, sections: Int = 0, itemOccurrences: Int = 0) {
        self.revisions = revisions
        self.items = items
        self.sections = sections
        self.itemOccurrences = itemOccurrences
    }

    /// The size of `history`.
    /// - Complexity: O(*n*) expected, where *n* counts the items of every snapshot.
    public init(_ history: ReducibleHistory) {
        self.init(
            revisions: history.revisionCount, items: history.distinctItemCount,
            sections: history.distinctSectionCount,
            itemOccurrences: history.revisions.reduce(0) { $0 + $1.snapshot.itemCount })
    }

    /// Orders by revisions, then items, then sections, then item occurrences.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.revisions, lhs.items, lhs.sections, lhs.itemOccurrences)
            < (rhs.revisions, rhs.items, rhs.sections, rhs.itemOccurrences)
    }

    /// For example `3 revisions, 4 items, 2 sections`.
    public var description: String {
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "\(plural(revisions, "revision")), \(plural(items, "item")), \(plural(sections, "section"))"
    }
}
