#if LMDB
    import CLMDB
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// An open LMDB environment: one directory holding `data.mdb` and `lock.mdb`, shared by every
    /// user of that directory in this process.
    ///
    /// LMDB forbids opening one environment twice in a process (closing either copy would release
    /// the other's file locks), so ``open(directory:configuration:)`` keeps a process-wide registry
    /// and hands out the environment already open at that path. The environment is closed when the
    /// last reference goes away; transactions keep it alive.
    ///
    /// It is opened with `MDB_NOTLS`: a read transaction is not tied to the thread that began it,
    /// which suits Swift tasks. Stale reader slots left by dead processes are cleared at open
    /// (`mdb_reader_check`). The map grows by itself: ``write(_:)`` grows it on `MDB_MAP_FULL` and
    /// redoes the transaction, and every transaction begin adopts growth made by another process
    /// (`MDB_MAP_RESIZED`).
    ///
    /// Durability is the one of the ``Configuration/flags`` the environment was opened with: by
    /// default a committed write transaction is on disk when ``LMDBTransaction/commit()`` returns.
    package final class LMDBEnvironment: Sendable {
        /// How to open an environment.
        package struct Configuration: Hashable, Sendable {
            /// The initial size of the memory map in bytes; it doubles whenever a write needs more.
            package var mapSize: Int
            /// The maximum number of named databases.
            package var maxDatabases: UInt32
            /// The maximum number of simultaneous read transactions across all processes.
            package var maxReaders: UInt32
            /// Extra `mdb_env_open` flags, such as `MDB_NOSYNC` or `MDB_NOMETASYNC`;
            /// `MDB_NOTLS` is always added.
            package var flags: UInt32
            /// The permission bits of the `data.mdb` this open creates, given exactly, whatever the
            /// process's `umask`; a `lock.mdb` it creates gets them (or those of the existing data
            /// file) with write added wherever read is, since readers record themselves in it
            /// (``FileModes``). Existing files keep theirs.
            package var fileMode: mode_t

            /// Creates a configuration; by default the files it creates are private to their owner
            /// (0600).
            package init(
                mapSize: Int = 64 << 20, maxDatabases: UInt32 = 8, maxReaders: UInt32 = 126, flags: UInt32 = 0,
                fileMode: mode_t = 0o600
            ) {
                self.mapSize = mapSize
                self.maxDatabases = maxDatabases
                self.maxReaders = maxReaders
                self.flags = flags
                self.fileMode = fileMode
            }
        }

        /// Facts about the environment, from `mdb_env_info` and `mdb_env_stat`.
        package struct Info: Hashable, Sendable {
            /// The current size of the memory map in bytes.
            package var mapSize: Int
            /// The size of a database page in bytes.
            package var pageSize: Int
            /// The number of the last page in use: the file's used extent is `(lastPage + 1) * pageSize`.
            package var lastPage: Int
            /// The identifier of the last committed transaction.
            package var lastTransactionID: Int
            /// The number of reader slots in use.
            package var readers: Int

            /// The bytes of the data file in use: `(lastPage + 1) * pageSize`, or 0 when that cannot
            /// be (``checkedUsedBytes`` is `nil`).
            package var usedBytes: Int { checkedUsedBytes ?? 0 }

            /// The bytes of the data file in use, `(lastPage + 1) * pageSize`; `nil` when the meta
            /// page's last page number makes that negative or larger than `Int` holds, which only
            /// a damaged meta page does. Computed without trapping.
            package var checkedUsedBytes: Int? {
                guard lastPage >= -1, pageSize > 0 else { return nil }
                let (pages, overflow) = lastPage.addingReportingOverflow(1)
                guard !overflow else { return nil }
                let (bytes, tooLarge) = pages.multipliedReportingOverflow(by: pageSize)
                return tooLarge ? nil : bytes
            }
        }

        /// The canonical path of the environment's directory.
        package let path: String
        /// The configuration of the first opening of this path in the process.
        package let configuration: Configuration
        /// The number of stale reader slots of dead processes that were cleared at open.
        package let staleReadersCleared: Int
        /// The `MDB_env` handle; valid until `deinit`. Shared between threads as LMDB allows: its
        /// calls on an environment are thread-safe, except resizing the map (callers hold ``gate``
        /// exclusively) and opening named databases (``openingDatabases(_:)``).
        nonisolated(unsafe) package let handle: OpaquePointer
        /// The data file this environment maps, as it was when it was opened.
        private let dataFile: FileIdentity
        /// The environment's page size, fixed when its data file was created.
        let pageSize: Int
        /// Keeps transactions away from the map while it is resized.
        let gate = MapResizeGate()
        /// Where the map lies and how much of it the data file backs: what LMDB lends is checked
        /// against it (``MappedFileBounds``).
        let mapBounds: MappedFileBounds
        /// The size of the data file when keeping space ahead of it last failed (a full disk, a
        /// file-size limit), or -1: not retried until the file's size changes.
        private let reserveFailedAtSize = Atomic<Int>(-1)
        /// The `errno` of a remap that failed (`mdb_env_set_mapsize`), or 0. LMDB unmaps the file
        /// before it maps it at the new size, and leaves no map when that fails: every later
        /// transaction, and ``info()``, would read the unmapped meta pages. Set while the gate is held
        /// exclusively; read by transactions once they entered the gate.
        private let remapFailure = Atomic<Int32>(0)
        /// Held while named databases are opened (`mdb_dbi_open`), which LMDB forbids from
        /// concurrent transactions of one process: two instances of one log opening at once on two
        /// threads made a later commit fail with `MDB_BAD_DBI`.
        private let databaseOpening = Mutex(())
        /// The meta page transactions last found sound (``checkMetaPage(of:readOnly:fileModified:)``).
        let checkedMetaPage = Mutex<CheckedMetaPage?>(nil)

        /// Wraps an opened handle; ``open(directory:configuration:)`` is the way to an environment.
        init(
            path: String, configuration: Configuration, handle: OpaquePointer, staleReadersCleared: Int,
            dataFile: FileIdentity, pageSize: Int, lockFileDistrust: LockFileDistrust? = nil
        ) {
            self.lockFileDistrust = lockFileDistrust
            self.pageSize = pageSize
            self.path = path
            self.configuration = configuration
            self.handle = handle
            self.staleReadersCleared = staleReadersCleared
            self.dataFile = dataFile
            self.mapBounds = MappedFileBounds(handle: handle, device: dataFile.device, inode: dataFile.inode)
        }

        /// Whether `data.mdb` in `directory` is still the file the environment opened (and maps):
        /// not when it was deleted, or replaced by another environment's. `directory` is ``path``
        /// or another name of it, such as a symbolic link that ``path`` resolved when it was opened.
        package func mapsFile(inDirectory directory: String) -> Bool {
            FileIdentity(path: directory + "/data.mdb") == dataFile
        }

        /// Why a read-only open left `lock.mdb` alone and read without it, when it did because of
        /// the file itself: missing, a link, sparse (``LockFileDistrust``); `nil` otherwise.
        package let lockFileDistrust: LockFileDistrust?

        /// Whether the environment was opened without its lock file (`MDB_NOLOCK`): read-only, when
        /// the lock file is missing or not a plain file of its own (``lockFileDistrust``), this
        /// process cannot write `lock.mdb` (another user's, immutable) or the file system is
        /// read-only. Its read transactions are then in no reader table: a writer in another
        /// process does not know of them, and may reuse the pages they read.
        package var isOpenWithoutLockFile: Bool {
            var flags: UInt32 = 0
            guard mdb_env_get_flags(handle, &flags) == MDB_SUCCESS else { return false }
            return flags & UInt32(MDB_NOLOCK) != 0
        }

        /// A file's device and inode: what stays the same while a file is the same file.
        struct FileIdentity: Equatable {
            var device: UInt64
            var inode: UInt64

            /// The identity of the file at `path`, or `nil` when there is none (or it cannot be read).
            init?(path: String) {
                var status = stat()
                guard stat(path, &status) == 0 else { return nil }
                device = UInt64(status.st_dev)
                inode = UInt64(status.st_ino)
            }
        }

        deinit {
            // No transaction is open: each one keeps the environment alive. Named database handles
            // are never closed one by one; mdb_env_close releases them.
            mdb_env_close(handle)
            Self.registry.withLock { registry in
                if registry[path]?.environment == nil {
                    registry[path] = nil
                }
            }
        }

        // MARK: - Transactions

        /// Runs `body` in a read-only transaction and ends the transaction when `body` returns or
        /// throws. Bytes read must be copied out inside `body`.
        ///
        /// Do not begin another transaction of this environment inside `body`.
        package func read<R>(_ body: (borrowing LMDBTransaction) throws -> R) throws -> R {
            let transaction = try LMDBTransaction(environment: self, readOnly: true)
            do {
                let result = try body(transaction)
                transaction.abort()
                return result
            } catch {
                transaction.abort()
                throw error
            }
        }

        /// Runs `body` in a write transaction, commits when it returns and aborts when it throws,
        /// rethrowing the error.
        ///
        /// When the map is full (`MDB_MAP_FULL`, thrown by `body` or by the commit) the transaction
        /// is aborted, the map doubled, and `body` run again from the start, in a new transaction:
        /// `body` must therefore derive everything it writes from what it reads in the transaction
        /// it is given. Durability is the environment's: with default flags the transaction is on
        /// disk when this returns.
        ///
        /// With `reservingSpace`, the transaction first keeps zero-filled space ahead of the data
        /// file's used end (``DataFileReserve``): for transactions that append, not for ones that
        /// only open databases.
        ///
        /// Do not begin another transaction of this environment inside `body`.
        package func write<R>(reservingSpace: Bool = false, _ body: (borrowing LMDBTransaction) throws -> R) throws -> R
        {
            while true {
                var observedMapSize = 0
                do {
                    return try writeOnce(body, reservingSpace: reservingSpace, observingMapSize: &observedMapSize)
                } catch let error as LMDBError where error == .mapFull {
                    try grow(from: observedMapSize)
                }
            }
        }

        /// One attempt of ``write(_:)``; sets `observedMapSize` to the map size the transaction
        /// runs in, read while the transaction keeps resizes out.
        private func writeOnce<R>(
            _ body: (borrowing LMDBTransaction) throws -> R, reservingSpace: Bool,
            observingMapSize observedMapSize: inout Int
        ) throws -> R {
            let transaction = try LMDBTransaction(environment: self, readOnly: false)
            let info = unguardedInfo()
            observedMapSize = info.mapSize
            if reservingSpace {
                reserveSpaceAhead(info)
            }
            let result: R
            do {
                result = try body(transaction)
            } catch {
                transaction.abort()
                throw error
            }
            try transaction.commit()
            return result
        }

        // MARK: - The map

        /// Doubles the map, unless it has already grown past `observedSize` since the caller saw it.
        ///
        /// - Throws: `ENOMEM` when the process cannot map that much (its address space or
        ///   `RLIMIT_AS`); the map then stays as it was and the environment stays usable.
        package func grow(from observedSize: Int) throws(LMDBError) {
            try gate.withExclusiveAccess { () throws(LMDBError) in
                try checkMapped()
                let current = unguardedInfo().mapSize
                guard current <= observedSize else { return }
                let (doubled, overflow) = current.multipliedReportingOverflow(by: 2)
                guard !overflow else { throw LMDBError(code: ENOMEM) }
                // LMDB unmaps the file before mapping it again at the new size, and cannot map it
                // again at the old size when that fails: make sure the new size can be mapped first.
                try Self.probeMapping(of: doubled)
                try remap(to: doubled)
            }
        }

        /// Adopts the map size another process has grown the environment to (`MDB_MAP_RESIZED`).
        ///
        /// - Throws: `MDB_CORRUPTED`, keeping the current map, when the meta page that asks for the
        ///   larger map is damaged (``MetaPage/checkBeforeAdoptingResizedMap(of:)``).
        func adoptResizedMap() throws(LMDBError) {
            try gate.withExclusiveAccess { () throws(LMDBError) in
                try checkMapped()
                try MetaPage.checkBeforeAdoptingResizedMap(of: handle)
                try remap(to: 0)
            }
        }

        /// `mdb_env_set_mapsize`, holding the gate exclusively; a failure leaves the environment
        /// without a map, which ``remapFailure`` records.
        private func remap(to size: Int) throws(LMDBError) {
            let result = mdb_env_set_mapsize(handle, size)
            mapBounds.mapMoved()
            if result != MDB_SUCCESS {
                remapFailure.store(result, ordering: .relaxed)
            }
            try LMDBError.check(result)
        }

        /// Throws when a remap failed and left the environment without a map; call it holding the
        /// gate.
        func checkMapped() throws(LMDBError) {
            let failure = remapFailure.load(ordering: .relaxed)
            guard failure == 0 else { throw LMDBError(code: failure) }
        }

        /// Throws when this process cannot map `size` more bytes now (an inaccessible reservation
        /// of that size fails).
        private static func probeMapping(of size: Int) throws(LMDBError) {
            guard
                let reservation = mmap(nil, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
                reservation != MAP_FAILED
            else { throw LMDBError(code: errno) }
            munmap(reservation, size)
        }

        /// The current map size, page size, used extent and reader count.
        ///
        /// LMDB reads them from the meta pages, inside the map, so this keeps resizes out while it
        /// reads, as a transaction does: do not call it inside a transaction of this environment.
        /// After a remap that failed and left no map, every figure but the page size is 0.
        package func info() -> Info {
            gate.enter()
            defer { gate.leave() }
            return unguardedInfo()
        }

        /// ``info()``, for a caller that already keeps resizes out: inside a transaction, or holding
        /// the gate exclusively.
        private func unguardedInfo() -> Info {
            var info = MDB_envinfo()
            // Without a map (a failed remap), or with a data file cut shorter than the meta pages,
            // LMDB would read meta pages that are not there: report zeros.
            guard remapFailure.load(ordering: .relaxed) == 0,
                Self.holdsMetaPages(length: Self.dataFileLength(of: handle), pageSize: pageSize)
            else {
                return Info(mapSize: 0, pageSize: pageSize, lastPage: -1, lastTransactionID: 0, readers: 0)
            }
            _ = mdb_env_info(handle, &info)
            return Info(
                mapSize: info.me_mapsize, pageSize: pageSize, lastPage: info.me_last_pgno,
                lastTransactionID: info.me_last_txnid, readers: Int(info.me_numreaders))
        }

        /// Keeps zero-filled space ahead of the data file's used end (``DataFileReserve``), given
        /// the environment's `info` as the transaction begins. Called at the start of a write
        /// transaction: the writer lock is held and no page written yet.
        private func reserveSpaceAhead(_ info: Info) {
            var descriptor: mdb_filehandle_t = -1
            guard mdb_env_get_fd(handle, &descriptor) == MDB_SUCCESS else { return }
            let outcome = DataFileReserve.ensure(
                descriptor: descriptor, usedBytes: info.usedBytes, pageSize: info.pageSize, mapSize: info.mapSize,
                startWriteback: configuration.flags & UInt32(MDB_NOSYNC) == 0,
                unlessSize: reserveFailedAtSize.load(ordering: .relaxed))
            if case .failed(let size) = outcome {
                reserveFailedAtSize.store(size, ordering: .relaxed)
                // The file was cut back to its size before the reserve.
                mapBounds.fileMayHaveShrunk()
            }
        }

        /// Runs `body`, which opens named databases, while no other thread of this process does.
        package func openingDatabases<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
            try databaseOpening.withLock { _ throws(E) in try body() }
        }

        /// Frees the reader slots of processes that died during a read (`mdb_reader_check`);
        /// returns how many.
        func clearStaleReaders() -> Int {
            var dead: Int32 = 0
            guard mdb_reader_check(handle, &dead) == MDB_SUCCESS else { return 0 }
            return Int(dead)
        }

        /// Flushes committed transactions to disk (`mdb_env_sync` with `force`), which matters only
        /// when the environment was opened with `MDB_NOSYNC` or `MDB_NOMETASYNC`.
        package func sync() throws(LMDBError) {
            try LMDBError.check(mdb_env_sync(handle, 1))
        }
    }
#endif
