/// The history index of an engine that keeps none (PostgreSQL, a log file): histories are
/// answered by reading the revisions of their range (``HistorySource/scan``), with the same
/// answer as an index gives. Such an engine also says ``LogStorage/indexesHistory`` is false.
package struct NoHistoryIndex: HistoryIndexStorage {
    /// The index of an engine without one.
    package init() {}

    package func coverage() throws(ChangeLogError) -> UInt64? { nil }

    package func events(of subject: HistorySubject, in range: ClosedRange<UInt64>) throws(ChangeLogError)
        -> [HistoryEvent]
    {
        []
    }

    package func items(containing text: String, limit: Int) throws(ChangeLogError) -> [HistoryItem] { [] }

    package func status() throws(ChangeLogError) -> HistoryIndexStatus {
        HistoryIndexStatus(coverage: nil, entries: 0, bytes: 0)
    }

    package func catchUp() throws(ChangeLogError) -> Bool { false }
}
