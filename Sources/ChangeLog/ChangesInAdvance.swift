import Dispatch
import ListAdapter
import Synchronization

/// The changes of an append's first entry, computed by the appending caller on its own thread
/// from the snapshot it expects the entry to follow (the writer's tail when it submitted).
///
/// The writer uses them only if the entry does follow that snapshot — the same storage, so the
/// same snapshot — and otherwise computes the changes itself: a request before it failed, or
/// another process appended. The caller fulfils the slot right after submitting; a writer that
/// reaches the entry first waits for it, which takes no longer than computing the changes itself.
final class ChangesInAdvance: Sendable {
    /// The snapshot the changes start from.
    let base: LogSnapshot
    private let changes = Mutex<LogChanges?>(nil)
    private let fulfilled = DispatchSemaphore(value: 0)

    init(base: LogSnapshot) {
        self.base = base
    }

    /// Stores the changes from ``base``; called once.
    func fulfill(_ changes: LogChanges) {
        self.changes.withLock { $0 = changes }
        fulfilled.signal()
    }

    /// The changes, if they start from `snapshot`; waits until they are fulfilled.
    func changes(from snapshot: LogSnapshot) -> LogChanges? {
        guard base.sharesStorage(with: snapshot) else { return nil }
        if let changes = changes.withLock({ $0 }) {
            return changes
        }
        fulfilled.wait()
        return changes.withLock { $0 }
    }
}
