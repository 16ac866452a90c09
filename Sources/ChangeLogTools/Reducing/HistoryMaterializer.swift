import ChangeLog
import ListAdapter
import Synchronization

/// Turns a ``HistoryShape`` into the history it describes, from the original history.
///
/// A kept revision whose predecessor in the candidate is its predecessor in the original, and
/// whose changes were stored, keeps its stored changes when the oracle reads stored changes
/// (``ChangeSource/stored``), carried over to the candidate's sections and items by
/// ``ChangesProjection``; every other revision gets the diff from the previous kept snapshot.
/// Diffs between unrewritten snapshots are computed once and shared by every candidate.
final class HistoryMaterializer: Sendable {
    let original: ReducibleHistory
    private let diffs = Mutex<[Pair: LogChanges]>([:])

    private struct Pair: Hashable {
        var from: Int
        var to: Int
    }

    init(original: ReducibleHistory) {
        self.original = original
    }

    /// The history `shape` describes, with changes from `source`.
    /// - Complexity: O(*n*) in the kept snapshots' items when the shape rewrites them, plus a diff
    ///   for each revision whose changes are recomputed and not cached.
    func history(_ shape: HistoryShape, changes source: ChangeSource) -> ReducibleHistory {
        let originals = original.revisions
        let transform = SnapshotTransform(shape: shape, snapshots: shape.kept.map { originals[$0].snapshot })
        var revisions: [ReducibleHistory.Revision] = []
        revisions.reserveCapacity(shape.kept.count)
        var previousOffset: Int?
        var previous = LogSnapshot()
        for offset in shape.kept {
            var revision = originals[offset]
            let snapshot = transform.snapshot(revision.snapshot)
            let adjacent = offset == (previousOffset.map { $0 + 1 } ?? 0)
            if source == .stored && revision.changesAreStored && adjacent {
                if !shape.keepsStructure {
                    let projection = ChangesProjection(
                        old: previousOffset.map { originals[$0].snapshot } ?? LogSnapshot(), new: revision.snapshot,
                        rewrittenOld: previous, rewrittenNew: snapshot, transform: transform)
                    revision.changes = projection.project(revision.changes)
                }
            } else {
                revision.changes = diff(
                    from: previousOffset, to: offset, previous, snapshot, cached: shape.keepsStructure)
                revision.changesAreStored = false
            }
            revision.snapshot = snapshot
            revisions.append(revision)
            previous = snapshot
            previousOffset = offset
        }
        return ReducibleHistory(revisions: revisions)
    }

    private func diff(
        from fromOffset: Int?, to toOffset: Int, _ old: LogSnapshot, _ new: LogSnapshot, cached: Bool
    ) -> LogChanges {
        guard cached else { return old.changes(to: new) }
        let pair = Pair(from: fromOffset ?? -1, to: toOffset)
        if let changes = diffs.withLock({ $0[pair] }) { return changes }
        let changes = old.changes(to: new)
        diffs.withLock { $0[pair] = changes }
        return changes
    }
}
