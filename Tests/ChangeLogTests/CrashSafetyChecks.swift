import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLog

// What the crash-safety tests know of a log between kills, and how they check it.

/// What the parent knows of a crash test's log between kills.
struct LogState {
    var path: String
    /// The size of the item pool `CrashContent` draws from.
    var items: Int
    var first: UInt64 = 0
    var latest: UInt64 = 0
    /// The data file's end after a complete refill of the space ahead, at the log's used size.
    var refilledEnd = 0

    /// Creates the log at `path`.
    static func created(at path: String, items: Int, options: ChangeLog.Options) throws -> LogState {
        var options = options
        options.createIfMissing = true
        _ = try ChangeLog(path: path, options: options)
        return LogState(path: path, items: items)
    }

    /// Checks the log after a worker was killed, given every line the workers printed (for
    /// `concurrent` writers, every line since the start), and returns what it holds now.
    func checked(
        afterRound round: Int, lines: [String], batch: UInt64, contentSeed: UInt64, options: ChangeLog.Options,
        concurrent: Bool = false, sharingWith open: ChangeLog? = nil
    ) async throws -> LogState {
        func numbers(_ prefix: String) -> [[UInt64]] {
            lines.filter { $0.hasPrefix(prefix) }.map {
                $0.dropFirst(prefix.count).split(separator: " ").compactMap { UInt64($0) }
            }
        }
        let committed = numbers("committed ") + numbers("imported ")
        let expectations = Expectations(
            round: round, before: self, reportedLatest: committed.compactMap(\.last).max(),
            dropped: numbers("dropped ").compactMap(\.first), dropping: numbers("dropping ").compactMap(\.first),
            importing: numbers("importing ").compactMap(\.last).max(), batch: batch, concurrent: concurrent)
        var result = self
        // Read-only first: it must open a log a writer left in the middle of a transaction
        // (unless this process has it open for writing).
        if open == nil {
            var readOnly = options
            readOnly.readOnly = true
            let log = try ChangeLog(path: path, options: readOnly)
            try expectations.check(log, contentSeed: contentSeed, into: &result)
            // What changed since the last check (and the revision before it): callers verify the
            // whole log at the end.
            let latest = try log.latestRevision
            let from = max(try log.firstRevision, min(latest, self.latest))
            let range = latest > 0 ? from...latest : nil
            let report = try await log.verify(range)
            #expect(report.isValid, "round \(round), read-only: \(report)")
        }
        let log = try open ?? ChangeLog(path: path, options: options)
        try expectations.check(log, contentSeed: contentSeed, into: &result)
        return result
    }

    /// Appends the next revision (as a worker would), checks it, and returns the new state.
    func appendingOne(options: ChangeLog.Options, contentSeed: UInt64) async throws -> LogState {
        let log = try ChangeLog(path: path, options: options)
        while true {
            let latest = try log.latestRevision
            let next = latest + 1
            do {
                let appended = try await log.append(
                    try CrashContent.snapshot(seed: contentSeed, revision: next, items: items),
                    meta: CrashContent.meta(revision: next, writer: "parent"), expectedLatest: latest)
                #expect(appended.revision == next)
                var result = self
                result.latest = next
                result.first = try log.firstRevision
                return result
            } catch let error as ChangeLogError where error.code == .conflict {
                continue
            }
        }
    }
}

/// What a log must hold after a round, from what the workers reported.
struct Expectations {
    var round: Int
    var before: LogState
    var reportedLatest: UInt64?
    var dropped: [UInt64]
    var dropping: [UInt64]
    var importing: UInt64?
    var batch: UInt64
    var concurrent: Bool

    /// Checks `log`, and records its first and latest revision in `result`.
    func check(_ log: ChangeLog, contentSeed: UInt64, into result: inout LogState) throws {
        let (first, latest, stored) = try log.store.lmdb.readLMDB(during: "checking") { transaction in
            let (first, latest) = try log.store.lmdb.withLogTransaction(transaction) { view in
                (try log.store.first(in: view) ?? 0, try log.store.latest(in: view)?.revision ?? 0)
            }
            return (first, latest, try transaction.statistics(of: log.store.revisions).entries)
        }
        #expect(stored == (latest == 0 ? 0 : Int(latest - first + 1)), "round \(round): a gap in \(first)...\(latest)")
        #expect(
            latest >= (reportedLatest ?? 0), "round \(round): reported up to \(reportedLatest ?? 0), latest \(latest)")
        #expect(latest >= before.latest, "round \(round): the log went back from \(before.latest) to \(latest)")
        // The first revision: where the last reported retention put it, or where the one begun
        // and not reported would put it, nothing in between.
        let confirmedFirst = max(before.first, dropped.max() ?? 0, latest > 0 ? 1 : 0)
        let pending = dropping.filter { !dropped.contains($0) }.max()
        if concurrent {
            #expect(
                first >= confirmedFirst && first <= max(confirmedFirst, pending ?? 0),
                "round \(round): first \(first), confirmed \(confirmedFirst), pending \(pending.map(String.init) ?? "-")"
            )
        } else {
            var allowed: Set<UInt64> = [confirmedFirst]
            if let pending { allowed.insert(pending) }
            #expect(allowed.contains(first), "round \(round): first \(first), expected one of \(allowed.sorted())")
            // At most one transaction the worker did not report: an append of `batch` revisions,
            // or an import's unfinished range.
            let ceiling = max(importing ?? 0, (reportedLatest ?? before.latest) + batch)
            #expect(latest <= ceiling, "round \(round): latest \(latest) past \(ceiling)")
            #expect(
                (latest - before.latest) % batch == 0,
                "round \(round): \(latest - before.latest) revisions after \(before.latest), not whole batches of \(batch)"
            )
        }
        if latest > 0 {
            for revision in max(first, before.latest, 1)...latest {
                let record = try log.record(at: revision)
                #expect(record.meta["revision"] == "\(revision)", "round \(round): revision \(revision)'s meta")
                let expected = try CrashContent.snapshot(seed: contentSeed, revision: revision, items: before.items)
                #expect(record.snapshot == expected, "round \(round): revision \(revision) holds another snapshot")
            }
        }
        result.first = first
        result.latest = latest
        let info = log.store.environment.info()
        let used = info.usedBytes
        let end = used + DataFileReserve.target(usedBytes: used)
        result.refilledEnd = (end + info.pageSize - 1) / info.pageSize * info.pageSize
    }
}

/// The size of the file at `path`, or -1.
func fileSize(_ path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else { return -1 }
    return Int(status.st_size)
}

/// The map size LMDB recorded in the newest of the two meta pages of the data file at `path`
/// (lmdb.h's `MDB_meta` after a 16-byte page header: the map size at byte 32, the transaction
/// identifier at byte 144), or 0.
func recordedMapSize(_ path: String, pageSize: Int = Int(getpagesize())) -> Int {
    guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.read(upToCount: 2 * pageSize),
        data.count == 2 * pageSize
    else { return 0 }
    func word(_ offset: Int) -> Int {
        data[offset..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
    return word(144) >= word(pageSize + 144) ? word(32) : word(pageSize + 32)
}
