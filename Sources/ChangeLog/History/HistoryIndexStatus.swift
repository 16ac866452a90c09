/// What a log's history index holds: how far it reaches and what it costs.
public struct HistoryIndexStatus: Hashable, Sendable {
    /// The latest revision the index covers, or `nil` when the log has none (a log written
    /// before the index existed, or opened without ``ChangeLog/Options/keepsHistoryIndex``).
    public var coverage: UInt64?
    /// Its entries: one per block of an item's or a section's events (a few hundred bytes of
    /// them), one per recent revision whose events wait to join their blocks, and its own few.
    public var entries: Int
    /// The bytes of the pages it takes in the log's file.
    public var bytes: Int

    /// Creates a status.
    public init(coverage: UInt64?, entries: Int, bytes: Int) {
        self.coverage = coverage
        self.entries = entries
        self.bytes = bytes
    }
}

extension ChangeLog {
    /// What the history index holds now.
    ///
    /// - Throws: ``ChangeLogError`` when reading fails.
    public func historyIndexStatus() throws(ChangeLogError) -> HistoryIndexStatus {
        try historyIndex.status()
    }
}
