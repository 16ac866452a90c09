#if LMDB
    import CFileWriteback
    import CLMDB
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Opening: the process-wide registry that hands out the environment already open at a path,
    /// and the creation of a new one.
    extension LMDBEnvironment {
        struct Registration {
            weak var environment: LMDBEnvironment?
        }

        private enum Lookup {
            case found(LMDBEnvironment)
            case closing
            /// The environment open here maps a data file that is no longer the one at the path.
            /// It is carried out of the lock: if this was its last reference, its `deinit` takes the
            /// registry's lock, so it must not be released inside it.
            case stale(LMDBEnvironment)
        }

        /// How long opening a deleted or replaced log waits for the process to release the
        /// environment of the old files (its last users may be finishing a transaction).
        private static let staleReleaseWait = Duration.milliseconds(500)

        /// Every environment open in this process, by canonical path. An entry whose environment is
        /// gone is being closed: opening that path waits until the close has finished.
        static let registry = Mutex<[String: Registration]>([:])

        /// Opens the environment in the existing directory `directory`, or returns the one this
        /// process already has open there (whatever its configuration; compare
        /// ``configuration`` when it matters).
        ///
        /// The environment this process has open must still map the data file at that path. When
        /// the log was deleted or replaced behind it (a restored backup), it maps a file that is no
        /// longer there, and a second environment of the same directory in one process is unsafe
        /// (LMDB's locks are per process): opening fails with `ESTALE` until every user of the old
        /// environment has released it.
        ///
        /// The handle is created, configured and opened in that order; if any step fails it is
        /// closed again before the error is thrown.
        ///
        /// - Throws: ``LMDBError`` with an `errno` code when the directory is missing or unreadable
        ///   (`ENOSPC` or `EDQUOT` when there is no space for the lock file, `ENODEV` when `data.mdb`
        ///   or `lock.mdb` is not a regular file: ``SpecialFile``; `ELOOP` when `data.mdb`, or for a
        ///   writer `lock.mdb`, is a symbolic link: ``LinkedFile``), or LMDB's code when the files are
        ///   not an LMDB environment. An environment opened for reading only is read without a lock
        ///   file that is missing or not a plain file of its own (``LockFileDistrust``).
        @available(*, noasync, message: "opening blocks on file locks; call it from a synchronous context")
        package static func open(directory: String, configuration: Configuration = Configuration()) throws(LMDBError)
            -> LMDBEnvironment
        {
            guard let resolved = realpath(directory, nil) else {
                throw LMDBError(code: errno)
            }
            let path = String(cString: resolved)
            free(resolved)
            var staleSince: ContinuousClock.Instant?
            while true {
                let lookup = try registry.withLock { registry throws(LMDBError) -> Lookup in
                    if let registration = registry[path] {
                        guard let environment = registration.environment else { return .closing }
                        guard environment.mapsFile(inDirectory: path) else {
                            return .stale(environment)
                        }
                        return .found(environment)
                    }
                    let environment = try create(path: path, configuration: configuration)
                    registry[path] = Registration(environment: environment)
                    return .found(environment)
                }
                switch lookup {
                case .found(let environment):
                    return environment
                case .closing:
                    usleep(100)
                case .stale:
                    let now = ContinuousClock.now
                    if staleSince == nil { staleSince = now }
                    guard let since = staleSince, now - since < staleReleaseWait else {
                        throw LMDBError(code: ESTALE)
                    }
                    usleep(1_000)
                }
            }
        }

        private static func create(path: String, configuration: Configuration) throws(LMDBError) -> LMDBEnvironment {
            let readOnly = configuration.flags & UInt32(MDB_RDONLY) != 0
            // On a read-only file system LMDB would read without the lock file unannounced: asked
            // for explicitly, the environment says so (``isOpenWithoutLockFile``).
            var information = statvfs()
            let readOnlyStorage =
                readOnly && statvfs(path, &information) == 0 && information.f_flag & UInt(ST_RDONLY) != 0
            // A reader lets LMDB open only a lock file that is a plain file of its own, with no more
            // reader slots than it holds; any other, or none, it leaves alone (``LockFileDistrust``).
            var readers = configuration.maxReaders
            var distrust: LockFileDistrust?
            if readOnly, !readOnlyStorage {
                switch LockFileDistrust.examine(directory: path, maxReaders: configuration.maxReaders) {
                case .usable(let slots): readers = slots
                case .distrusted(let why): distrust = why
                }
            }
            let lockless = readOnlyStorage || distrust != nil
            do {
                return try create(
                    path: path, configuration: configuration, readers: readers, lockFileDistrust: distrust,
                    openFlags: configuration.flags | (lockless ? UInt32(MDB_NOLOCK) : 0))
            } catch let first where [EPERM, EACCES].contains(first.code) && readOnly && !lockless {
                // The lock file is immutable (`chattr +i`, as archived logs may be) or this user may
                // not write it (another user's log): LMDB cannot record this reader in it, so the
                // log is read without it, and says so (``isOpenWithoutLockFile``). When the failure
                // was something else, the retry fails too, and the first error is thrown.
                do {
                    return try create(
                        path: path, configuration: configuration, readers: readers, lockFileDistrust: nil,
                        openFlags: configuration.flags | UInt32(MDB_NOLOCK))
                } catch {
                    throw first
                }
            }
        }

        /// Creates, configures and opens an environment with `openFlags` (besides `MDB_NOTLS`) and
        /// room for `readers` readers, recording `configuration` as the one asked for, and
        /// `lockFileDistrust` as why it is opened without its lock file, if it is.
        ///
        /// Unless the environment is opened without its lock file (`MDB_NOLOCK`), the lock file's
        /// blocks are allocated first (``LockFileSpace``): on a full file system, LMDB's writes
        /// into its map of the file would end the process with `SIGBUS`; this throws `ENOSPC`.
        /// A data file that this open was to create and that LMDB left incomplete is emptied again
        /// (`IncompleteDataFile.discard(at:)`). The files this open creates get the permission bits
        /// of ``Configuration/fileMode`` exactly (``FileModes``).
        private static func create(
            path: String, configuration: Configuration, readers: UInt32, lockFileDistrust: LockFileDistrust?,
            openFlags: UInt32
        ) throws(LMDBError) -> LMDBEnvironment {
            // A FIFO in place of a file would make LMDB's open wait forever (``SpecialFile``).
            guard SpecialFile.first(inDirectory: path) == nil else { throw LMDBError(code: ENODEV) }
            // A log's files are never followed through links (``LinkedFile``); a reader reads past a
            // linked lock file without it (``LockFileDistrust``).
            let readOnly = openFlags & UInt32(MDB_RDONLY) != 0
            if LinkedFile.first(inDirectory: path, names: readOnly ? ["data.mdb"] : SpecialFile.environmentFiles) != nil
            {
                throw LMDBError(code: ELOOP)
            }
            // A meta page naming impossible pages would make LMDB abort, or map past the file (``MetaPage``).
            try MetaPage.check(dataFileAt: path + "/data.mdb")
            let dataPath = path + "/data.mdb"
            let lockPath = path + "/lock.mdb"
            let createsDataFile = [.missing, .emptyFile].contains(PathStatus(of: dataPath))
            let modes = FileModes(configuration.fileMode, dataFile: dataPath, lockFile: lockPath)
            if openFlags & UInt32(MDB_NOLOCK) == 0 {
                _ = try LockFileSpace.ensure(
                    directory: path, maxReaders: configuration.maxReaders, mode: modes.lockFile)
            }
            var created: OpaquePointer?
            try LMDBError.check(mdb_env_create(&created))
            guard let handle = created else { throw LMDBError(code: ENOMEM) }
            do throws(LMDBError) {
                try LMDBError.check(mdb_env_set_maxdbs(handle, configuration.maxDatabases))
                try LMDBError.check(mdb_env_set_maxreaders(handle, readers))
                try LMDBError.check(mdb_env_set_mapsize(handle, configuration.mapSize))
                try LMDBError.check(mdb_env_open(handle, path, UInt32(MDB_NOTLS) | openFlags, modes.dataFile))
                modes.applyToCreatedFiles()
                var dead: Int32 = 0
                try LMDBError.check(mdb_reader_check(handle, &dead))
                guard let dataFile = FileIdentity(path: dataPath) else { throw LMDBError(code: errno) }
                var stat = MDB_stat()
                try LMDBError.check(mdb_env_stat(handle, &stat))
                try checkDataFileLength(of: handle, pageSize: Int(stat.ms_psize))
                return LMDBEnvironment(
                    path: path, configuration: configuration, handle: handle, staleReadersCleared: Int(dead),
                    dataFile: dataFile, pageSize: Int(stat.ms_psize), lockFileDistrust: lockFileDistrust)
            } catch {
                mdb_env_close(handle)
                if createsDataFile, openFlags & UInt32(MDB_RDONLY) == 0 {
                    IncompleteDataFile.discard(at: dataPath, lockFile: lockPath)
                }
                throw error
            }
        }
    }

    /// A new environment's data file that LMDB left incomplete.
    private enum IncompleteDataFile {
        /// Empties the data file at `path` when it holds less than LMDB's two meta pages: what
        /// LMDB leaves when writing a new environment's meta pages fell short (a full disk fits
        /// one page of the two). Such a file is no environment, and LMDB would refuse it at every
        /// later open (`MDB_INVALID`) instead of creating the log there; empty, it is a new
        /// environment again. A data file of two pages or more, such as one that another process
        /// created meanwhile, is left alone, and so is every file while another process has the
        /// environment open or is opening it: the file is examined and cut only under LMDB's own
        /// exclusive lock of `lockFile` (``changelog_lock_environment``), which no opener gets past.
        static func discard(at path: String, lockFile: String) {
            let lock = open(lockFile, O_RDWR | O_CLOEXEC)
            guard lock >= 0 else { return }
            defer { close(lock) }
            guard changelog_lock_environment(lock) == 0 else { return }
            defer { changelog_unlock_environment(lock) }
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            // A new environment's pages are the system's page size, at most 32 KB (MAX_PAGESIZE).
            let metaPages = 2 * min(Int(sysconf(Int32(_SC_PAGESIZE))), 32 << 10)
            var information = stat()
            guard fstat(descriptor, &information) == 0, information.st_size > 0, Int(information.st_size) < metaPages
            else { return }
            _ = ftruncate(descriptor, 0)
        }
    }
#endif
