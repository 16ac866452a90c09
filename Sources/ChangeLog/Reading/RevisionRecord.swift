import Foundation
import ListAdapter
import ListFormat

/// One revision of a ``ChangeLog``: its number, when it was appended, its annotations, its
/// snapshot and the changes from the previous revision's snapshot to this one's.
///
/// ``jsonLine()`` writes it as the interchange format's revision line. Values read from the log are
/// exactly what was appended, with the time rounded down to the millisecond.
public struct RevisionRecord: Hashable, Sendable {
    /// The revision number: 1 for the first revision, with no gaps.
    public var revision: UInt64
    /// When the revision was appended, in milliseconds since 1970-01-01T00:00:00Z (UTC).
    public var millisecondsSince1970: Int64
    /// The revision's annotations (a commit, a request id, the reason for the change).
    public var meta: [String: String]
    /// The snapshot after the change.
    public var snapshot: LogSnapshot
    /// The changes that take the previous revision's snapshot to ``snapshot`` (from the empty
    /// snapshot for revision 1).
    public var changes: LogChanges

    /// Creates a record.
    public init(
        revision: UInt64, millisecondsSince1970: Int64, meta: [String: String], snapshot: LogSnapshot,
        changes: LogChanges
    ) {
        self.revision = revision
        self.millisecondsSince1970 = millisecondsSince1970
        self.meta = meta
        self.snapshot = snapshot
        self.changes = changes
    }

    /// When the revision was appended.
    public var time: Date {
        Timestamp.date(milliseconds: millisecondsSince1970)
    }
}

/// What an append stored: the revision it got, its time, and its changes.
public struct AppendedRevision: Hashable, Sendable {
    /// The revision number the snapshot was stored under.
    public var revision: UInt64
    /// When it was appended, in milliseconds since 1970-01-01T00:00:00Z (UTC).
    public var millisecondsSince1970: Int64
    /// The changes stored with it: computed from the previous snapshot, or the ones given.
    public var changes: LogChanges
    /// Whether the given changes, stored as they came, do not take the previous snapshot to this
    /// one; checked only for an entry that asks (`AppendEntry.reportsDisagreement`).
    package var changesDisagree = false

    /// Creates a description of an appended revision.
    public init(revision: UInt64, millisecondsSince1970: Int64, changes: LogChanges) {
        self.revision = revision
        self.millisecondsSince1970 = millisecondsSince1970
        self.changes = changes
    }

    /// When it was appended.
    public var time: Date {
        Timestamp.date(milliseconds: millisecondsSince1970)
    }
}

/// What ``ChangeLog/dropRevisions(before:)`` removed.
public struct RetentionReport: Hashable, Sendable {
    /// The oldest revision the log holds now.
    public var firstRevision: UInt64
    /// How many revisions were removed.
    public var droppedRevisions: Int
    /// How many snapshot chunks no remaining revision used and were removed.
    public var droppedChunks: Int

    /// Creates a report.
    public init(firstRevision: UInt64, droppedRevisions: Int, droppedChunks: Int) {
        self.firstRevision = firstRevision
        self.droppedRevisions = droppedRevisions
        self.droppedChunks = droppedChunks
    }
}
