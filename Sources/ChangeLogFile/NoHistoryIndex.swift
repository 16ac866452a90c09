import ChangeLog

/// The history index of a log file: none. Histories of a log file are answered by reading the
/// revisions of their range (``HistorySource/scan``), with the same answer as an index gives.
struct NoHistoryIndex: HistoryIndexStorage {
    func coverage() throws(ChangeLogError) -> UInt64? { nil }

    func events(of subject: HistorySubject, in range: ClosedRange<UInt64>) throws(ChangeLogError) -> [HistoryEvent] {
        []
    }

    func items(containing text: String, limit: Int) throws(ChangeLogError) -> [HistoryItem] { [] }

    func status() throws(ChangeLogError) -> HistoryIndexStatus {
        HistoryIndexStatus(coverage: nil, entries: 0, bytes: 0)
    }

    func catchUp() throws(ChangeLogError) -> Bool { false }
}
