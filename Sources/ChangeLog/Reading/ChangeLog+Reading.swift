import ListAdapter

extension ChangeLog {
    /// The latest revision's number, or 0 when the log is empty.
    ///
    /// Reads what is committed now, in a short read transaction.
    ///
    /// - Throws: ``ChangeLogError`` with ``ChangeLogError/Code/storage`` when LMDB fails.
    public var latestRevision: UInt64 {
        get throws(ChangeLogError) {
            try store.read(during: "reading") { transaction in
                try store.latest(in: transaction)?.revision ?? 0
            }
        }
    }

    /// The oldest revision the log still holds (1 unless revisions were dropped), or 0 when the
    /// log is empty.
    ///
    /// - Throws: ``ChangeLogError`` with ``ChangeLogError/Code/storage`` when LMDB fails.
    public var firstRevision: UInt64 {
        get throws(ChangeLogError) {
            try store.read(during: "reading") { transaction in
                try store.first(in: transaction) ?? 0
            }
        }
    }

    /// The record of `revision`: its time, annotations, snapshot and changes.
    ///
    /// Every byte read is checked against its checksum.
    ///
    /// - Throws: ``ChangeLogError`` naming the revision: ``ChangeLogError/Code/revisionNotFound``,
    ///   ``ChangeLogError/Code/revisionDropped``, ``ChangeLogError/Code/checksumMismatch``,
    ///   ``ChangeLogError/Code/malformedRecord`` or ``ChangeLogError/Code/unsupportedFormat``.
    /// - Complexity: O(*n*), where *n* is the number of items of the snapshot.
    public func record(at revision: UInt64) throws(ChangeLogError) -> RevisionRecord {
        try store.read(during: "reading") { transaction in
            var loader = SnapshotLoader()
            return try store.record(at: revision, loader: &loader, in: transaction)
        }
    }

    /// The snapshot of `revision`, read from its own chunks (never rebuilt from changes).
    ///
    /// - Throws: ``ChangeLogError`` naming the revision, as ``record(at:)`` does.
    /// - Complexity: O(*n*), where *n* is the number of items of the snapshot.
    public func snapshot(at revision: UInt64) throws(ChangeLogError) -> LogSnapshot {
        try store.read(during: "reading") { transaction in
            let body = try store.body(at: revision, in: transaction)
            var loader = SnapshotLoader()
            return try store.snapshot(of: body, revision: revision, loader: &loader, in: transaction).snapshot
        }
    }

    /// The records of every revision in `range`, oldest first, read lazily in batches of
    /// `batchSize` revisions per read transaction (no transaction stays open between batches).
    ///
    /// Iterating throws when a revision of the range is missing (dropped, or after the latest
    /// revision at the time its batch is read) or damaged, after yielding every revision before
    /// it.
    public func records(in range: ClosedRange<UInt64>, batchSize: Int = 64) -> RevisionRecords {
        RevisionRecords(log: self, start: range.lowerBound, end: range.upperBound, batchSize: batchSize)
    }

    /// ``records(in:batchSize:)`` as it was read before the reader kept its work from one
    /// snapshot to the next: every snapshot's identifiers are hashed again to index it, and
    /// every compressed chunk's dictionary is checked and digested again. The same records, more
    /// slowly; for the benchmarks that measure the difference in the same run.
    @_spi(Benchmarks)
    public func baselineRecords(in range: ClosedRange<UInt64>, batchSize: Int = 64) -> RevisionRecords {
        var records = RevisionRecords(log: self, start: range.lowerBound, end: range.upperBound, batchSize: batchSize)
        records.keepsWork = false
        return records
    }

    /// The records from `revision` to the latest one, oldest first, read lazily in batches of
    /// `batchSize` revisions per read transaction. Revisions appended while iterating are
    /// included; the sequence ends at the first batch that finds no newer revision.
    ///
    /// As for ``subscribe(from:batchSize:)``, 0 and 1 start at the oldest revision stored (1
    /// unless retention dropped revisions); on an empty log the sequence is empty. Any other
    /// dropped revision makes iterating throw ``ChangeLogError/Code/revisionDropped``.
    public func records(from revision: UInt64, batchSize: Int = 64) -> RevisionRecords {
        RevisionRecords(log: self, start: revision, end: nil, batchSize: batchSize)
    }

    /// The changes of `revision`, from its record alone: no snapshot chunk is read.
    ///
    /// - Throws: ``ChangeLogError`` naming the revision, as ``record(at:)`` does for the record
    ///   itself.
    /// - Complexity: O(*c*), where *c* is the number of operations of the changes.
    public func changes(at revision: UInt64) throws(ChangeLogError) -> RevisionChanges {
        try store.read(during: "reading") { transaction in
            try store.changes(at: revision, in: transaction)
        }
    }

    /// The changes of every revision in `range`, oldest first, read as ``records(in:batchSize:)``
    /// reads records but from the revision records alone: no snapshot is read or decoded.
    ///
    /// Iterating throws as ``records(in:batchSize:)`` does, except for damage to a snapshot's
    /// chunks, which these reads do not reach.
    public func changes(in range: ClosedRange<UInt64>, batchSize: Int = 256) -> RevisionChangesSequence {
        RevisionChangesSequence(log: self, start: range.lowerBound, end: range.upperBound, batchSize: batchSize)
    }

    /// The changes from `revision` to the latest revision, oldest first, as
    /// ``records(from:batchSize:)`` reads records but without their snapshots.
    public func changes(from revision: UInt64, batchSize: Int = 256) -> RevisionChangesSequence {
        RevisionChangesSequence(log: self, start: revision, end: nil, batchSize: batchSize)
    }
}
