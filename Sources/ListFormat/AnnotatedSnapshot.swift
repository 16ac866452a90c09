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
    /// What a revision line recorded besides its snapshot and `meta`, when the read asked for it
    /// and the line has `changes`; `nil` for a snapshot line, a revision line without `changes`,
    /// or a read that leaves them out.
    public var recorded: Recorded?

    /// What a revision line recorded: its changes, and its `revision` and `time` when it has them.
    public struct Recorded: Hashable, Sendable {
        /// The line's `revision`, or `nil` when it has none.
        public var revision: UInt64?
        /// The line's `time` in milliseconds since 1970-01-01T00:00:00Z, or `nil` when it has none.
        public var millisecondsSince1970: Int64?
        /// The line's `changes`, from the previous revision's snapshot to ``AnnotatedSnapshot/snapshot``.
        public var changes: ListChanges<ItemID, Summary, SectionSummary>

        /// Creates what a revision line recorded.
        /// - Complexity: O(1).
        public init(
            revision: UInt64? = nil, millisecondsSince1970: Int64? = nil,
            changes: ListChanges<ItemID, Summary, SectionSummary>
        ) {
            self.revision = revision
            self.millisecondsSince1970 = millisecondsSince1970
            self.changes = changes
        }
    }

    /// Creates an annotated snapshot.
    /// - Complexity: O(1).
    public init(
        meta: [String: String] = [:], snapshot: ListSnapshot<ItemID, Summary, SectionSummary>,
        recorded: Recorded? = nil
    ) {
        self.meta = meta
        self.snapshot = snapshot
        self.recorded = recorded
    }
}
