#if LMDB
    import CLMDB
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    // Opening a log on LMDB: the directory and its files checked before LMDB sees them, the
    // environment opened (shared with the other instances of this process), an untrusted log's
    // pages walked, and LMDB's refusals turned into errors that say what to do.
    extension LMDBLogStorage {
        /// Opens the log in the directory at `path` with `options` (its path already checked to be a
        /// path), creating the directory and an empty log when ``ChangeLog/Options/createIfMissing``
        /// allows it. ``ChangeLog/init(path:options:)`` documents what it throws.
        @available(*, noasync, message: "opening may take LMDB's writer lock; call it from a synchronous context")
        static func open(path: String, options: ChangeLog.Options) throws(ChangeLogError) -> LMDBLogStorage {
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
                        message: "no log at \(path): check the path" + creationAdvice(options),
                        path: path)
                }
                try ChangeLog.createDirectory(at: path, fileMode: options.fileMode)
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
                            + creationAdvice(options),
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
                flags: options.durability.lmdbFlags | (options.readOnly ? UInt32(MDB_RDONLY) : 0),
                fileMode: mode_t(options.fileMode))
            let environment = try Self.openEnvironment(path: path, configuration: configuration)
            guard environment.configuration.flags == configuration.flags else {
                throw Self.incompatibility(path: path, openFlags: environment.configuration.flags, options: options)
            }
            if options.untrusted {
                try Self.walkPages(of: environment, path: path, configuration: configuration)
            }
            let storage = try open(environment: environment, path: path, readOnly: options.readOnly)
            if !options.keepsHistoryIndex { storage.history.disable() }
            return storage
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
                    message:
                        "cannot open the log at \(path): its \(special.name) is \(special.kind), not a regular file "
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
        private static func incompatibility(path: String, openFlags: UInt32, options: ChangeLog.Options)
            -> ChangeLogError
        {
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
            let openMode = [ChangeLog.Durability.durable, .noMetaSync, .noSync].first {
                $0.lmdbFlags == durabilityFlags
            }
            return ChangeLogError(
                code: .incompatibleOptions,
                message: "the log at \(path) is already open in this process with durability "
                    + "\(openMode?.name ?? "flags \(durabilityFlags)"); open it with the same durability",
                path: path)
        }

        /// How to get a log where none is, for the messages of ``ChangeLogError/Code/logNotFound``:
        /// nothing to add for a log opened read-only, which is never created.
        private static func creationAdvice(_ options: ChangeLog.Options) -> String {
            options.readOnly ? "" : ", or pass Options(createIfMissing: true) to create one"
        }

        /// The error for a log directory that could not be created: the system's reason, with advice
    }
#endif
