import ListAdapter

extension ChangeLog {
    /// Feeds the revisions of `range` to a renderer that holds the list itself, as
    /// ``replay(_:into:willApply:progress:)`` feeds a `ListRenderer`, but reading each
    /// revision's changes alone: only the snapshot the range starts from is read.
    ///
    /// `reload` first gets that snapshot, with the revision it belongs to: the empty snapshot
    /// (revision 0) for a range from revision 1; revision *r* − 1's for a range from *r* when it
    /// is stored; revision *r*'s own when *r* − 1 was dropped by retention (its changes are then
    /// not applied). `apply` then gets every later revision's changes, in order.
    ///
    /// Such a renderer trusts the stored changes to lead from one snapshot to the next; checking
    /// them against the stored snapshots is what ``verify(_:progress:)`` and a strict renderer
    /// fed by ``replay(_:into:willApply:progress:)`` do.
    ///
    /// - Parameters:
    ///   - range: the revisions to replay; `nil` for every revision the log holds.
    ///   - reload: takes the snapshot the range starts from and its revision.
    ///   - apply: takes each revision's changes.
    ///   - progress: called with each revision of the range once it was handed over.
    /// - Returns: the range replayed (`nil` for an empty log and a `nil` range) and the number of
    ///   revisions whose changes went to `apply`.
    /// - Throws: ``ChangeLogError`` as ``replay(_:into:willApply:progress:)`` does; a damaged
    ///   snapshot chunk is reported only for the snapshot the range starts from.
    /// - Complexity: O(*n*) for the first snapshot, then O(*c*) per revision, where *c* counts
    ///   its operations.
    public func replayChanges(
        _ range: ClosedRange<UInt64>? = nil, reload: (UInt64, LogSnapshot) -> Void,
        apply: (RevisionChanges) -> Void, progress: (UInt64) -> Void = { _ in }
    ) async throws(ChangeLogError) -> (range: ClosedRange<UInt64>?, batches: Int) {
        guard var walk = try RevisionWalk(range, in: store) else { return (nil, 0) }
        let range = walk.range
        var first = range.lowerBound
        switch walk.base {
        case .empty:
            reload(0, LogSnapshot())
        case .stored(let revision):
            reload(revision, try walk.snapshot(at: revision).get())
        case .dropped:
            reload(first, try record(at: first).snapshot)
            progress(first)
            guard first < range.upperBound else { return (range, 0) }
            first += 1
        }
        var batches = RevisionBatches(
            log: self, next: first, end: range.upperBound, batchSize: 256, decoding: ChangesDecoding())
        var applied = 0
        while let changes = try batches.next() {
            apply(changes)
            applied += 1
            progress(changes.revision)
            if applied % 256 == 0 {
                await Task.yield()
            }
        }
        return (range, applied)
    }
}
