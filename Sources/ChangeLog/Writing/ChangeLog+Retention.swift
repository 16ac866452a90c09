extension ChangeLog {
    /// Removes every revision before `revision`, and the snapshot chunks only they used.
    ///
    /// `revision`'s own record and full snapshot stay, so the remaining log still reads and
    /// verifies from `revision` on, and subscriptions from `revision` still work; asking for a
    /// dropped revision afterwards throws ``ChangeLogError/Code/revisionDropped``. Dropping
    /// before a revision at or below ``firstRevision`` changes nothing.
    ///
    /// Durability: one write transaction in the log's ``Options/durability`` mode; in the default
    /// mode the removal is on disk when this returns. It is queued behind the appends requested
    /// before it. On LMDB the space freed is reused by later appends and the file does not
    /// shrink; a log file (the file engine) is compacted, so it shrinks.
    ///
    /// - Throws: ``ChangeLogError`` with ``ChangeLogError/Code/invalidArgument`` when `revision`
    ///   is after the latest revision (the latest is always kept) or the log is empty, or an
    ///   error naming a remaining revision that cannot be read (then nothing is removed).
    /// - Complexity: O(*r* + *c*), where *r* is the number of remaining revisions and *c* the
    ///   number of stored chunks.
    public func dropRevisions(before revision: UInt64) async throws(ChangeLogError) -> RetentionReport {
        try await writer.dropRevisions(before: revision)
    }
}
