import CLMDB
import Foundation
import ListAdapter
import SystemPackage

/// An append-only log of list snapshots and the changes between them, stored in LMDB.
///
/// Each revision (numbered from 1, without gaps) holds the time it was appended, free string
/// annotations, the full snapshot and the changes from the previous revision's snapshot.
/// Snapshots are stored in content-defined chunks shared between revisions, so a revision
/// costs about what changed, yet each one's snapshot is stored on its own, independently of its
/// changes (<doc:RecordFormat>, in the repository at Sources/ChangeLog/ChangeLog.docc/RecordFormat.md).
///
/// ## Durability
///
/// Every append and retention call runs in one LMDB write transaction and returns after it
/// committed. With the default ``Durability/durable`` mode that commit is on disk when the call
/// returns; the relaxed modes (``Durability/noMetaSync``, ``Durability/noSync``) trade that for
/// speed and say what a crash can lose. An append that failed or never returned leaves no
/// trace. Reads see committed revisions only and never block writers.
///
/// ## Concurrency
///
/// The log is `Sendable`. Writes go to one serial writer per log instance that group-commits
/// concurrent appends: appends queued while a commit is in flight, or arriving while the next
/// transaction is built, share it, each caller still getting its own revision and error. After
/// a transaction of several callers the writer waits, before its next transaction, for as many
/// appends, up to as long as that commit took (10 ms at most); a lone appender never waits. Each caller computes its own
/// changes (from the snapshot its append is expected to follow) on the global executor while
/// the writer works on the appends before it. LMDB serializes writers across
/// processes too, so optimistic concurrency (`expectedLatest`) holds across processes. Reads
/// are synchronous and may run on any thread.
///
/// One path is one LMDB environment per process: a second `ChangeLog` for the same path shares
/// the first one's environment (and must ask for the same durability), but has its own writer.
public final class ChangeLog: Sendable {
    /// The log's directory, as given to ``init(path:options:)``.
    public let path: String
    /// The options the log was opened with.
    public let options: Options
    let store: LogStore
    let writer: LogWriter
    /// Wakes this instance's subscriptions when revisions are committed.
    let notifier: CommitNotifier
    /// The live revisions of this instance, read once for every subscription and server stream
    /// that takes full records.
    package let feed: RecordFeed
    /// The live revisions' changes alone, read once for every follower that needs no snapshot.
    package let changesFeed: ChangesFeed

    /// Whether the log's `data.mdb` at ``path`` is still the file this instance opened: `false`
    /// once the log was deleted, or deleted and created again, behind this instance's back.
    ///
    /// An instance keeps working on the file it opened, which nothing opening ``path`` will see
    /// again: its subscriptions wait for appends that will never come. A long-running follower
    /// checks this now and then, and opens the log again (`replay tail --follow` checks every
    /// second and stops).
    ///
    /// ``path`` is read as it was given: when it is a symbolic link, the log is replaced once
    /// the link points at another log, even while the one it pointed at stays where it was.
    ///
    /// - Complexity: one `stat` of the data file.
    public var isStillAtPath: Bool { store.environment.mapsFile(inDirectory: path) }

