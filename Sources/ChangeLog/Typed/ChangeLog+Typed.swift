import ListAdapter

extension ChangeLog {
    /// Appends `snapshot`, whose identifiers and summaries are stored as their
    /// ``LogStringConvertible/logString``, as ``append(_:meta:expectedLatest:)-(LogSnapshot,_,_)`` appends a
    /// ``LogSnapshot``.
    ///
    /// - Throws: ``ChangeLogError``: as ``append(_:meta:expectedLatest:)-(LogSnapshot,_,_)``, or
    ///   ``ChangeLogError/Code/unconvertibleValue`` when two identifiers give the same string.
    /// - Complexity: O(*n*) to convert, plus the append's.
    public func append<
        ItemID: LogStringConvertible, Summary: LogStringConvertible, SectionSummary: LogStringConvertible
    >(
        _ snapshot: ListSnapshot<ItemID, Summary, SectionSummary>, meta: [String: String] = [:],
        expectedLatest: UInt64? = nil
    ) async throws(ChangeLogError) -> AppendedRevision {
        try await append(try snapshot.logSnapshot(), meta: meta, expectedLatest: expectedLatest)
    }

    /// Appends `snapshot` with precomputed `changes`, their identifiers and summaries stored as
    /// their ``LogStringConvertible/logString``, as
    /// ``append(_:changes:meta:expectedLatest:verifiesChanges:)-(LogSnapshot,_,_,_,_)`` appends strings.
    ///
    /// - Throws: ``ChangeLogError``: as the `LogSnapshot` method does, or
    ///   ``ChangeLogError/Code/unconvertibleValue`` when two identifiers give the same string.
    public func append<
        ItemID: LogStringConvertible, Summary: LogStringConvertible, SectionSummary: LogStringConvertible
    >(
        _ snapshot: ListSnapshot<ItemID, Summary, SectionSummary>,
        changes: ListChanges<ItemID, Summary, SectionSummary>,
        meta: [String: String] = [:], expectedLatest: UInt64? = nil, verifiesChanges: Bool = false
    ) async throws(ChangeLogError) -> AppendedRevision {
        try await append(
            try snapshot.logSnapshot(), changes: changes.logChanges(), meta: meta, expectedLatest: expectedLatest,
            verifiesChanges: verifiesChanges)
    }

    /// The snapshot of `revision` with its identifiers read as `ItemID`, its summaries as
    /// `Summary` and its section summaries as `SectionSummary`.
    ///
    /// - Throws: ``ChangeLogError``: as ``snapshot(at:)``, or
    ///   ``ChangeLogError/Code/unconvertibleValue`` naming the revision, the place and the stored
    ///   string that does not convert.
    /// - Complexity: That of ``snapshot(at:)``, plus O(*n*) to convert.
    public func snapshot<
        ItemID: LogStringConvertible, Summary: LogStringConvertible, SectionSummary: LogStringConvertible
    >(
        at revision: UInt64, as itemID: ItemID.Type, summary: Summary.Type, sectionSummary: SectionSummary.Type
    ) throws(ChangeLogError) -> ListSnapshot<ItemID, Summary, SectionSummary> {
        try LogValueReader<ItemID, Summary, SectionSummary>(revision: revision).snapshot(try snapshot(at: revision))
    }

