#if LMDB
    import CLMDB
    import Foundation

    /// The LMDB engine of a log: the log's three databases (`revisions`, `chunks`, `meta`, and the
    /// history index's `history`) in one LMDB environment, a directory holding `data.mdb` and
    /// `lock.mdb` (RecordFormat.md describes the layout).
    ///
    /// LMDB is the embedded default: one machine, many processes, nothing to run. One writer at a
    /// time across processes (LMDB's writer lock), readers that never block it, the map grown by
    /// itself. What is LMDB's alone stays here and under `LMDB/`: opening and its refusals
    /// (``open(path:options:)``), the page walk of untrusted logs and the other file defences, the
    /// map, the lock file, the history index's B-tree (``LMDBHistoryIndex``) and the file watcher
    /// that notices other processes' commits (``LogFileWatcher``).
    ///
    /// Inside a transaction, LMDB failures propagate as ``LMDBError`` (so that
    /// ``LMDBEnvironment/write(reservingSpace:_:)`` can grow the map and redo) and everything else as
    /// ``ChangeLogError``.
    final class LMDBLogStorage: LogStorage {
        /// The version of the database layout, stored under ``formatKey`` in `meta`: a new log's.
        static let layoutVersion: UInt8 = 1
        /// The layout version of a log that holds compressed chunks: a log moves to it when its
        /// first compressed chunk or dictionary is written.
        static let compressedLayoutVersion: UInt8 = 2
        /// The `meta` key of the layout version.
        static let formatKey = Array("format".utf8)

        let environment: LMDBEnvironment
        /// Revision records by big-endian revision number.
        let revisions: LMDBDatabase
        /// Snapshot chunks by big-endian chunk identifier.
        let chunks: LMDBDatabase
        /// The layout version.
        let meta: LMDBDatabase
        let path: String
        let isReadOnly: Bool
        /// The history index's database, once known to exist (``LMDBHistoryIndex``).
        let history = HistoryDatabaseSlot()

        init(
            environment: LMDBEnvironment, revisions: LMDBDatabase, chunks: LMDBDatabase, meta: LMDBDatabase,
            path: String,
            readOnly: Bool
        ) {
            self.environment = environment
            self.revisions = revisions
            self.chunks = chunks
            self.meta = meta
            self.path = path
            self.isReadOnly = readOnly
        }

        // MARK: - Transactions

        func read<R>(_ body: (borrowing any LogReadTransaction & ~Copyable) throws -> R) throws -> R {
            try environment.read { transaction in
                try withUnsafePointer(to: transaction) { pointer in
                    let view = LMDBLogTransaction(pointer, storage: self)
                    return try body(view as any LogReadTransaction & ~Copyable)
                }
            }
        }

        func write<R>(appending: Bool, _ body: (borrowing any LogWriteTransaction & ~Copyable) throws -> R) throws -> R
        {
            try environment.write(reservingSpace: appending) { transaction in
                try withUnsafePointer(to: transaction) { pointer in
                    let view = LMDBLogTransaction(pointer, storage: self)
                    return try body(view as any LogWriteTransaction & ~Copyable)
                }
            }
        }

        /// Lends `transaction`, one of this storage's environment, to `body` as the log's transaction.
        func withLogTransaction<R>(
            _ transaction: borrowing LMDBTransaction, _ body: (borrowing LMDBLogTransaction) throws -> R
        ) throws -> R {
            try withUnsafePointer(to: transaction) { pointer in
                let view = LMDBLogTransaction(pointer, storage: self)
                return try body(view)
            }
        }

        /// Runs `body` in an LMDB read transaction, converting every failure to a ``ChangeLogError``.
        func readLMDB<R>(during operation: String, _ body: (borrowing LMDBTransaction) throws -> R)
            throws(ChangeLogError) -> R
        {
            do {
                return try environment.read(body)
            } catch {
                throw ChangeLogError.wrapping(error, path: path, during: operation)
            }
        }

        // MARK: - Watching, history, space

        func makeCommitWatcher(pollInterval: Duration, watchesFiles: Bool, check: @escaping @Sendable () -> Void)
            -> any CommitWatcher
        {
            LogFileWatcher(
                dataFile: environment.path + "/data.mdb", pollInterval: pollInterval, watchesFile: watchesFiles,
                check: check)
        }

        func historyIndex() -> any HistoryIndexStorage {
            LMDBHistoryIndex(store: LogStore(storage: self), storage: self, readOnly: isReadOnly)
        }

        func flush() throws(ChangeLogError) {
            guard !isReadOnly else { return }
            do {
                try environment.sync()
            } catch {
                throw ChangeLogError.storage(error, path: path, during: "flushing")
            }
        }

        var bytesInUse: Int { environment.info().usedBytes }

        func space() throws(ChangeLogError) -> StorageSpace {
            let dataFile = URL(fileURLWithPath: path).appendingPathComponent("data.mdb").path
            let attributes = try? FileManager.default.attributesOfItem(atPath: dataFile)
            let bytesOnDisk = (attributes?[.size] as? NSNumber)?.intValue ?? 0
            let info = environment.info()
            let damaged = ChangeLogError.storage(LMDBError(code: MDB_CORRUPTED), path: path, during: "reading")
            guard let used = info.checkedUsedBytes else { throw damaged }
            let freePages = try readLMDB(during: "reading") { transaction in try transaction.freePageCount() }
            let (freeBytes, overflow) = freePages.multipliedReportingOverflow(by: info.pageSize)
            guard !overflow else { throw damaged }
            return StorageSpace(bytesOnDisk: bytesOnDisk, bytesInUse: used, bytesFree: min(used, freeBytes))
        }

        var isStillAtPath: Bool { environment.mapsFile(inDirectory: path) }
    }
#endif