    /// Opens the log in the directory at `path`, creating the directory and an empty log when
    /// ``Options/createIfMissing`` allows it.
    ///
    /// Opening clears reader slots left behind by dead processes. Opening is synchronous and
    /// may wait for another process's write transaction to finish.
    ///
    /// - Throws: ``ChangeLogError`` with ``ChangeLogError/Code/logNotFound`` (no log at the path,
    ///   and ``Options/createIfMissing`` is false or ``Options/readOnly`` true),
    ///   ``ChangeLogError/Code/cannotOpen`` (not a directory, no permission, not a log, no space
    ///   left for the log's files, a `data.mdb` or `lock.mdb` that is not a regular file, such as
    ///   a FIFO, a device or a socket, which is refused before anything opens it, a `data.mdb` that
    ///   is a symbolic link, or when writing a `lock.mdb` that is one; or the log was
    ///   deleted or replaced while another instance in this process still has it open),
    ///   ``ChangeLogError/Code/incompatibleOptions`` (open in this process with another
    ///   durability, or for reading only where this open writes, or the other way round),
    ///   ``ChangeLogError/Code/unsupportedFormat``,
    ///   ``ChangeLogError/Code/invalidArgument`` (an empty path or one holding a NUL byte, options
    ///   out of range); each names the path.
    public init(path: String, options: Options = Options()) throws(ChangeLogError) {
        self.path = path
        self.options = options
        guard !path.isEmpty else {
            throw ChangeLogError(
                code: .invalidArgument, message: "the log's path is empty: pass the directory of a log", path: path)
        }
        // The system reads a path only up to its first NUL byte: it would open another directory.
        guard !path.utf8.contains(0) else {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "the log's path \(path.debugDescription) holds a NUL byte, which no file path can hold: pass "
                    + "the directory of a log",
                path: path)
        }
        guard options.initialMapSize > 0, (1...Options.maxReadersLimit).contains(options.maxReaders) else {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "initialMapSize must be positive and maxReaders from 1 to \(Options.maxReadersLimit) (got "
                    + "\(options.initialMapSize) and \(options.maxReaders))",
                path: path)
        }
        guard Options.isValidFileMode(options.fileMode) else {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "fileMode \(Options.octal(options.fileMode)) is not a log's file mode: it must include the "
                    + "owner's read and write (0600) and hold only read and write bits (at most 0666)",
                path: path)
        }
        let creates = options.createIfMissing && !options.readOnly
        switch PathStatus(of: path) {
        case .missing:
            if let target = PathStatus.danglingLinkTarget(of: path) {
                throw ChangeLogError(
                    code: .cannotOpen,
                    message: "\(path) is a symbolic link to \(target), which does not exist: create the directory "
                        + "it points to, or pass another path",
                    path: path)
            }
            guard creates else {
                throw ChangeLogError(
                    code: .logNotFound,
                    message: "no log at \(path): check the path" + Self.creationAdvice(options),
                    path: path)
            }
            try Self.createDirectory(at: path, fileMode: options.fileMode)
        case .unreachable(let code):
            throw ChangeLogError(
                code: .cannotOpen,
                message: "cannot reach \(path) (\(code)): check the directories on its path",
                path: path)
        case .notDirectory, .emptyFile:
            let what = SpecialFile.kind(ofFileAt: path).map { "\($0)" } ?? "a file"
            throw ChangeLogError(
                code: .cannotOpen, message: "\(path) is \(what); a log is a directory: pass the directory's path",
                path: path)
        case .directory:
            // A link to a special file is refused as that file, when the environment opens.
            if SpecialFile.kind(ofFileAt: path + "/data.mdb") == nil,
                let link = LinkedFile.first(inDirectory: path, names: ["data.mdb"])
            {
                throw Self.refusal(of: link, path: path)
            }
            guard !creates else { break }
            // An existing directory that holds no log: opening must not turn it into one.
            let dataFile = PathStatus(of: URL(fileURLWithPath: path).appendingPathComponent("data.mdb").path)
            switch dataFile {
            case .missing, .emptyFile:
                let holds = dataFile == .emptyFile ? "an empty data.mdb" : "no data.mdb"
                throw ChangeLogError(
                    code: .logNotFound,
                    message: "no log at \(path): the directory holds \(holds); check the path"
                        + Self.creationAdvice(options),
                    path: path)
            case .unreachable(let code):
                throw ChangeLogError(
                    code: .cannotOpen,
                    message: "cannot look into the log directory \(path) (\(code)): check "
                        + "that it is a log directory you may read and write",
                    path: path)
            case .directory, .notDirectory:
                break
            }
        }
        let configuration = LMDBEnvironment.Configuration(
            mapSize: options.initialMapSize, maxDatabases: 4, maxReaders: UInt32(options.maxReaders),
            flags: options.durability.flags | (options.readOnly ? UInt32(MDB_RDONLY) : 0),
            fileMode: mode_t(options.fileMode))
        let environment = try Self.openEnvironment(path: path, configuration: configuration)
        guard environment.configuration.flags == configuration.flags else {
            throw Self.incompatibility(path: path, openFlags: environment.configuration.flags, options: options)
        }
        if options.untrusted {
            try Self.walkPages(of: environment, path: path, configuration: configuration)
        }
        store = try LogStore.open(environment: environment, path: path, readOnly: options.readOnly)
        if !options.keepsHistoryIndex { store.history.disable() }
        if options.untrusted {
            try store.checkRecords()
        }
        let notifier = CommitNotifier.watching(store, pollInterval: options.subscriptionPollInterval)
        self.notifier = notifier
        feed = RecordFeed(store: store, notifier: notifier, decoding: RecordDecoding())
        changesFeed = ChangesFeed(store: store, notifier: notifier, decoding: ChangesDecoding())
        writer = LogWriter(store: store, readOnly: options.readOnly, didCommit: { notifier.publish($0) })
    }

    /// The environment at `path`, shared with the other instances of this process. One opened
    /// with other flags may be in the middle of its release (the writer's queue holds it a few
    /// microseconds past the last append's return): it is given up to 100 ms to go before its
    /// flags are taken as another instance's.
    private static func openEnvironment(path: String, configuration: LMDBEnvironment.Configuration)
        throws(ChangeLogError) -> LMDBEnvironment
    {
        let deadline = ContinuousClock.now + .milliseconds(100)
        while true {
            let environment: LMDBEnvironment
            do {
                environment = try LMDBEnvironment.open(directory: path, configuration: configuration)
            } catch {
                throw openingFailure(error, path: path, configuration: configuration)
            }
            if environment.configuration.flags == configuration.flags || ContinuousClock.now >= deadline {
                return environment
            }
            usleep(1_000)
        }
    }

    /// Walks the B-tree pages of the log at `path` (``Options/untrusted``) before anything reads
    /// them through LMDB; a damaged page is refused as ``ChangeLogError/Code/cannotOpen``, naming
    /// the damage.
    private static func walkPages(
        of environment: LMDBEnvironment, path: String, configuration: LMDBEnvironment.Configuration
    ) throws(ChangeLogError) {
        do {
            try environment.walkPages()
        } catch let damage as PageWalk.Damage {
            throw ChangeLogError(
                code: .cannotOpen,
                message: "cannot open the log at \(path): its data file is damaged (\(damage)); restore the log "
                    + "from a backup",
                path: path)
        } catch let error as LMDBError {
            throw openingFailure(error, path: path, configuration: configuration)
        } catch {
            throw ChangeLogError.wrapping(error, path: path, during: "opening")
        }
    }

    /// The error for an environment at `path` that LMDB could not open with `configuration`.
    private static func openingFailure(
        _ error: LMDBError, path: String, configuration: LMDBEnvironment.Configuration
    ) -> ChangeLogError {
        if error.code == ENODEV, let special = SpecialFile.first(inDirectory: path) {
            return ChangeLogError(
                code: .cannotOpen,
                message: "cannot open the log at \(path): its \(special.name) is \(special.kind), not a regular file "
                    + "as a log's files are; remove it, or pass the directory of a log",
                path: path)
        }
        if error.code == ELOOP, let link = LinkedFile.first(inDirectory: path) {
            return refusal(of: link, path: path, cause: error)
        }
        let code: ChangeLogError.Code
        let message: String
        switch error.code {
        case ESTALE:
            code = .cannotOpen
            message =
                "the log at \(path) was deleted or replaced while this process still has it open: release every "
                + "ChangeLog of that path, then open it again"
        case ENOMEM:
            code = .invalidArgument
            message =
                "cannot map the log at \(path) with \(configuration.mapSize) bytes: more than this process can map; "
                + "pass a smaller Options.initialMapSize (the map grows by itself)"
        case MDB_CORRUPTED:
            code = .cannotOpen
            message =
                "cannot open the log at \(path): its data file is damaged, or shorter than the pages its header says "
                + "are in use (a partial copy, a disk that filled up while copying); restore the log from a backup"
        case MDB_INVALID, MDB_VERSION_MISMATCH:
            code = .cannotOpen
            message =
                "cannot open the log at \(path): its data.mdb is not an LMDB data file this library reads (its header "
                + "is damaged, or it is another kind of file); restore the log from a backup, or pass the directory "
                + "of a log"
        case EPERM where configuration.flags & UInt32(MDB_RDONLY) == 0,
            EROFS where configuration.flags & UInt32(MDB_RDONLY) == 0:
            code = .cannotOpen
            message =
                "cannot open the log at \(path) for writing: the system does not permit writing to its files "
                + "(immutable files, or a read-only file system); it can still be opened for reading only "
                + "(Options.readOnly)"
        case EACCES where configuration.flags & UInt32(MDB_RDONLY) == 0 && lockFileIsNotWritable(inDirectory: path):
            code = .cannotOpen
            message =
                "cannot open the log at \(path) for writing: its lock.mdb is not writable by this user; ask its "
                + "owner, copy the log, or open it for reading only (Options.readOnly)"
        case ENOSPC, EDQUOT:
            code = .cannotOpen
            let full = error.code == EDQUOT ? "the disk quota is used up" : "the file system is full"
            message =
                "cannot open the log at \(path): \(full), and LMDB needs space for its files (lock.mdb, data.mdb); "
                + "free some space, then retry"
        default:
            code = .cannotOpen
            message = "cannot open the log at \(path): check that it is a log directory you may read and write"
        }
        return ChangeLogError(code: code, message: message, path: path, cause: error)
    }

    /// The refusal of the log at `path` whose file `link` is a symbolic link (``LinkedFile``).
    private static func refusal(of link: LinkedFile, path: String, cause: LMDBError? = nil) -> ChangeLogError {
        let advice =
            link.name == "lock.mdb"
            ? "remove the link (a new lock file is made in its place)"
            : "put the file itself in the log's directory, or pass the directory of a log"
        return ChangeLogError(
            code: .cannotOpen,
            message: "cannot open the log at \(path): its \(link.name) is a symbolic link to \(link.target), and a "
                + "log's files are never followed through links; \(advice)",
            path: path, cause: cause)
    }

    /// Whether the log directory `path` holds a `lock.mdb` that this process may not write
    /// (its effective user and groups, as `open` checks): a log another user owns, which this
    /// process may open for reading only.
    private static func lockFileIsNotWritable(inDirectory path: String) -> Bool {
        let lockFile = path + "/lock.mdb"
        guard faccessat(AT_FDCWD, lockFile, F_OK, AT_EACCESS) == 0 else { return false }
        return faccessat(AT_FDCWD, lockFile, W_OK, AT_EACCESS) != 0 && errno == EACCES
    }

    /// The error for a log open in this process with `openFlags`, which `options` contradict.
    private static func incompatibility(path: String, openFlags: UInt32, options: Options) -> ChangeLogError {
        let openReadOnly = openFlags & UInt32(MDB_RDONLY) != 0
        guard openReadOnly == options.readOnly else {
            return ChangeLogError(
                code: .incompatibleOptions,
                message: "the log at \(path) is already open in this process "
                    + (openReadOnly ? "for reading only" : "for reading and writing")
                    + "; open it the same way (Options.readOnly)",
                path: path)
        }
        let durabilityFlags = openFlags & ~UInt32(MDB_RDONLY)
        let openMode = [Durability.durable, .noMetaSync, .noSync].first { $0.flags == durabilityFlags }
        return ChangeLogError(
            code: .incompatibleOptions,
            message: "the log at \(path) is already open in this process with durability "
                + "\(openMode?.name ?? "flags \(durabilityFlags)"); open it with the same durability",
            path: path)
    }

    /// How to get a log where none is, for the messages of ``ChangeLogError/Code/logNotFound``:
    /// nothing to add for a log opened read-only, which is never created.
    private static func creationAdvice(_ options: Options) -> String {
        options.readOnly ? "" : ", or pass Options(createIfMissing: true) to create one"
    }

    /// The error for a log directory that could not be created: the system's reason, with advice
    /// where the reason suggests one.
    static func creationFailure(_ error: any Error, path: String) -> ChangeLogError {
        let posix = (error as? POSIXError) ?? ((error as? CocoaError)?.underlying as? POSIXError)
        guard let posix else {
            return ChangeLogError(
                code: .cannotOpen, message: "cannot create the log directory \(path): \(error.localizedDescription)",
                path: path)
        }
        return creationFailure(code: posix.code.rawValue, path: path)
    }

    /// The error for a log directory that could not be created, with the system's `errno`.
    static func creationFailure(code: Int32, path: String) -> ChangeLogError {
        let code = Errno(rawValue: code)
        let advice: String
        switch code {
        case .permissionDenied, .notPermitted: advice = ": check the permissions of the directories on its path"
        case .readOnlyFileSystem: advice = ": the file system is read-only"
        case .noSpace, .diskQuotaExceeded: advice = ": free some disk space"
        default: advice = ""
        }
        return ChangeLogError(
            code: .cannotOpen,
            message: "cannot create the log directory \(path) (\(code))\(advice)", path: path)
    }

    /// Flushes every committed revision to disk. Needed only in the relaxed durability modes,
    /// where it makes everything appended so far survive a system crash. A log opened
    /// ``Options/readOnly`` has nothing of its own to flush: this returns at once.
    ///
    /// - Throws: ``ChangeLogError`` with ``ChangeLogError/Code/storage`` when the flush fails.
    public func flush() throws(ChangeLogError) {
        guard !options.readOnly else { return }
        do {
            try store.environment.sync()
        } catch {
            throw ChangeLogError.storage(error, path: path, during: "flushing")
        }
    }
}

/// An error that is kept only as its description, so that it is `Sendable`.
struct SendableDescription: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ error: any Error) {
        description = String(describing: error)
    }
}
