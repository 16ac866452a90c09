import ChangeLog

/// Copies a log's revisions into another log, on the same engine or another, as they are
/// stored: numbers, times, metadata, snapshots and changes (`replay copy`).
///
/// A copy resumes: when the target already holds revisions, ``plan()`` checks that they are the
/// source's first ones (their latest is compared record for record) and ``run(_:stopWhen:)``
/// continues after them. Revisions are appended in batches, one transaction each, with the
/// target's latest revision as `expectedLatest`, so a writer that appends to the target
/// meanwhile makes the copy fail with a conflict instead of interleaving. After the last batch,
/// the copied revisions are verified in the target (`ChangeLog.verify(_:progress:)`) and
/// compared with the source's, revision by revision.
public struct LogCopy: Sendable {
    /// What a copy did.
    public enum Outcome: Sendable {
        /// The target already held every revision of the source (the source's latest revision).
        case upToDate(UInt64)
        /// The revisions copied, the target's verification of them and whether each equals the
        /// source's.
        case copied(ClosedRange<UInt64>, VerificationReport)
        /// Stopped by `stopWhen` after the revisions copied (`nil`: none), with the signal number
        /// `stopWhen` reported.
        case interrupted(ClosedRange<UInt64>?, signal: Int32)
    }

    /// The log read from.
    public let source: ChangeLog
    /// The log appended to.
    public let target: ChangeLog
    /// How the source is named in messages.
    public let sourceName: String
    /// How the target is named in messages.
    public let targetName: String
    /// The most revisions appended in one transaction.
    public let batch: Int

    /// Creates a copy of `source` into `target`, named `sourceName` and `targetName` in messages,
    /// `batch` revisions (at least 1) per transaction.
    public init(source: ChangeLog, target: ChangeLog, sourceName: String, targetName: String, batch: Int = 256) {
        self.source = source
        self.target = target
        self.sourceName = sourceName
        self.targetName = targetName
        self.batch = max(1, batch)
    }

    /// The revisions left to copy: after the target's latest revision, to the source's latest;
    /// `nil` when there are none.
    ///
    /// - Throws: ``LogCopyError`` when the source's oldest revisions were dropped (a new log
    ///   starts at revision 1), or when the target holds revisions that are not the source's
    ///   first ones; `ChangeLogError` when either log cannot be read.
    public func plan() throws -> ClosedRange<UInt64>? {
        let sourceLatest = try Self.checkSource(source, named: sourceName)
        let targetLatest = try target.latestRevision
        if targetLatest == 0 { return sourceLatest == 0 ? nil : 1...sourceLatest }
        let targetFirst = try target.firstRevision
        guard targetFirst == 1, targetLatest <= sourceLatest else {
            throw LogCopyError(
                "\(targetName) holds revisions \(targetFirst) to \(targetLatest), which are not the first revisions "
                    + "of \(sourceName) (1 to \(sourceLatest)): copy into a new log")
        }
        guard try target.record(at: targetLatest) == source.record(at: targetLatest) else {
            throw LogCopyError(
                "\(targetName) differs from \(sourceName) at revision \(targetLatest), its latest: it is not a copy "
                    + "of it to resume; copy into a new log")
        }
        return targetLatest == sourceLatest ? nil : targetLatest + 1...sourceLatest
    }

    /// Checks that `source`, named `name` in messages, can be copied into a new log, before a
    /// target is created for it, and returns its latest revision.
    ///
    /// - Throws: ``LogCopyError`` when the source's oldest revisions were dropped (a new log
    ///   starts at revision 1); `ChangeLogError` when it cannot be read.
    @discardableResult
    public static func checkSource(_ source: ChangeLog, named name: String) throws -> UInt64 {
        let first = try source.firstRevision
        let latest = try source.latestRevision
        guard first <= 1 else {
            throw LogCopyError(
                "\(name) holds revisions \(first) to \(latest): its older ones were dropped, and a copy keeps "
                    + "revision numbers while a new log starts at 1 (`replay export` and `replay import` renumber)")
        }
        return latest
    }

    /// Copies `range` (from ``plan()``), then verifies and compares it; `stopWhen` is asked
    /// after each batch and returns a signal number to stop at (the batches before stay).
    ///
    /// - Throws: ``LogCopyError`` when a copied revision differs from the source's;
    ///   `ChangeLogError` when reading or appending fails (`conflict` when another writer
    ///   appended to the target meanwhile).
    public func run(_ range: ClosedRange<UInt64>?, stopWhen: () -> Int32? = { nil }) async throws -> Outcome {
        guard let range else { return .upToDate(try source.latestRevision) }
        var records = source.records(in: range).makeAsyncIterator()
        var latest = range.lowerBound - 1
        var entries: [ChangeLog.AppendEntry] = []
        entries.reserveCapacity(batch)
        while true {
            let record = try await records.next()
            if let record {
                entries.append(
                    ChangeLog.AppendEntry(
                        record.snapshot, changes: record.changes, meta: record.meta,
                        millisecondsSince1970: record.millisecondsSince1970))
            }
            guard entries.count == batch || (record == nil && !entries.isEmpty) else {
                if record == nil { break }
                continue
            }
            let appended = try await target.append(contentsOf: entries, expectedLatest: latest)
            latest = appended.last?.revision ?? latest
            entries.removeAll(keepingCapacity: true)
            if let signal = stopWhen(), latest < range.upperBound {
                return .interrupted(latest < range.lowerBound ? nil : range.lowerBound...latest, signal: signal)
            }
        }
        let report = try await target.verify(range)
        try compare(range)
        return .copied(range, report)
    }

    /// Reads `range` from both logs in step and throws at the first revision that differs.
    private func compare(_ range: ClosedRange<UInt64>) throws {
        var copied = target.records(in: range).makeAsyncIterator()
        var original = source.records(in: range).makeAsyncIterator()
        while let record = try original.next() {
            guard try copied.next() == record else {
                throw LogCopyError(
                    "revision \(record.revision) of \(targetName) differs from \(sourceName)'s after the copy")
            }
        }
    }
}

/// Why ``LogCopy`` cannot copy, or found the copy different from its source.
public struct LogCopyError: Error, CustomStringConvertible, Sendable {
    /// One line naming both logs and what is wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}
