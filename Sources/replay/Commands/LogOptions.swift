import ArgumentParser
import ChangeLog
import ChangeLogFile
import Foundation

#if Postgres
    import ChangeLogPostgres
#endif

/// `--log PATH`, shared by every command that touches a log.
struct LogOptions: ParsableArguments {
    @Option(
        name: .customLong("log"),
        help: ArgumentHelp(
            "The log directory, a log file (also as file:PATH), or postgres://USER@HOST:PORT/DATABASE?log=NAME for "
                + "a log on PostgreSQL (default: $REPLAY_LOG, else ./replay.lmdb).",
            valueName: "path"))
    var explicitPath: String?

    @Option(
        name: .customLong("password-file"),
        help: ArgumentHelp(
            "For a postgres:// log: a file whose first line is the password, when neither the URL nor "
                + "$PGPASSWORD gives one.",
            valueName: "file"))
    var passwordFile: String?

    /// The path in effect: `--log`, else `$REPLAY_LOG`, else `./replay.lmdb`.
    var path: String { Self.resolve(explicitPath) }

    /// `explicitPath`, else `$REPLAY_LOG`, else `./replay.lmdb`.
    static func resolve(_ explicitPath: String?) -> String {
        if let explicitPath { return explicitPath }
        if let fromEnvironment = ProcessInfo.processInfo.environment["REPLAY_LOG"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return "./replay.lmdb"
    }

    /// Opens an existing log for reading only: nothing is written to it, and no writer lock is
    /// waited for. The log may come from anywhere (a crash report's): its pages are walked before
    /// LMDB reads them (`ChangeLog.Options.untrusted`), and a damaged one is refused with a message
    /// that names the damage. A missing one is an error naming the path. A log read without its lock file
    /// (another user's, on read-only storage, or one whose lock.mdb is a link or sparse, which
    /// reading leaves alone) is read all the same, with a warning on standard error that writers
    /// running at the same time are not seen; a log that has no lock.mdb (a copy of its data
    /// file) is read without one silently, and none is created. A bus error while the log is
    /// read (its data file cut short meanwhile) ends the tool with status 2 and a message
    /// (``DataFileFault``).
    func openExisting() throws -> ChangeLog {
        try Self.openExisting(at: path, passwordFile: passwordFile)
    }

    /// ``openExisting()`` for the log at `path`. A `postgres://` or `postgresql://` URL is a log
    /// on PostgreSQL, never a path: opened for reading only, its records checked at open.
    static func openExisting(at path: String, passwordFile: String? = nil) throws -> ChangeLog {
        if isPostgresURL(path) {
            return try openPostgres(
                path, passwordFile: passwordFile,
                options: .init(createIfMissing: false, readOnly: true, untrusted: true))
        }
        if let file = filePath(path) {
            // A log file is read with pread, never mapped: no bus error to catch.
            return try ChangeLog(fileAt: file, options: .init(createIfMissing: false, readOnly: true, untrusted: true))
        }
        DataFileFault.exitOnFault(readingLogAt: path)
        let log = try ChangeLog(path: path, options: .init(createIfMissing: false, readOnly: true, untrusted: true))
        if let withoutLock = log.readingWithoutLock, withoutLock.reason != .lockFileMissing {
            printError("warning: \(withoutLock)")
        }
        return log
    }

    /// The path of the log file `path` names: `file:PATH`, or a regular file that starts as a log
    /// file does (``ChangeLog/isLogFile(atPath:)``); `nil` for a log directory (LMDB), and for
    /// anything else, which LMDB's opening then refuses with what it is.
    static func filePath(_ path: String) -> String? {
        if path.hasPrefix("file:") { return String(path.dropFirst("file:".count)) }
        return ChangeLog.isLogFile(atPath: path) ? path : nil
    }

    /// Opens the log, creating it when it does not exist: private to the user (0600 files in a
    /// 0700 directory) unless `fileMode` gives others access. A new log is not created in a
    /// directory that holds other files (``NewLogPlace``). A bus error while the log is written
    /// (its data file cut short meanwhile) ends the tool with status 2 and a message, and what
    /// was being appended is not committed (``DataFileFault``).
    func openOrCreate(fileMode: Int = ChangeLog.Options.privateFileMode) throws -> ChangeLog {
        try Self.openOrCreate(at: path, fileMode: fileMode, allowsFile: false, passwordFile: passwordFile)
    }

    /// ``openOrCreate(fileMode:)`` for the log at `path`: a PostgreSQL URL opens (creating) that
    /// log, with the password from `passwordFile` when given; with `allowsFile`, a log file
    /// (`file:PATH`) is opened or created, private to the user unless `fileMode` says otherwise.
    static func openOrCreate(at path: String, fileMode: Int, allowsFile: Bool, passwordFile: String? = nil) throws
        -> ChangeLog
    {
        if isPostgresURL(path) {
            return try openPostgres(path, passwordFile: passwordFile, options: .init(createIfMissing: true))
        }
        if let file = filePath(path) {
            guard allowsFile else {
                throw InputError(
                    "\(path): this command writes log directories only; pass a log directory (`replay copy` converts)")
            }
            return try ChangeLog(fileAt: file, options: .init(createIfMissing: true, fileMode: fileMode))
        }
        try NewLogPlace.check(path)
        DataFileFault.exitOnFault(writingLogAt: path)
        return try ChangeLog(path: path, options: .init(createIfMissing: true, fileMode: fileMode))
    }
}

extension LogOptions {
    /// Whether `path` is a PostgreSQL log's URL (`postgres://`, `postgresql://`), which is never
    /// taken for a directory, whether or not the tool was built with PostgreSQL.
    static func isPostgresURL(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// `path` as messages show it: a PostgreSQL URL without its password.
    static func shown(_ path: String) -> String {
        #if Postgres
            return isPostgresURL(path) ? PostgresLogAddress.redacted(path) : path
        #else
            return path
        #endif
    }

    /// Opens the PostgreSQL log at `url`.
    static func openPostgres(_ url: String, passwordFile: String?, options: ChangeLog.Options) throws -> ChangeLog {
        #if Postgres
            return try ChangeLog(url: url, passwordFile: passwordFile, options: options)
        #else
            throw InputError(
                "this replay was built without PostgreSQL (the package trait Postgres): it cannot open postgres:// logs"
            )
        #endif
    }
}

extension InputError {
    /// `revision R is out of range: the log at PATH holds revisions F to L` (or `is empty`).
    static func outOfRange(_ revision: UInt64, in log: ChangeLog, first: UInt64, latest: UInt64) -> InputError {
        let holds = latest == 0 ? "is empty" : "holds revisions \(first) to \(latest)"
        return InputError("revision \(revision) is out of range: \(ExportInput.name(ofLogAt: log.path)) \(holds)")
    }
}

/// `--mode MODE`: the permission bits of a log the command creates, in octal.
struct FileModeOption: ParsableArguments {
    @Option(
        name: .customLong("mode"),
        help: ArgumentHelp(
            "The permission bits, in octal, of a log this creates: 0600 (the default) keeps it private, 0640 lets "
                + "the file's group read it. An existing log keeps its own.",
            valueName: "mode"))
    var text: String?

    /// The mode asked for, or the private default.
    var fileMode: Int { text.flatMap(Self.parse) ?? ChangeLog.Options.privateFileMode }

    func validate() throws {
        guard let text else { return }
        guard let mode = Self.parse(text) else {
            throw ValidationError("--mode \(text) is not an octal file mode such as 0600 or 0640")
        }
        guard ChangeLog.Options.isValidFileMode(mode) else {
            throw ValidationError(
                "--mode \(text) cannot be a log's mode: it must include the owner's read and write (0600) and hold "
                    + "only read and write bits (at most 0666)")
        }
    }

    /// Three or four octal digits (`640`, `0640`).
    private static func parse(_ text: String) -> Int? {
        guard (3...4).contains(text.count), text.allSatisfy({ ("0"..."7").contains($0) }) else { return nil }
        return Int(text, radix: 8)
    }
}
