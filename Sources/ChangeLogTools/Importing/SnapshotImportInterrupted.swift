/// An import stopped on request (`replay import` interrupted by a signal) before it was done:
/// what it appended stays in the log, and the lines from ``firstLineNotAppended`` on were not
/// appended.
public struct SnapshotImportInterrupted: Error, Sendable, CustomStringConvertible {
    /// What the import did before it stopped: ``SnapshotImporter/Report/revisions`` are the
    /// revisions appended and kept (none when it stopped while checking lines);
    /// ``SnapshotImporter/Report/linesRead`` the lines read so far.
    public var report: SnapshotImporter.Report
    /// The 1-based number of the first line the import would have appended next, or `nil` when
    /// it stopped while still checking lines, before appending any.
    public var firstLineNotAppended: Int?

    /// Creates an error for an import that appended `report.revisions` and stopped before
    /// `firstLineNotAppended` (`nil`: while checking lines).
    public init(report: SnapshotImporter.Report, firstLineNotAppended: Int?) {
        self.report = report
        self.firstLineNotAppended = firstLineNotAppended
    }

    /// `interrupted before line 1001; appended before it: revisions 1 to 1000 (1000)`, or
    /// `interrupted while checking line 57; nothing was appended`.
    public var description: String {
        guard let line = firstLineNotAppended else {
            return "interrupted while checking line \(report.linesRead); nothing was appended"
        }
        guard let appended = report.revisionsSummary else {
            return "interrupted before line \(line); nothing was appended"
        }
        return "interrupted before line \(line); appended before it: \(appended)"
    }
}
