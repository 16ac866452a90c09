/// A storage engine for one log: where its records and chunks live, and the one seam between
/// the log's engine-independent core and that place.
///
/// The core (``LogStore``, the writer and its group commit, reading, subscriptions, verify,
/// play, retention, the server) runs over this protocol and the transactions it lends
/// (``LogReadTransaction``, ``LogWriteTransaction``); records and chunks are the same bytes
/// on every engine, checksums and structural sharing included, so `verify` proves the same
/// thing everywhere. LMDB (``LMDBLogStorage``) is the embedded default; its page walk, file
/// defences, map and lock file stay on its side of the seam.
///
/// What each requirement means for an engine:
/// - ``read(_:)``: a consistent snapshot of the log (LMDB: a read transaction; PostgreSQL: a
///   repeatable-read transaction; a file: its length when the read began). Reads never block
///   the writer.
/// - ``write(appending:_:)``: the log's one write transaction at a time, across processes and
///   hosts, committed when the body returns and rolled back when it throws. It may run the body
///   again from the start (LMDB does when its map must grow), so the body derives what it writes
///   from what it reads in the transaction it is given. When this returns, the transaction is
///   committed with the durability the log was opened with.
/// - ``makeCommitWatcher(pollInterval:watchesFiles:check:)``: how subscriptions learn of
///   commits made elsewhere (``CommitWatcher``).
/// - ``historyIndex()``: where the history index lives (``HistoryIndexStorage``), written in
///   the append's own transaction (``LogWriteTransaction/indexHistory(_:revision:)``);
///   ``indexesHistory`` says whether there is one.
/// - ``appendInOneStep(_:)``: optional, a prepared append checked and stored in one request.
/// - ``flush()``, ``space()``, ``bytesInUse``, ``isStillAtPath``: durability on demand, what the
///   log takes on disk, and whether the log at the path is still the one opened.
package protocol LogStorage: AnyObject, Sendable {
    /// Where the log is, as given when it was opened: named in every message.
    var path: String { get }

    /// Whether the log was opened for reading only.
    var isReadOnly: Bool { get }

    /// Runs `body` in a read of the log and ends the read when `body` returns or throws.
    /// Bytes read must be copied out inside `body`. Do not begin another read or a write of
    /// this log inside `body`.
    ///
    /// - Throws: what `body` throws, or the engine's failure (a ``StorageEngineError``).
    @available(*, noasync, message: "a read must not span an await; use it from synchronous code")
    func read<R>(_ body: (borrowing any LogReadTransaction & ~Copyable) throws -> R) throws -> R

    /// Runs `body` in the log's write transaction, commits when it returns and rolls back when
    /// it throws, rethrowing the error. `body` may run more than once (see the type's
    /// documentation). `appending` says the transaction appends: an engine may make room ahead
    /// of it (LMDB keeps zero-filled space ahead of its data file).
    ///
    /// - Throws: what `body` throws, or the engine's failure (a ``StorageEngineError``).
    @available(*, noasync, message: "a transaction must not span an await; use it from synchronous code")
    func write<R>(appending: Bool, _ body: (borrowing any LogWriteTransaction & ~Copyable) throws -> R) throws -> R

    /// A stopped watcher that calls `check` whenever a commit made outside this instance may
    /// have happened (on the engine's own events, unless `watchesFiles` is false) and at least
    /// every `pollInterval` once started.
    func makeCommitWatcher(pollInterval: Duration, watchesFiles: Bool, check: @escaping @Sendable () -> Void)
        -> any CommitWatcher

    /// The engine's history index of the log.
    func historyIndex() -> any HistoryIndexStorage

    /// Makes every committed revision durable, for the relaxed durability modes. Does nothing
    /// for a log opened for reading only.
    ///
    /// - Throws: ``ChangeLogError/Code/storage`` when the flush fails.
    func flush() throws(ChangeLogError)

    /// The bytes the log's data takes in its storage, free space kept for reuse included. O(1).
    var bytesInUse: Int { get }

    /// What the log takes on disk: its files' size, the part in use, the part freed for reuse.
    ///
    /// - Throws: ``ChangeLogError`` when the engine's figures cannot be read, or are damaged.
    func space() throws(ChangeLogError) -> StorageSpace

    /// Whether the log at ``path`` is still the one this instance opened: `false` once it was
    /// deleted, or replaced, behind the instance's back.
    var isStillAtPath: Bool { get }

    /// Where the log's asynchronous callers run their reads: `nil` (LMDB, a file) where a read
    /// is local and short enough for Swift's cooperative pool; an executor of the engine's own
    /// threads where a read waits on the network (PostgreSQL), since no wait may block a thread
    /// of the cooperative pool. Subscriptions' reads (``RevisionSubscriber``, ``LiveFeed``) run
    /// with it as their task executor preference.
    var readExecutor: (any TaskExecutor)? { get }

    /// The revision from which the log should be kept after the commit that just ended, when
    /// the engine keeps the log within a size budget and the log went past it; `nil` otherwise.
    /// The writer then drops the revisions before it (``ChangeLog/dropRevisions(before:)``'s
    /// path) in a transaction of its own, before the appends that committed return.
    func revisionToKeepFrom() -> UInt64?

    /// Whether the engine keeps a history index (``LogWriteTransaction/indexHistory(_:revision:)``
    /// stores what it is given): when it does not, the writer does not work out what each
    /// revision touched.
    var indexesHistory: Bool { get }

    /// Stores `append` in a transaction of its own, in one step, when the log still ends where
    /// it was prepared after: its latest revision is `append.afterRevision` with exactly the
    /// record `append.afterRecord`, and its next chunk identifier is `append.nextChunkID`.
    ///
    /// An engine whose every wait costs a round trip (PostgreSQL) offers this so that a lone
    /// appender's commit is one request, not a transaction's several. It must keep the
    /// guarantees of ``write(appending:_:)``: writers take turns, the check and the puts are one
    /// transaction, all or nothing, committed with the log's durability when this returns.
    ///
    /// Called only where ``appendsInOneStep`` is true.
    ///
    /// - Returns: `true` when `append` was committed; `false` when nothing was written (the log
    ///   ended elsewhere, or the engine could not take it in one step): the writer then appends
    ///   through ``write(appending:_:)``.
    /// - Throws: the engine's failure (a ``StorageEngineError``), saying whether anything was
    ///   committed.
    @available(*, noasync, message: "a transaction must not span an await; use it from synchronous code")
    func appendInOneStep(_ append: OneStepAppend) throws -> Bool

    /// Whether the engine offers ``appendInOneStep(_:)``.
    var appendsInOneStep: Bool { get }
}

