import ListAdapter
import Synchronization

/// The changes of an append's first entry, computed by the appending caller on its own thread
/// from the snapshot it expects the entry to follow (the writer's tail when it submitted).
///
/// The writer uses them only if the entry does follow that snapshot (the same storage, so the
/// same snapshot) and they are ready when it needs them; otherwise it computes the changes
/// itself: a request before it failed, another process appended, or the caller has not finished.
/// The writer never waits for a caller while it holds LMDB's write lock.
final class ChangesInAdvance: Sendable {
    /// The snapshot the changes start from.
    let base: LogSnapshot
    private let changes = Mutex<LogChanges?>(nil)

    init(base: LogSnapshot) {
        self.base = base
    }

    /// Stores the changes from ``base``; called once.
    func fulfill(_ changes: LogChanges) {
        self.changes.withLock { $0 = changes }
    }

    /// The changes, if they start from `snapshot` and are ready.
    func changes(from snapshot: LogSnapshot) -> LogChanges? {
        guard base.sharesStorage(with: snapshot) else { return nil }
        return changes.withLock { $0 }
    }
}
