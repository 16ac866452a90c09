import ChangeLog
import ChangeLogFile
import ChangeLogTestSupport
import ChangeLogTools
import Foundation

/// `write`: appends (one revision or a batch per transaction, or through `SnapshotImporter`)
/// and drops old revisions until killed, printing a line after each step that committed, so
/// that a parent killing it knows what must survive. Revision r holds
/// `CrashContent.snapshot(seed:revision:items:)` whichever process appended it: each
/// transaction appends after the latest revision it read, with `expectedLatest`, and reads
/// again on a conflict.
///
/// With `--engine file` the log is a file (ChangeLogFile), and a torn tail its open cut is
/// printed first, `torn OFFSET LENGTH`; with `--engine postgres`, `--log` is a PostgreSQL log's
/// URL. With `--report-conflicts yes`, a transaction that lost the race to another writer
/// prints `conflict L`, L the latest revision it expected.
///
/// Prints `ready L` once the log is open (L its latest revision), `committed A B` after a
/// transaction of revisions A to B, `dropping T` and `dropped T` around
/// `dropRevisions(before: T)`, `importing A B` and `imported A B` around an import of
/// revisions A to B.
func runWrite(_ arguments: Arguments) async throws {
    let seed = arguments.number("content-seed")
    let items = Int(arguments.number("items", default: 120))
    let batch = max(1, arguments.number("batch", default: 1))
    let dropEvery = arguments.number("drop-every", default: 0)
    let keep = arguments.number("keep", default: 5)
    let transactions = arguments.number("transactions", default: .max)
    let reopenEvery = arguments.number("reopen-every", default: 0)
    let importTransactions = arguments.number("import", default: 0)
    let writer = arguments.values["writer"] ?? "\(getpid())"
    let stopFile = arguments.values["stop-file"]
    let pause = arguments.number("pause-ms", default: 0)
    var options = ChangeLog.Options()
    switch arguments.values["durability"] ?? "durable" {
    case "durable": options.durability = .durable
    case "noMetaSync": options.durability = .noMetaSync
    case "noSync": options.durability = .noSync
    default: fail("unknown durability \(arguments.values["durability"] ?? "")", status: 2)
    }
    if arguments.values["map-size"] != nil {
        options.initialMapSize = Int(arguments.number("map-size"))
    }
    let reportsConflicts = arguments.values["report-conflicts"] == "yes"
    var log = try openWorkerLog(arguments, options: options)
    if let tail = log.fileTornTail { emit("torn \(tail.offset) \(tail.length)") }
    emit("ready \(try log.latestRevision)")
    var done: UInt64 = 0
    while done < transactions {
        if let stopFile, FileManager.default.fileExists(atPath: stopFile) { break }
        if pause > 0 { try await Task.sleep(for: .milliseconds(pause)) }
        if reopenEvery > 0, done > 0, done % reopenEvery == 0 {
            // Closes the environment when nothing else holds it, so that the next open starts
            // again from the small initial map.
            log = try reopen(arguments, options: options, closing: log)
        }
        let latest = try log.latestRevision
        if dropEvery > 0, done > 0, done % dropEvery == 0, latest > keep, latest - keep > (try log.firstRevision) {
            emit("dropping \(latest - keep)")
            _ = try await log.dropRevisions(before: latest - keep)
            emit("dropped \(latest - keep)")
        }
        let count = importTransactions > 0 ? batch * importTransactions : batch
        let revisions = (latest + 1)...(latest + count)
        let entries = try revisions.map { revision in
            ChangeLog.AppendEntry(
                try CrashContent.snapshot(seed: seed, revision: revision, items: items),
                meta: CrashContent.meta(revision: revision, writer: writer))
        }
        if importTransactions > 0 {
            // Snapshot lines of the interchange format: `{"meta": {...}, "sections": [...]}`.
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            var input = Data()
            for entry in entries {
                input.append(contentsOf: Array(#"{"meta":"#.utf8))
                input.append(try encoder.encode(entry.meta))
                input.append(UInt8(ascii: ","))
                input.append(try encoder.encode(entry.snapshot).dropFirst())
                input.append(UInt8(ascii: "\n"))
            }
            emit("importing \(revisions.lowerBound) \(revisions.upperBound)")
            let report = try await SnapshotImporter(log: log, options: .init(commitEvery: Int(batch))).run(input: input)
            guard report.revisions == Array(revisions) else {
                fail("imported \(report.revisions.first ?? 0)...\(report.revisions.last ?? 0), expected \(revisions)")
            }
            emit("imported \(revisions.lowerBound) \(revisions.upperBound)")
            done += importTransactions
            continue
        }
        guard try await append(entries, to: log, after: latest) else {
            if reportsConflicts { emit("conflict \(latest)") }
            continue
        }
        emit("committed \(revisions.lowerBound) \(revisions.upperBound)")
        done += 1
    }
}

/// Appends `entries` after revision `latest`; returns false when another writer appended first.
private func append(_ entries: [ChangeLog.AppendEntry], to log: ChangeLog, after latest: UInt64) async throws -> Bool {
    do {
        if entries.count == 1 {
            _ = try await log.append(entries[0].snapshot, meta: entries[0].meta, expectedLatest: latest)
        } else {
            _ = try await log.append(contentsOf: entries, expectedLatest: latest)
        }
        return true
    } catch {
        guard error.code == .conflict else { throw error }
        return false
    }
}

/// Releases `log` and opens it again: the environment closes when nothing else holds it, so
/// that the new one starts again from the small initial map.
private func reopen(
    _ arguments: Arguments, options: ChangeLog.Options, closing log: consuming ChangeLog
) throws -> ChangeLog {
    _ = consume log
    return try openWorkerLog(arguments, options: options)
}
