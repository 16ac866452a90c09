import ListAdapter

/// What ``ChangeLog/replay(_:into:willApply:progress:)`` did: the revisions it fed to the
/// renderer and, when the renderer refused a batch, which one.
public struct ReplayReport: Sendable, CustomStringConvertible {
    /// The revisions replayed, or `nil` when the whole log was asked for and it is empty.
    public var range: ClosedRange<UInt64>?
    /// How many batches the renderer accepted (the reload that starts a replay is not a batch).
    public var batchesApplied: Int
    /// The first batch the renderer refused, or `nil` when it accepted every one.
    public var refusal: ReplayRefusal?

    /// Creates a report.
    public init(range: ClosedRange<UInt64>?, batchesApplied: Int, refusal: ReplayRefusal?) {
        self.range = range
        self.batchesApplied = batchesApplied
        self.refusal = refusal
    }

    /// Whether the renderer accepted every batch of the range.
    public var isComplete: Bool { refusal == nil }

    /// The refusal's description when the renderer refused a batch (`revision 7: ...`);
    /// otherwise what was replayed, for example `replayed revisions 1 to 20: 20 batches applied`.
    public var description: String {
        if let refusal {
            return refusal.description
        }
        guard let range else { return "the log is empty: nothing to replay" }
        let batches = batchesApplied == 1 ? "1 batch" : "\(batchesApplied) batches"
        if range.lowerBound == range.upperBound {
            return "replayed revision \(range.lowerBound): \(batches) applied"
        }
        return "replayed revisions \(range.lowerBound) to \(range.upperBound): \(batches) applied"
    }
}

/// The first batch a renderer refused during a replay: its revision and the renderer's reason.
public struct ReplayRefusal: Error, Sendable, CustomStringConvertible {
    /// The revision whose changes the renderer refused.
    public var revision: UInt64
    /// The renderer's error, as text: for `StrictListView`, its `BatchUpdateError` message in
    /// UIKit's words.
    public var message: String
    /// The refused batch.
    public var changes: LogChanges

    /// Creates a refusal.
    public init(revision: UInt64, message: String, changes: LogChanges = LogChanges()) {
        self.revision = revision
        self.message = message
        self.changes = changes
    }

    /// `revision 7: the renderer refused its changes: <message>`.
    public var description: String {
        "revision \(revision): the renderer refused its changes: \(message)"
    }
}
