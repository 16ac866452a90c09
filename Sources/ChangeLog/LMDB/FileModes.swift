#if LMDB
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The permission bits of the files one open of an environment creates, and which files it
    /// creates.
    ///
    /// LMDB creates `data.mdb` and `lock.mdb` with the mode it is given, less the process's
    /// `umask`. A log is private by default, and a mode asked for is meant as given (as
    /// `mkdir -m` and `install -m` apply theirs): after LMDB's open, the files this open created
    /// are given their bits exactly, whatever the `umask`. Files that existed keep theirs.
    ///
    /// LMDB's readers record themselves in `lock.mdb`, so whoever may read the log must be able to
    /// write the lock file: it gets the data file's bits with write added wherever read is
    /// (``lockFileMode(forDataFileMode:)``). A lock file created beside an existing data file (one
    /// deleted, or never made by a copy) is derived from that data file's bits, so that the users
    /// who may read the log may still open it.
    struct FileModes {
        /// The bits of a new `data.mdb`.
        let dataFile: mode_t
        /// The bits of a new `lock.mdb`.
        let lockFile: mode_t
        private let dataPath: String
        private let lockPath: String
        private let dataFileWasMissing: Bool
        private let lockFileWasMissing: Bool

        /// The modes for an open of the environment whose files are at `dataFile` and `lockFile`,
        /// asked to create files with the bits of `mode`; examines both paths now, before the open.
        init(_ mode: mode_t, dataFile dataPath: String, lockFile lockPath: String) {
            self.dataPath = dataPath
            self.lockPath = lockPath
            var information = stat()
            if stat(dataPath, &information) == 0 {
                dataFileWasMissing = false
                lockFile = Self.lockFileMode(forDataFileMode: information.st_mode & 0o666)
            } else {
                dataFileWasMissing = errno == ENOENT
                lockFile = Self.lockFileMode(forDataFileMode: mode)
            }
            dataFile = mode
            lockFileWasMissing = stat(lockPath, &information) != 0 && errno == ENOENT
        }

        /// The bits of a lock file beside a data file of `mode`: the same, with write added for
        /// each of owner, group and others that may read (`0o660` for `0o640`).
        static func lockFileMode(forDataFileMode mode: mode_t) -> mode_t {
            mode | (mode & 0o444) >> 1
        }

        /// Gives the files that were missing before the open, and are there now, their bits
        /// exactly. Best effort: a file that cannot be changed keeps the bits LMDB gave it, which
        /// are never wider than those asked for.
        func applyToCreatedFiles() {
            if dataFileWasMissing { _ = chmod(dataPath, dataFile) }
            if lockFileWasMissing { _ = chmod(lockPath, lockFile) }
        }
    }
#endif
