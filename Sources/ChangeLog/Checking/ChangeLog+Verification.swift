import ListAdapter

extension ChangeLog {
    /// The most differences a ``VerificationFailure`` lists.
    static let maximumListedDifferences = 10

    /// Proves that the log is what it claims: for each revision *r* of `range`, that its record
    /// and its snapshot's chunks pass their checksums and decode, that its changes are valid for
    /// the snapshot of *r* − 1 under the interchange format's rules (the rule check of
    /// `ListSnapshot.applying(_:)`, which `StrictListView` in `.format` mode shares), and that
    /// applying them to that snapshot gives *r*'s stored snapshot exactly (sections, items and
    /// summaries, in order).
    ///
    /// Snapshots are stored independently of changes, so this compares two independent records
    /// of each revision. The range's first revision is checked against the revision before it
    /// when that one is still stored, against the empty snapshot when it is revision 1, and only
    /// for readability when the revision before it was dropped by retention. Verification
    /// stops at the first failing revision.
    ///
    /// A damaged log is a finding, not an error: a record or chunk that fails its checksum or
    /// does not decode, including the one before the range when it is needed, is reported as a
    /// ``VerificationFailure/Code-swift.struct/unreadable`` failure naming its revision.
    ///
    /// Reads run in short read transactions of a few revisions each, so verification never
    /// blocks writers; revisions appended after the range was resolved are not verified.
    ///
    /// - Parameters:
    ///   - range: the revisions to verify; `nil` for every revision the log holds.
    ///   - progress: called with each revision after it passed.
    /// - Returns: the report: valid, or the first failure.
    /// - Throws: ``ChangeLogError`` for a range the log does not hold
    ///   (``ChangeLogError/Code/invalidArgument`` for revision 0,
    ///   ``ChangeLogError/Code/revisionNotFound``, ``ChangeLogError/Code/revisionDropped``), a
    ///   revision dropped while verifying, or a storage failure.
    /// - Complexity: O(*n* + *c*) per revision, where *n* counts the items of its snapshot and the
    ///   previous one and *c* its operations; unchanged sections are decoded once.
    public func verify(
        _ range: ClosedRange<UInt64>? = nil, progress: (UInt64) -> Void = { _ in }
    ) async throws(ChangeLogError) -> VerificationReport {
        // On an engine whose reads wait on the network, on its read threads, off the cooperative pool.
        try await withTaskExecutorPreference(store.storage.readExecutor) { () throws(ChangeLogError) in
            try await verifyInPlace(range, progress: progress)
        }
    }

    private func verifyInPlace(
        _ range: ClosedRange<UInt64>?, progress: (UInt64) -> Void
    ) async throws(ChangeLogError) -> VerificationReport {
        guard var walk = try RevisionWalk(range, in: store) else {
            return VerificationReport(range: nil, revisionsChecked: 0, failure: nil)
        }
        var previous: LogSnapshot?
        switch walk.base {
        case .empty:
            previous = LogSnapshot()
        case .stored(let revision):
            switch try walk.snapshot(at: revision) {
            case .success(let snapshot):
                previous = snapshot
            case .failure(let damage):
                return VerificationReport(
                    range: walk.range, revisionsChecked: 0, failure: Self.unreadable(revision, damage))
            }
        case .dropped:
            previous = nil
        }
        var checked = 0
        while let step = try walk.next() {
            let record: RevisionRecord
            switch step {
            case .success(let read):
                record = read
            case .failure(let damage):
                let revision = damage.revision ?? walk.range.lowerBound + UInt64(checked)
                return VerificationReport(
                    range: walk.range, revisionsChecked: checked, failure: Self.unreadable(revision, damage))
            }
            if let previous, let failure = Self.check(record, after: previous) {
                return VerificationReport(range: walk.range, revisionsChecked: checked, failure: failure)
            }
            previous = record.snapshot
            checked += 1
            progress(record.revision)
            if walk.isAtBatchEnd {
                await Task.yield()
            }
        }
        return VerificationReport(range: walk.range, revisionsChecked: checked, failure: nil)
    }

    /// The failure of `record` against the snapshot of the revision before it, or `nil` when its
    /// changes are valid for that snapshot and take it to the stored one: the check
    /// ``verify(_:progress:)`` makes of each revision, for records held elsewhere (a test that
    /// replays a reduced history).
    /// - Complexity: O(*n* + *c*), where *n* counts the items of both snapshots and *c* the
    ///   operations.
    public static func check(_ record: RevisionRecord, after previous: LogSnapshot) -> VerificationFailure? {
        let result: LogSnapshot
        do {
            result = try previous.applying(record.changes)
        } catch {
            return VerificationFailure(
                revision: record.revision, code: .invalidChanges, differences: [error.message], cause: error)
        }
        guard result != record.snapshot else { return nil }
        let differences = SnapshotDifferences(
            expected: record.snapshot, found: result, limit: maximumListedDifferences)
        return VerificationFailure(
            revision: record.revision, code: .snapshotMismatch, differences: differences.all,
            omittedDifferences: differences.omitted)
    }

    private static func unreadable(_ revision: UInt64, _ damage: ChangeLogError) -> VerificationFailure {
        VerificationFailure(revision: revision, code: .unreadable, differences: [damage.message], cause: damage)
    }
}
