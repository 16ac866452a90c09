import ChangeLog
import ChangeLogTestSupport
import Foundation

/// `follow`: subscribes from revision `--from` (0 by default: the first stored) and prints
/// `R DIGEST` for each revision R it receives (``RecordDigest``), until it has received
/// revision `--until`; then prints `done` and exits. Checks for other processes' appends on
/// notifications and every `--poll-ms` (default 100). Opens the log as `openWorkerLog` does
/// (`--engine postgres`: a URL), for reading only with `--read-only yes`.
func runFollow(_ arguments: Arguments) async throws {
    let options = ChangeLog.Options(
        subscriptionPollInterval: .milliseconds(Int64(arguments.number("poll-ms", default: 100))),
        readOnly: arguments.values["read-only"] != nil)
    let log = try openWorkerLog(arguments, options: options)
    let until = arguments.number("until")
    emit("following")
    guard until > 0 else {
        emit("done")
        return
    }
    for try await event in log.subscribe(from: arguments.number("from", default: 0)) {
        guard case .revision(let record) = event else { continue }
        emit("\(record.revision) \(try RecordDigest.of(record))")
        if record.revision >= until { break }
    }
    emit("done")
}
