import Foundation
import ListAdapter
import ListFormat

/// One revision of a ``ChangeLog`` without its snapshot: its number, time, annotations, the
/// changes from the previous revision's snapshot, and the snapshot's size as the record states it.
///
/// ``ChangeLog/changes(in:batchSize:)`` reads these from the revision records alone: no snapshot
/// chunk is read or decoded, so they come at a fraction of the cost of full records. Every byte
/// read is checked against its checksum; a snapshot chunk's damage, which such a read does not
/// reach, is reported by the reads that need the snapshot and by ``ChangeLog/verify(_:progress:)``.
public struct RevisionChanges: Hashable, Sendable {
    /// The revision number.
    public var revision: UInt64
    /// When the revision was appended, in milliseconds since 1970-01-01T00:00:00Z (UTC).
    public var millisecondsSince1970: Int64
    /// The revision's annotations.
    public var meta: [String: String]
    /// The changes that take the previous revision's snapshot to this one's.
    public var changes: LogChanges
    /// The number of sections of the revision's snapshot, as its record states it.
    public var sectionCount: Int
    /// The number of items of the revision's snapshot, as its record states it.
    public var itemCount: Int

    /// Creates the description of a revision's changes.
    public init(
        revision: UInt64, millisecondsSince1970: Int64, meta: [String: String], changes: LogChanges,
        sectionCount: Int, itemCount: Int
    ) {
        self.revision = revision
        self.millisecondsSince1970 = millisecondsSince1970
        self.meta = meta
        self.changes = changes
        self.sectionCount = sectionCount
        self.itemCount = itemCount
    }

    /// `record` without its snapshot: what ``ChangeLog/changes(in:batchSize:)`` reads for it.
    public init(_ record: RevisionRecord) {
        self.init(
            revision: record.revision, millisecondsSince1970: record.millisecondsSince1970, meta: record.meta,
            changes: record.changes, sectionCount: record.snapshot.sectionCount,
            itemCount: record.snapshot.itemCount)
    }

    /// When the revision was appended.
    public var time: Date {
        Timestamp.date(milliseconds: millisecondsSince1970)
    }

    /// The append time as the interchange format writes it (`2026-11-20T10:00:00.000Z`).
    public var timeString: String { Timestamp.iso8601(milliseconds: millisecondsSince1970) }

    /// The revision as a revision line without its snapshot, without the trailing newline:
    /// `{"revision":1,"time":"…","meta":{…},"changes":{…}}`, keys in that order, meta keys sorted,
    /// no spaces; the server's `changes-only=1` lines.
    ///
    /// - Complexity: O(*n*) in the size of the output.
    public func jsonLine() -> String {
        var bytes: [UInt8] = []
        RevisionLine.appendChangesOnlyLine(
            revision: revision, millisecondsSince1970: millisecondsSince1970, meta: meta, changes: changes,
            to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