    /// The snapshot of `revision` with its identifiers read as `ItemID` and its summaries as
    /// `Summary`, for lists without section summaries (a data source's default, `Never`).
    ///
    /// - Throws: As ``snapshot(at:as:summary:sectionSummary:)``: a section with a summary is
    ///   ``ChangeLogError/Code/unconvertibleValue`` (read it with a `sectionSummary` type).
    /// - Complexity: That of ``snapshot(at:)``, plus O(*n*) to convert.
    public func snapshot<ItemID: LogStringConvertible, Summary: LogStringConvertible>(
        at revision: UInt64, as itemID: ItemID.Type, summary: Summary.Type
    ) throws(ChangeLogError) -> ListSnapshot<ItemID, Summary, Never> {
        try snapshot(at: revision, as: itemID, summary: summary, sectionSummary: Never.self)
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
    public init<ItemID: LogStringConvertible, Summary: LogStringConvertible, SectionSummary: LogStringConvertible>(
        _ snapshot: ListSnapshot<ItemID, Summary, SectionSummary>,
        changes: ListChanges<ItemID, Summary, SectionSummary>? = nil, meta: [String: String] = [:],
        verifiesChanges: Bool = false
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
    /// ``snapshot`` with its identifiers read as `ItemID`, its summaries as `Summary` and its
    /// section summaries as `SectionSummary`.
    ///
    /// - Throws: ``ChangeLogError`` with code ``ChangeLogError/Code/unconvertibleValue`` naming
    ///   the revision, the place and the stored string that does not convert.
    /// - Complexity: O(*n*) expected, where *n* is the number of items; O(1) for `String`s.
    public func snapshot<
        ItemID: LogStringConvertible, Summary: LogStringConvertible, SectionSummary: LogStringConvertible
    >(
        as itemID: ItemID.Type, summary: Summary.Type, sectionSummary: SectionSummary.Type
    ) throws(ChangeLogError) -> ListSnapshot<ItemID, Summary, SectionSummary> {
        try LogValueReader<ItemID, Summary, SectionSummary>(revision: revision).snapshot(snapshot)
    }

    /// ``snapshot`` with its identifiers read as `ItemID` and its summaries as `Summary`, for
    /// lists without section summaries (a data source's default, `Never`).
    ///
    /// ```swift
    /// let todos = try record.snapshot(as: Int.self, summary: String.self)
    /// ```
    ///
    /// - Throws: As ``snapshot(as:summary:sectionSummary:)``: a section with a summary is
    ///   ``ChangeLogError/Code/unconvertibleValue`` (read it with a `sectionSummary` type).
    /// - Complexity: O(*n*) expected, where *n* is the number of items.
    public func snapshot<ItemID: LogStringConvertible, Summary: LogStringConvertible>(
        as itemID: ItemID.Type, summary: Summary.Type
    ) throws(ChangeLogError) -> ListSnapshot<ItemID, Summary, Never> {
        try snapshot(as: itemID, summary: summary, sectionSummary: Never.self)
    }

    /// ``changes`` with their identifiers read as `ItemID`, their summaries as `Summary` and
    /// their section summaries as `SectionSummary`.
    ///
    /// - Throws: ``ChangeLogError`` with code ``ChangeLogError/Code/unconvertibleValue`` naming
    ///   the revision, the place and the stored string that does not convert.
    /// - Complexity: O(*c*), where *c* counts the operations and the items of inserted sections.
    public func changes<
        ItemID: LogStringConvertible, Summary: LogStringConvertible, SectionSummary: LogStringConvertible
    >(
        as itemID: ItemID.Type, summary: Summary.Type, sectionSummary: SectionSummary.Type
    ) throws(ChangeLogError) -> ListChanges<ItemID, Summary, SectionSummary> {
        try LogValueReader<ItemID, Summary, SectionSummary>(revision: revision).changes(changes)
    }

    /// ``changes`` with their identifiers read as `ItemID` and their summaries as `Summary`, for
    /// lists without section summaries (a data source's default, `Never`).
    ///
    /// - Throws: As ``changes(as:summary:sectionSummary:)``: a section summary is
    ///   ``ChangeLogError/Code/unconvertibleValue``.
    /// - Complexity: O(*c*), where *c* counts the operations and the items of inserted sections.
    public func changes<ItemID: LogStringConvertible, Summary: LogStringConvertible>(
        as itemID: ItemID.Type, summary: Summary.Type
    ) throws(ChangeLogError) -> ListChanges<ItemID, Summary, Never> {
        try changes(as: itemID, summary: summary, sectionSummary: Never.self)
    }
}
