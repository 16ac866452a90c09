import ChangeLog
import ListAdapter

/// A history to reduce: a sequence of revisions, each with its snapshot, its changes, its
/// annotations and the number it had in the log or file it came from.
///
/// The history starts from the empty snapshot: its first revision's changes take the empty
/// snapshot to that revision's snapshot. A revision's changes are *stored* when they are the ones
/// the log or file recorded for it and its predecessor in this history is the one they were
/// recorded against (the revision numbered one less, or the empty snapshot for revision 1);
/// otherwise they are *recomputed* by the diff (`ListSnapshot.changes(to:)`) from the previous
/// snapshot of this history, and so always consistent with the snapshots.
public struct ReducibleHistory: Hashable, Sendable {
    /// One revision of a history.
    public struct Revision: Hashable, Sendable {
        /// The revision's number in the log or file the history was read from.
        public var originalRevision: UInt64
        /// When the revision was appended, in milliseconds since 1970-01-01T00:00:00Z (UTC).
        public var millisecondsSince1970: Int64
        /// The revision's annotations.
        public var meta: [String: String]
        /// The snapshot after the revision.
        public var snapshot: LogSnapshot
        /// The changes from the previous revision's snapshot in this history (the empty snapshot
        /// for the first) to ``snapshot``.
        public var changes: LogChanges
        /// Whether ``changes`` are the ones recorded for this revision, against its recorded
        /// predecessor; `false` when the diff computed them.
        public var changesAreStored: Bool

        /// Creates a revision.
        public init(
            originalRevision: UInt64, millisecondsSince1970: Int64, meta: [String: String], snapshot: LogSnapshot,
            changes: LogChanges, changesAreStored: Bool
        ) {
            self.originalRevision = originalRevision
            self.millisecondsSince1970 = millisecondsSince1970
            self.meta = meta
            self.snapshot = snapshot
            self.changes = changes
            self.changesAreStored = changesAreStored
        }
    }

    /// The revisions, oldest first.
    public var revisions: [Revision]

    /// Creates a history from its revisions.
    public init(revisions: [Revision] = []) {
        self.revisions = revisions
    }

    /// Creates a history from records read from a log or a file, oldest first.
    ///
    /// A record keeps its stored changes when the record before it in `records` is its recorded
    /// predecessor (numbered one less), or when it is revision 1 and comes first; otherwise its
    /// changes are recomputed from the previous record's snapshot (from the empty snapshot for the
    /// first record).
    /// - Complexity: O(*n*) for the records whose changes are kept, plus a diff for each other.
    public init(records: some Sequence<RevisionRecord>) {
        var revisions: [Revision] = []
        var previous: RevisionRecord?
        for record in records {
            let stored =
                if let previous { previous.revision &+ 1 == record.revision } else { record.revision == 1 }
            let changes = stored ? record.changes : (previous?.snapshot ?? LogSnapshot()).changes(to: record.snapshot)
            revisions.append(
                Revision(
                    originalRevision: record.revision, millisecondsSince1970: record.millisecondsSince1970,
                    meta: record.meta, snapshot: record.snapshot, changes: changes, changesAreStored: stored))
            previous = record
        }
        self.revisions = revisions
    }

    /// The history as records numbered from 1 with no gaps, as the interchange format's revision
    /// lines number them; times and annotations are the original ones.
    public var records: [RevisionRecord] {
        revisions.enumerated().map { offset, revision in
            RevisionRecord(
                revision: UInt64(offset + 1), millisecondsSince1970: revision.millisecondsSince1970,
                meta: revision.meta, snapshot: revision.snapshot, changes: revision.changes)
        }
    }

    /// The number of revisions.
    public var revisionCount: Int { revisions.count }

    /// The number of distinct item identifiers across every snapshot.
    /// - Complexity: O(*n*) expected, where *n* counts the items of every snapshot.
    public var distinctItemCount: Int {
        var ids = Set<String>()
        for revision in revisions {
            for section in revision.snapshot.sections {
                for item in section.items { ids.insert(item.id) }
            }
        }
        return ids.count
    }

    /// The number of distinct section titles across every snapshot.
    /// - Complexity: O(*s*) expected, where *s* counts the sections of every snapshot.
    public var distinctSectionCount: Int {
        Set(revisions.flatMap { $0.snapshot.sections.map(\.title) }).count
    }
}
