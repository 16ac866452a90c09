import ArgumentParser
import ChangeLog
import Foundation

/// Exit codes the tool documents in `--help` and the README.
enum ExitStatus {
    /// A verification or replay found a failing revision.
    static let failedCheck: Int32 = 1
    /// Bad input: a missing log or file, malformed JSON, a revision out of range.
    static let badInput: Int32 = 2
    /// Standard output could not be written (`EX_IOERR`).
    static let outputFailed: Int32 = 74
}

/// Runs `body`; any error becomes one line on standard error and exit status 2.
///
/// With `onCommandThreads` (the default), `body` runs on the tool's own threads
/// (``CommandThreads``), where it may block on the log's synchronous API.
func failingWithBadInput<T>(onCommandThreads: Bool = true, _ body: () async throws -> T) async throws -> T {
    do {
        guard onCommandThreads else { return try await body() }
        return try await withTaskExecutorPreference(CommandThreads.executor) { try await body() }
    } catch let exit as ExitCode {
        throw exit
    } catch let failure as StandardOutput.Failure {
        throw failure
    } catch let error as ChangeLogError where error.code == .logNotFound {
        printError(
            "no log at \(error.path ?? "the given path")\(emptyDataFileNote(in: error.path)): check --log or "
                + "$REPLAY_LOG, or create one with `replay import` or `replay demo`")
        throw ExitCode(ExitStatus.badInput)
    } catch let error as ChangeLogError {
        // Some messages already quote their cause (LMDB's report of damage, say).
        let cause = error.cause.map { String(describing: $0) }.flatMap { error.message.contains($0) ? nil : $0 }
        printError(error.message + (cause.map { " (\($0))" } ?? ""))
        throw ExitCode(ExitStatus.badInput)
    } catch {
        printError(String(describing: error))
        throw ExitCode(ExitStatus.badInput)
    }
}

/// What a log directory at `path` holding an empty `data.mdb` means, as a clause of the "no
/// log" message; empty otherwise. LMDB takes such a file for a log not created yet.
private func emptyDataFileNote(in path: String?) -> String {
    guard let path else { return "" }
    let dataFile = URL(fileURLWithPath: path).appendingPathComponent("data.mdb").path
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: dataFile),
        attributes[.type] as? FileAttributeType == .typeRegular, (attributes[.size] as? NSNumber)?.intValue == 0
    else { return "" }
    return " (its data.mdb is empty: a log's creation cut short, or a data file emptied behind its back)"
}
