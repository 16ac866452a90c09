import ListAdapter

/// A snapshot with its optional string annotations: one line of a `replay import` file.
///
/// JSON: `{"meta": {"commit": "3f2a9c"}, "sections": [...]}`, `meta` optional.
public struct AnnotatedSnapshot<
    ItemID: Hashable & Sendable, Summary: Hashable & Sendable, SectionSummary: Hashable & Sendable
>: Hashable, Sendable {
    /// Free annotations kept with the revision (a commit, a request id, a reason).
    public var meta: [String: String]
    /// The snapshot.
    public var snapshot: ListSnapshot<ItemID, Summary, SectionSummary>

    /// Creates an annotated snapshot.
    /// - Complexity: O(1).
    public init(meta: [String: String] = [:], snapshot: ListSnapshot<ItemID, Summary, SectionSummary>) {
        self.meta = meta
        self.snapshot = snapshot
    }
}
