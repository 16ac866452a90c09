import ChangeLog

// The size budget of a log file: past it, the writer drops the oldest revisions.
extension FileLogStorage {
    /// Sets the size the writer keeps the file under; `nil` for none.
    func setSizeBudget(_ budget: Int?) {
        state.withLock { $0.sizeBudget = budget }
    }

    /// When the file went past its budget: the oldest revision whose record starts in the last
    /// half of the budget's bytes of the file (the latest at the least), so that the revisions
    /// kept, with the chunks of the oldest one's snapshot, fit well under the budget. `nil` when
    /// the file is within its budget, has none, or keeps a single revision.
    func revisionToKeepFrom() -> UInt64? {
        state.withLock { state -> UInt64? in
            guard let budget = state.sizeBudget, state.index.end > UInt64(budget), state.index.records.count > 1
            else { return nil }
            let from = state.index.end - min(state.index.end, UInt64(budget / 2))
            let records = state.index.records
            let kept = records.firstIndex { $0.offset >= from } ?? records.count - 1
            return kept > 0 ? state.index.firstRevision + UInt64(kept) : nil
        }
    }
}
