import ListAdapter

extension ChangeLog {
    /// Appends `snapshot`, whose identifiers and summaries are stored as their
    /// ``LogStringConvertible/logString``, as ``append(_:meta:expectedLatest:)-(LogSnapshot,_,_)`` appends a
    /// ``LogSnapshot``.
    ///
    /// - Throws: ``ChangeLogError``: as ``append(_:meta:expectedLatest:)-(LogSnapshot,_,_)``, or
    ///   ``ChangeLogError/Code/unconvertibleValue`` when two identifiers give the same string.
    /// - Complexity: O(*n*) to convert, plus the append's.
    public func append<ItemID: LogStringConvertible, Summary: LogStringConvertible>(
        _ snapshot: ListSnapshot<ItemID, Summary>, meta: [String: String] = [:], expectedLatest: UInt64? = nil
    ) async throws(ChangeLogError) -> AppendedRevision {
        try await append(try snapshot.logSnapshot(), meta: meta, expectedLatest: expectedLatest)
    }

    /// Appends `snapshot` with precomputed `changes`, their identifiers and summaries stored as
    /// their ``LogStringConvertible/logString``, as
    /// ``append(_:changes:meta:expectedLatest:verifiesChanges:)-(LogSnapshot,_,_,_,_)`` appends strings.
    ///
    /// - Throws: ``ChangeLogError``: as the `LogSnapshot` method does, or
    ///   ``ChangeLogError/Code/unconvertibleValue`` when two identifiers give the same string.
    public func append<ItemID: LogStringConvertible, Summary: LogStringConvertible>(
        _ snapshot: ListSnapshot<ItemID, Summary>, changes: ListChanges<ItemID, Summary>, meta: [String: String] = [:],
        expectedLatest: UInt64? = nil, verifiesChanges: Bool = false
    ) async throws(ChangeLogError) -> AppendedRevision {
        try await append(
            try snapshot.logSnapshot(), changes: changes.logChanges(), meta: meta, expectedLatest: expectedLatest,
            verifiesChanges: verifiesChanges)
    }

    /// The snapshot of `revision` with its identifiers read as `ItemID` and its summaries as
    /// `Summary`.
    ///
    /// - Throws: ``ChangeLogError``: as ``snapshot(at:)``, or
    ///   ``ChangeLogError/Code/unconvertibleValue`` naming the revision, the place and the stored
    ///   string that does not convert.
    /// - Complexity: That of ``snapshot(at:)``, plus O(*n*) to convert.
    public func snapshot<ItemID: LogStringConvertible, Summary: LogStringConvertible>(
        at revision: UInt64, as itemID: ItemID.Type, summary: Summary.Type
    ) throws(ChangeLogError) -> ListSnapshot<ItemID, Summary> {
        try LogValueReader<ItemID, Summary>(revision: revision).snapshot(try snapshot(at: revision))
    }
}

extension ChangeLog.AppendEntry {
    /// An entry for ``ChangeLog/append(contentsOf:expectedLatest:)`` whose identifiers and
    /// summaries are stored as their ``LogStringConvertible/logString``; the log computes its
    /// changes unless `changes` are given.
    ///
    /// - Throws: ``ChangeLogError`` with code ``ChangeLogError/Code/unconvertibleValue`` when two
    ///   identifiers give the same string.
    /// - Complexity: O(*n*) to convert; O(1) for strings.
    public init<ItemID: LogStringConvertible, Summary: LogStringConvertible>(
        _ snapshot: ListSnapshot<ItemID, Summary>, changes: ListChanges<ItemID, Summary>? = nil,
        meta: [String: String] = [:], verifiesChanges: Bool = false
    ) throws(ChangeLogError) {
        let converted = try snapshot.logSnapshot()
        if let changes {
            self.init(converted, changes: changes.logChanges(), meta: meta, verifiesChanges: verifiesChanges)
        } else {
            self.init(converted, meta: meta)
        }
    }
}

extension RevisionRecord {
    /// ``snapshot`` with its identifiers read as `ItemID` and its summaries as `Summary`.
    ///
    /// ```swift
    /// let todos = try record.snapshot(as: Int.self, summary: String.self)
    /// ```
    ///
    /// - Throws: ``ChangeLogError`` with code ``ChangeLogError/Code/unconvertibleValue`` naming
    ///   the revision, the place and the stored string that does not convert.
    /// - Complexity: O(*n*) expected, where *n* is the number of items; O(1) for `String`s.
    public func snapshot<ItemID: LogStringConvertible, Summary: LogStringConvertible>(
        as itemID: ItemID.Type, summary: Summary.Type
    ) throws(ChangeLogError) -> ListSnapshot<ItemID, Summary> {
        try LogValueReader<ItemID, Summary>(revision: revision).snapshot(snapshot)
    }

    /// ``changes`` with their identifiers read as `ItemID` and their summaries as `Summary`.
    ///
    /// - Throws: ``ChangeLogError`` with code ``ChangeLogError/Code/unconvertibleValue`` naming
    ///   the revision, the place and the stored string that does not convert.
    /// - Complexity: O(*c*), where *c* counts the operations and the items of inserted sections.
    public func changes<ItemID: LogStringConvertible, Summary: LogStringConvertible>(
        as itemID: ItemID.Type, summary: Summary.Type
    ) throws(ChangeLogError) -> ListChanges<ItemID, Summary> {
        try LogValueReader<ItemID, Summary>(revision: revision).changes(changes)
    }
}
