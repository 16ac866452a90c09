import ChangeLog
import ChangeLogFile
import ChangeLogTestSupport
import Foundation

/// `race`: one of two processes racing to append after the same revision. Opens the log
/// (`--engine file`: a log file; `--engine postgres`: a URL; otherwise LMDB), prints `ready`, waits for a line on standard
/// input, then appends one snapshot with `expectedLatest` `--expected` and prints `won R` (the
/// revision it got) or `conflict`. The parent tells both to go once both are ready, so each
/// appends after the revision both read, whichever commits first.
func runRace(_ arguments: Arguments) async throws {
    let log = try openWorkerLog(arguments)
    let expected = arguments.number("expected")
    let snapshot = try EngineConformance.snapshot(expected + 1, seed: arguments.number("seed"))
    emit("ready")
    guard readLine() != nil else { fail("standard input closed before the go") }
    if let revision = try await append(snapshot, to: log, expectedLatest: expected) {
        emit("won \(revision)")
    } else {
        emit("conflict")
    }
}

/// The revision `snapshot` got, appended with `expectedLatest`; `nil` on a conflict.
private func append(_ snapshot: LogSnapshot, to log: ChangeLog, expectedLatest: UInt64) async throws -> UInt64? {
    var revision: UInt64 = 0
    do {
        revision = try await log.append(snapshot, meta: ["writer": "\(getpid())"], expectedLatest: expectedLatest)
            .revision
    } catch {
        guard error.code == .conflict else { throw error }
        return nil
    }
    return revision
}
