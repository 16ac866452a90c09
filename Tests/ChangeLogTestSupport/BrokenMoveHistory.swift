import ChangeLog
import ListAdapter

/// A short inbox history whose revision 7 carries a wrong move, as a crash report's export may:
/// its stored snapshot is right, but its stored changes move item `b` from `[0, 2]` to `[0, 5]`,
/// one past where `b` lands (`[0, 4]`; `[0, 5]` holds `f`). Every other revision stores the diff's
/// changes, and the history has inserts, deletes, updates and a second section around the move.
package enum BrokenMoveHistory {
    /// The revision whose stored changes are wrong.
    package static let brokenRevision: UInt64 = 7
    /// The item the wrong move moves, at `[0, 2]` of revision 6.
    package static let movedItem = "b"
    /// The item at the wrong move's `to`, `[0, 5]` of revision 7.
    package static let itemAtWrongTo = "f"

    /// The ten snapshots, revision 1 first.
    package static let snapshots: [LogSnapshot] = {
        func inbox(_ ids: [String], archive: [String]? = nil) -> LogSnapshot {
            func items(_ ids: [String]) -> [LogSnapshot.Item] {
                ids.map { id in
                    let parts = id.split(separator: ":", maxSplits: 1).map(String.init)
                    return LogSnapshot.Item(id: parts[0], summary: parts.count > 1 ? parts[1] : nil)
                }
            }
            var sections = [LogSnapshot.Section(title: "Inbox", items: items(ids))]
            if let archive { sections.append(LogSnapshot.Section(title: "Archive", items: items(archive))) }
            // The identifiers are distinct by construction.
            return try! LogSnapshot(sections: sections)
        }
        return [
            inbox(["a", "b", "c", "d", "e", "f"]),
            inbox(["a", "b", "c", "d", "e", "f", "g"]),
            inbox(["a", "b", "c:edited", "d", "e", "f", "g"]),
            inbox(["a", "b", "c:edited", "d", "f", "g"]),
            inbox(["a", "b", "c:edited", "d", "f", "g"], archive: ["x"]),
            inbox(["i", "a", "b", "c:edited", "d", "f", "g"], archive: ["x"]),
            inbox(["i", "a", "c:edited", "d", "b", "f", "g"], archive: ["x"]),
            inbox(["i", "a:read", "c:edited", "d", "b", "f", "g"], archive: ["x"]),
            inbox(["i", "a:read", "c:edited", "d", "b", "f"], archive: ["x"]),
            inbox(["j", "i", "a:read", "c:edited", "d", "b", "f"], archive: ["x"]),
        ]
    }()

    /// The history as records numbered from 1: the diff's changes everywhere but revision 7.
    package static var records: [RevisionRecord] {
        var previous = LogSnapshot()
        return snapshots.enumerated().map { offset, snapshot in
            let revision = UInt64(offset + 1)
            let changes = revision == brokenRevision ? brokenChanges : previous.changes(to: snapshot)
            previous = snapshot
            return RevisionRecord(
                revision: revision, millisecondsSince1970: 1_795_000_000_000 + Int64(offset) * 1000,
                meta: ["step": String(revision)], snapshot: snapshot, changes: changes)
        }
    }

    /// Revision 7's stored changes: the move of `b` with its `to` off by one.
    package static var brokenChanges: LogChanges {
        LogChanges(movedItems: [.init(from: ItemPath(section: 0, item: 2), to: ItemPath(section: 0, item: 5))])
    }

    /// Appends the history to `log` (an empty log), storing each revision's changes as given.
    package static func append(to log: ChangeLog) async throws {
        for record in records {
            _ = try await log.append(record.snapshot, changes: record.changes, meta: record.meta)
        }
    }
}
