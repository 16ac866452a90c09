import ChangeLog
import ChangeLogTools
import Foundation
import Synchronization

extension ImportCommand {
    /// Imports with `--commit-every N`: reads, checks and appends `batch` lines at a time, in
    /// one transaction each, so that only one batch of the input is held. A bad line stops the
    /// import with a ``StreamedLineError``: the batches before its batch stay appended.
    func streamingImport(
        _ importer: SnapshotImporter, batch: Int, progress: inout Progress
    ) async throws -> SnapshotImporter.Report {
        // Without --skip-invalid, a line with a NUL byte stops the import: no need to read on.
        var reader = try LineBatchReader(path: file, stopAfterNUL: !skipInvalid)
        let fromLine = fromLine ?? 1
        guard try reader.skip(to: fromLine) else {
            throw InputError(Self.tooShort(inputName, lines: reader.nextLine - 1, fromLine: fromLine))
        }
        var report = SnapshotImporter.Report(revisions: [], skipped: [], linesRead: fromLine - 1)
        progress.total = reader.size
        var consumed = reader.bytesHandedOut
        var first = true
        while let lines = try reader.next(lines: batch) {
            first = false
            progress.phase = "checking"
            progress.update(consumed)
            consumed = reader.bytesHandedOut
            let stopRequested: @Sendable () -> Bool = { Interruption.signal != nil }
            if stopRequested() {
                throw SnapshotImportInterrupted(
                    report: report, firstLineNotAppended: report.revisions.isEmpty ? nil : lines.firstLine)
            }
            let part: SnapshotImporter.Report
            do {
                part = try await importer.run(input: lines.text, firstLineNumber: lines.firstLine) { _ in
                } appending: { _ in
                    progress.phase = "appending"
                    progress.update(consumed)
                } stopRequested: {
                    stopRequested()
                }
            } catch let error as SnapshotImportInterrupted {
                var merged = report
                merged.linesRead = error.report.linesRead
                let line = error.firstLineNotAppended ?? (report.revisions.isEmpty ? nil : lines.firstLine)
                throw SnapshotImportInterrupted(report: merged, firstLineNotAppended: line)
            } catch let error as SnapshotAppendError {
                var merged = report
                merged.linesRead = error.report.linesRead
                throw SnapshotAppendError(
                    report: merged, firstLineNotAppended: error.firstLineNotAppended, cause: error.cause)
            } catch var error as SnapshotImportError {
                if error.line == 1, lines.lineCount == 1, try reader.hasMore() {
                    error = SnapshotImporter.hintingSpreadSnapshot(error, line: lines.text)
                }
                guard !report.revisions.isEmpty else { throw error }
                throw StreamedLineError(error: error, report: report, firstLineNotAppended: lines.firstLine)
            }
            report.revisions += part.revisions
            report.skipped += part.skipped
            report.disagreeing += part.disagreeing
            report.linesRead = part.linesRead
        }
        if first, fromLine > 1 {
            throw InputError(Self.tooShort(inputName, lines: fromLine - 1, fromLine: fromLine))
        }
        if report.revisions.isEmpty {
            // Nothing to append: the log is still opened, or created, as an import of an empty
            // input does.
            _ = try await importer.run(input: Data(), firstLineNumber: report.linesRead + 1)
        }
        return report
    }
}

/// A bad line met by a streaming import (`--commit-every`) after it appended the batches
/// before the bad line's batch.
struct StreamedLineError: Error {
    /// The bad line.
    var error: SnapshotImportError
    /// What the import appended before it.
    var report: SnapshotImporter.Report
    /// The first line of the bad line's batch: no line from it on was appended.
    var firstLineNotAppended: Int
}

/// A log opened once, when an import first needs it, and shared by the importer's batches.
final class OpenedLog: Sendable {
    private let open: @Sendable () throws -> ChangeLog
    private let opened = Mutex<ChangeLog?>(nil)

    /// Creates a log that `open` opens when ``log()`` is first called.
    init(_ open: @escaping @Sendable () throws -> ChangeLog) {
        self.open = open
    }

    /// The log, opened by the first call.
    func log() throws -> ChangeLog {
        try opened.withLock { log in
            if let log { return log }
            let new = try open()
            log = new
            return new
        }
    }
}
