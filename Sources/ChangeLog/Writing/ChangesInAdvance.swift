import ListAdapter
import Synchronization

/// The changes of an append's entries, computed by the appending caller on its own thread while
/// the writer works: each entry's changes from the snapshot it is expected to follow (for the
/// first entry, the writer's tail when the request was submitted; for the others, the entry
/// before it).
///
/// The writer uses an entry's changes only if the entry does follow that snapshot (the same
/// storage, so the same snapshot) and they are ready when it needs them; otherwise it computes
/// them itself: a request before it failed, another process appended, or the caller is behind.
/// The writer never waits for a caller's changes. Since the writer cuts each entry's chunks
/// before it takes the entry's changes, a caller diffing entry after entry stays ahead of it,
/// and a large batch is diffed and chunked on two threads at once.
final class ChangesInAdvance: Sendable {
    /// The entries whose changes are computed.
    private let entries: [ChangeLog.AppendEntry]
    /// The snapshot the first entry is expected to follow; `nil` when unknown.
    private let tail: LogSnapshot?
    private let changes: Mutex<[LogChanges?]>
    /// Whether the writer is done with the entries (``abandon()``).
    private let abandoned = Atomic<Bool>(false)

    /// Slots for `entries`: the first follows `tail`, each other one the entry before it.
    /// O(1), so that it can be made under the writer's lock.
    init(entries: [ChangeLog.AppendEntry], tail: LogSnapshot?) {
        self.entries = entries
        self.tail = tail
        self.changes = Mutex([])
    }

    /// The snapshot entry `index`'s changes start from; `nil` where the caller computes none
    /// (changes given, or no prediction of the first entry's predecessor).
    private func base(of index: Int) -> LogSnapshot? {
        guard entries[index].changes == nil else { return nil }
        return index == 0 ? tail : entries[index - 1].snapshot
    }

    /// Computes each entry's changes in order, from its base, publishing each as soon as it is
    /// done; stops before the next entry once the writer has ``abandon()``ed them.
    func compute() {
        changes.withLock { $0 = [LogChanges?](repeating: nil, count: entries.count) }
        for index in entries.indices {
            guard !abandoned.load(ordering: .relaxed) else { return }
            guard let base = base(of: index) else { continue }
            let computed = base.changesFollowingEdits(to: entries[index].snapshot)
            changes.withLock { $0[index] = computed }
        }
    }

    /// Tells ``compute()`` that the writer no longer needs these changes: their transaction has
    /// ended. The caller computing them goes on with its own task only once it returns, so it
    /// must not go on diffing a long batch for nothing.
    func abandon() {
        abandoned.store(true, ordering: .relaxed)
    }

    /// The changes of entry `index`, if they start from `snapshot` and are ready.
    func changes(at index: Int, from snapshot: LogSnapshot) -> LogChanges? {
        guard index < entries.count, let base = base(of: index), base.sharesStorage(with: snapshot) else {
            return nil
        }
        return changes.withLock { index < $0.count ? $0[index] : nil }
    }
}
