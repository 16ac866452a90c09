import ChangeLog
import ListAdapter
import ListFormat

/// A renderer for renderers in other languages: one JSON object per reload or batch, on one
/// line each: `{"revision":3,"reload":{"sections":[...]}}` or
/// `{"revision":4,"changes":{...}}` (the interchange format's snapshot and changes JSON).
///
/// An item update carries `"reload": true` when its kind is `ItemUpdateKind.reload` (the data
/// source asked for a new cell) and nothing when it is a reconfigure, as the interchange format
/// writes it; the receiving renderer stages the changes for its own view.
public final class JSONLinesRenderer: ListRenderer {
    /// The identifiers' type: strings, as the log stores them.
    public typealias ItemID = String
    /// The summaries' type: strings, as the log stores them.
    public typealias Summary = String
    /// The section summaries' type: strings, as the log stores them.
    public typealias SectionSummary = String

    /// The revision the next reload or batch belongs to, written as `"revision"` when set.
    public var revision: UInt64?
    private let write: (String) -> Void

    /// Creates a renderer that hands each line to `write`.
    public init(write: @escaping (String) -> Void) {
        self.write = write
    }

    /// Writes `{"revision":r,"reload":{snapshot}}`.
    public func reloadData(_ snapshot: LogSnapshot) {
        write("{\(prefix)\"reload\":\(snapshot.formatJSON())}")
    }

    /// Writes `{"revision":r,"changes":{changes}}`.
    public func performBatchUpdates(_ changes: LogChanges, resultingIn snapshot: LogSnapshot) {
        writeBatch(changes)
    }

    /// Writes `{"revision":r,"changes":{changes}}`, as ``performBatchUpdates(_:resultingIn:)``
    /// does: the line needs no snapshot, so a replay can read the changes alone
    /// (`ChangeLog.replayChanges(_:reload:apply:progress:)`).
    public func writeBatch(_ changes: LogChanges) {
        write("{\(prefix)\"changes\":\(changes.formatJSON())}")
    }

    private var prefix: String { revision.map { "\"revision\":\($0)," } ?? "" }
}
