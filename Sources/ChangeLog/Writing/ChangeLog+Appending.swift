import ListAdapter

extension ChangeLog {
    /// One snapshot to append, with its annotations and, optionally, the changes that lead to it.
    public struct AppendEntry: Sendable {
        /// The snapshot the revision shows.
        public var snapshot: LogSnapshot
        /// The revision's annotations.
        public var meta: [String: String]
        /// The changes from the previous revision's snapshot, or `nil` to compute them with
        /// `changes(to:)`.
        public var changes: LogChanges?
        /// Whether to check that ``changes`` take the previous snapshot to ``snapshot`` before
        /// storing them (the interchange format's `apply`); ignored when ``changes`` is `nil`.
        public var verifiesChanges: Bool
        /// The revision's time in milliseconds since 1970-01-01T00:00:00Z, or `nil` for the time
        /// of the append. A given time is stored as it is: the log's times may then go backwards
        /// from one revision to the next (nothing in the log orders or finds revisions by time).
        public var millisecondsSince1970: Int64?
        /// Whether to check, without refusing, that the given ``changes`` take the previous
        /// snapshot to ``snapshot``: the outcome is `AppendedRevision.changesDisagree`. For the
        /// importer, which stores a history's own changes as evidence.
        package var reportsDisagreement = false

        /// An entry whose changes the log computes from the previous revision's snapshot.
        public init(_ snapshot: LogSnapshot, meta: [String: String] = [:]) {
            self.snapshot = snapshot
            self.meta = meta
            self.changes = nil
            self.verifiesChanges = false
            self.millisecondsSince1970 = nil
        }

        /// An entry with precomputed changes, stored as given unless `verifiesChanges` is true,
        /// stamped with `millisecondsSince1970` when given, else with the time of the append.
        public init(
            _ snapshot: LogSnapshot, changes: LogChanges, meta: [String: String] = [:], verifiesChanges: Bool = false,
            millisecondsSince1970: Int64? = nil
        ) {
            self.snapshot = snapshot
            self.meta = meta
            self.changes = changes
            self.verifiesChanges = verifiesChanges
            self.millisecondsSince1970 = millisecondsSince1970
        }
    }

    /// Appends `snapshot` as the next revision, with the changes from the latest revision's
    /// snapshot (from the empty snapshot for the first revision), the current time and `meta`.
    ///
    /// Durability: the log's ``Options/durability``; in the default mode the revision is on disk
    /// when this returns. The append shares a transaction with the appends queued beside it
    /// (group commit) but succeeds or fails on its own. Cancelling the calling task does not
    /// withdraw an append already handed to the writer: it completes, and this returns its result.
    ///
    /// - Parameters:
    ///   - snapshot: the snapshot the new revision shows.
    ///   - meta: the revision's annotations (a commit, a request id, the reason for the change).
    ///   - expectedLatest: when given, the revision the caller expects to be the latest (0 for
    ///     an empty log); the append fails with ``ChangeLogError/Code/conflict`` if another
    ///     writer, in this process or another, appended in between.
    /// - Returns: the new revision's number, time and changes.
    /// - Throws: ``ChangeLogError``: ``ChangeLogError/Code/conflict``, or an error reading the
    ///   latest revision or writing to LMDB.
    /// - Complexity: O(*n*) for the diff, where *n* counts both snapshots' items; only the
    ///   chunks of sections that changed are encoded and written.
    public func append(_ snapshot: LogSnapshot, meta: [String: String] = [:], expectedLatest: UInt64? = nil)
        async throws(ChangeLogError) -> AppendedRevision
    {
        try await writer.append([AppendEntry(snapshot, meta: meta)], expectedLatest: expectedLatest)[0]
    }

    /// Appends `snapshot` as the next revision with precomputed `changes` (for example the ones a
    /// `ListAdapter` delivered), stored exactly as given.
    ///
    /// The log does not check the changes unless `verifiesChanges` is true, in which case
    /// changes that do not take the latest revision's snapshot to `snapshot` are refused with
    /// ``ChangeLogError/Code/invalidChanges``. Durability and group commit as in
    /// ``append(_:meta:expectedLatest:)-(LogSnapshot,_,_)``.
    ///
    /// - Throws: ``ChangeLogError``: ``ChangeLogError/Code/conflict``,
    ///   ``ChangeLogError/Code/invalidChanges``, or an error reading or writing the log.
    public func append(
        _ snapshot: LogSnapshot, changes: LogChanges, meta: [String: String] = [:], expectedLatest: UInt64? = nil,
        verifiesChanges: Bool = false
    ) async throws(ChangeLogError) -> AppendedRevision {
        let entry = AppendEntry(snapshot, changes: changes, meta: meta, verifiesChanges: verifiesChanges)
        return try await writer.append([entry], expectedLatest: expectedLatest)[0]
    }

    /// Appends several snapshots as consecutive revisions in one transaction: all of them or,
    /// if any fails, none.
    ///
    /// Each entry's changes are computed from the entry before it (the first from the latest
    /// revision) unless given. `expectedLatest` applies to the revision before the first entry.
    /// Durability: the log's ``Options/durability``, for the whole batch at once. An empty batch
    /// appends nothing and only checks `expectedLatest`.
    ///
    /// - Returns: the new revisions, in order.
    /// - Throws: ``ChangeLogError``; nothing of the batch is stored.
    public func append(contentsOf entries: [AppendEntry], expectedLatest: UInt64? = nil) async throws(ChangeLogError)
        -> [AppendedRevision]
    {
        try await writer.append(entries, expectedLatest: expectedLatest)
    }

    /// ``append(contentsOf:expectedLatest:)``, abandoned when `abandonWhen` returns true while
    /// the entries are prepared, before anything of them is written: it then throws
    /// ``ChangeLogError/Code/abandoned`` and nothing of the batch is stored. Once the entries
    /// are being written, the append completes. `abandonWhen` is called on the log's writer
    /// thread, once per entry. For the importer (ChangeLogTools), which stops on a signal.
    package func append(
        contentsOf entries: [AppendEntry], expectedLatest: UInt64? = nil,
        abandonWhen: @escaping @Sendable () -> Bool
    ) async throws(ChangeLogError) -> [AppendedRevision] {
        try await writer.append(entries, expectedLatest: expectedLatest, abandonWhen: abandonWhen)
    }

    /// The number of write transactions this log instance has committed: with group commit,
    /// fewer than the appends it made.
    package var writeTransactionCount: Int { writer.commitCount }
}
