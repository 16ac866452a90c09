import ListAdapter

extension ChangeLog {
    /// Feeds the revisions of `range` to `renderer` in order, as a list view would have received
    /// them, and reports the first batch it refuses.
    ///
    /// The renderer first gets the snapshot the range starts from, then one batch per revision:
    /// - range starting at revision 1: `reloadData` with the empty snapshot (for revision 0),
    ///   then the batches of revisions 1, 2, ...;
    /// - range starting at *r* whose revision *r* − 1 is stored: `reloadData` with *r* − 1's
    ///   snapshot, then the batches of *r*, *r* + 1, ...;
    /// - range starting at *r* whose revision *r* − 1 was dropped by retention: `reloadData`
    ///   with *r*'s own snapshot, then the batches of *r* + 1, ....
    ///
    /// Each batch is `performBatchUpdates(changes, resultingIn: snapshot)` with the revision's
    /// stored changes and snapshot. `willApply` is called before each reload and each batch with
    /// the revision it belongs to (the reload's first: 0, *r* − 1 or *r*), so the caller can
    /// label what the renderer shows. The replay stops at the first batch the renderer refuses
    /// (throws): the report names that revision and carries the renderer's message; the
    /// renderer keeps what it showed before it.
    ///
    /// Records are read in short read transactions of a few revisions each; no transaction is
    /// open while the renderer runs.
    ///
    /// - Parameters:
    ///   - range: the revisions to replay; `nil` for every revision the log holds.
    ///   - renderer: the renderer to feed, such as `UIKitStrictRenderer<String, String, String>` (UIKit's
    ///     rules, each revision in the stages of `ListChanges.stagedForUIKit()`, as UIKit code
    ///     must deliver it). A bare `StrictListView` in its `uiKit` mode refuses a revision that
    ///     moves and updates one item, or updates an item of a moved section, which the diff
    ///     reports in one batch.
    ///   - willApply: called before each reload or batch with the revision it belongs to.
    ///   - progress: called with each revision after the renderer accepted it.
    /// - Returns: the report: the batches applied, or the refusal.
    /// - Throws: ``ChangeLogError`` for a range the log does not hold (as
    ///   ``verify(_:progress:)``), a record that cannot be read (it names the revision: verify
    ///   the log to find out more), or a storage failure.
    /// - Complexity: O(*n* + *c*) per revision to read it, plus the renderer's work, where *n*
    ///   counts the items of its snapshot and *c* its operations.
    public func replay<R: ListRenderer>(
        _ range: ClosedRange<UInt64>? = nil, into renderer: inout R, willApply: (UInt64) -> Void = { _ in },
        progress: (UInt64) -> Void = { _ in }
    ) async throws(ChangeLogError) -> ReplayReport
    where R.ItemID == String, R.Summary == String, R.SectionSummary == String {
        guard var walk = try RevisionWalk(range, in: store) else {
            return ReplayReport(range: nil, batchesApplied: 0, refusal: nil)
        }
        switch walk.base {
        case .empty:
            willApply(0)
            renderer.reloadData(LogSnapshot())
        case .stored(let revision):
            let snapshot = try walk.snapshot(at: revision).get()
            willApply(revision)
            renderer.reloadData(snapshot)
        case .dropped:
            break
        }
        var batches = 0
        while let step = try walk.next() {
            let record = try step.get()
            if walk.base == .dropped, record.revision == walk.range.lowerBound {
                willApply(record.revision)
                renderer.reloadData(record.snapshot)
            } else {
                willApply(record.revision)
                do {
                    try renderer.performBatchUpdates(record.changes, resultingIn: record.snapshot)
                } catch {
                    let refusal = ReplayRefusal(
                        revision: record.revision, message: String(describing: error), changes: record.changes)
                    return ReplayReport(range: walk.range, batchesApplied: batches, refusal: refusal)
                }
                batches += 1
            }
            progress(record.revision)
            if walk.isAtBatchEnd {
                await Task.yield()
            }
        }
        return ReplayReport(range: walk.range, batchesApplied: batches, refusal: nil)
    }
}
