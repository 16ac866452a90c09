import Foundation
import ListAdapter
import SystemPackage

/// An append-only log of list snapshots and the changes between them, stored in LMDB.
///
/// The log's core (the writer, reading, subscriptions, verification, retention) runs over a
/// storage engine protocol, with LMDB, the embedded default, its one engine so far; what this
/// documentation says of transactions, the map, the lock file and the durability modes is
/// LMDB's. Records and chunks are the same bytes on every engine.
///
/// The LMDB engine (``init(path:options:)`` and what only a log on LMDB has) is compiled with
/// the package trait `LMDB`, on by default. A package that names this one with `traits: []`
/// gets the engine-independent core alone, which links no LMDB: it opens logs through another
/// engine, such as the file engine's `ChangeLog(fileAt:options:)` (product `ChangeLogFile`).
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
    public var isStillAtPath: Bool { store.storage.isStillAtPath }

    #if LMDB
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
        public convenience init(path: String, options: Options = Options()) throws(ChangeLogError) {
            try Self.checkPath(path)
            guard options.initialMapSize > 0, (1...Options.maxReadersLimit).contains(options.maxReaders) else {
                throw ChangeLogError(
                    code: .invalidArgument,
                    message: "initialMapSize must be positive and maxReaders from 1 to \(Options.maxReadersLimit) (got "
                        + "\(options.initialMapSize) and \(options.maxReaders))",
                    path: path)
            }
            try Self.checkFileMode(options.fileMode, path: path)
            let storage = try LMDBLogStorage.open(path: path, options: options)
            try self.init(storage: storage, options: options)
        }
    #endif

    /// Opens the log stored in `storage` (opened with `options`): the log's core over any
    /// storage engine. With ``Options/untrusted`` every record is checked first
    /// (``LogStore/checkRecords()``).
    ///
    /// - Throws: ``ChangeLogError`` when the check finds damage.
    package init(storage: any LogStorage, options: Options) throws(ChangeLogError) {
        self.path = storage.path
        self.options = options
        store = LogStore(storage: storage)
        if options.untrusted {
            try store.checkRecords()
        }
        let notifier = CommitNotifier.watching(store, pollInterval: options.subscriptionPollInterval)
        self.notifier = notifier
        feed = RecordFeed(store: store, notifier: notifier, decoding: RecordDecoding())
        changesFeed = ChangesFeed(store: store, notifier: notifier, decoding: ChangesDecoding())
        writer = LogWriter(store: store, readOnly: options.readOnly, didCommit: { notifier.publish($0) })
    }

    /// The storage engine the log runs over.
    package var storage: any LogStorage { store.storage }

    /// Refuses a log path no engine can open: an empty one, or one holding a NUL byte.
    ///
    /// - Throws: ``ChangeLogError/Code/invalidArgument``, naming the path.
    package static func checkPath(_ path: String) throws(ChangeLogError) {
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
    }

    /// Refuses a ``Options/fileMode`` that is no log's file mode.
    ///
    /// - Throws: ``ChangeLogError/Code/invalidArgument``, naming the path.
    package static func checkFileMode(_ fileMode: Int, path: String) throws(ChangeLogError) {
        guard Options.isValidFileMode(fileMode) else {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "fileMode \(Options.octal(fileMode)) is not a log's file mode: it must include the "
                    + "owner's read and write (0600) and hold only read and write bits (at most 0666)",
                path: path)
        }
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
        try store.storage.flush()
    }
}

/// An error that is kept only as its description, so that it is `Sendable`.
struct SendableDescription: Error, Sendable, CustomStringConvertible {
    let description: String

    init(_ error: any Error) {
        description = String(describing: error)
    }
}