/// An append ready to be stored in one step (``LogStorage/appendInOneStep(_:)``): its sealed
/// chunks and records, and the end of the log they were prepared after.
package struct OneStepAppend: Sendable {
    /// The new chunks, in ascending identifier order.
    package var chunks: [(id: UInt64, value: [UInt8])]
    /// The records, in ascending revision order, from `afterRevision + 1` without a gap.
    package var records: [(revision: UInt64, bytes: [UInt8])]
    /// Whether a chunk is compressed or a dictionary (``LogWriteTransaction/noteCompressedChunks()``).
    package var usesCompression: Bool
    /// The latest revision the records follow; 0 for an empty log.
    package var afterRevision: UInt64
    /// The bytes of that revision's record; `nil` for an empty log.
    package var afterRecord: [UInt8]?
    /// The identifier of the first new chunk the log expects: one more than its largest stored
    /// chunk identifier, 1 when it holds none.
    package var nextChunkID: UInt64
}

extension LogStorage {
    /// No executor of the engine's own: reads run where their caller runs.
    package var readExecutor: (any TaskExecutor)? { nil }

    /// No size budget: nothing to drop.
    package func revisionToKeepFrom() -> UInt64? { nil }

    /// A history index is kept.
    package var indexesHistory: Bool { true }

    /// No single-step append: the writer appends through ``write(appending:_:)``.
    package var appendsInOneStep: Bool { false }

    /// Writes nothing: the engine offers no single-step append (``appendsInOneStep``).
    package func appendInOneStep(_ append: OneStepAppend) throws -> Bool { false }
}

/// What a log takes in its storage (``LogStorage/space()``).
package struct StorageSpace: Hashable, Sendable {
    /// The size of the log's files (or tables), room kept ahead of the data included.
    package var bytesOnDisk: Int
    /// The bytes that hold the log's data, freed space kept for reuse included.
    package var bytesInUse: Int
    /// The part of ``bytesInUse`` freed (by retention, by rewritten pages) for later writes.
    package var bytesFree: Int

    /// Creates the figures.
    package init(bytesOnDisk: Int, bytesInUse: Int, bytesFree: Int) {
        self.bytesOnDisk = bytesOnDisk
        self.bytesInUse = bytesInUse
        self.bytesFree = bytesFree
    }
}
