#if LMDB
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension ChangeLog {
        /// A log opened for reading only (``Options/readOnly``) that is read without LMDB's lock
        /// file, `lock.mdb`: why, and what that means for what is read.
        ///
        /// LMDB's readers record themselves in the lock file's reader table, so that writers leave
        /// the pages they read alone. When this process cannot write the lock file, or the lock file
        /// is missing or not a plain file of the log's own (a symbolic link, a file with other hard
        /// links, one with holes or of a size LMDB never makes, as a log from elsewhere may hold), a
        /// read-only open reads the log without it (LMDB's `MDB_NOLOCK`) instead of failing or
        /// writing through it: its reads are in no reader table, and the lock file is left exactly
        /// as it was (none is created). A process writing to the log at the same time does not see them:
        /// it may reuse the pages they read, and a read may then see a revision torn or fail as
        /// damaged. Read such a log while nothing writes to it, or read a copy.
        public struct ReadingWithoutLock: Hashable, Sendable, CustomStringConvertible {
            /// Why the lock file is not used.
            public enum Reason: Hashable, Sendable {
                /// This user may not write `lock.mdb` (a log another user owns), or may not create it.
                case lockFileNotWritable
                /// The log's files are immutable (`chattr +i`): no process can open them for
                /// writing, so no writer can be at work.
                case immutableFiles
                /// The log is on a read-only file system (or mount): a writer can be at work only
                /// through another mount of the same storage.
                case readOnlyFileSystem
                /// The log has no `lock.mdb`, and reading creates none: no process had it open when
                /// it was opened, but a writer that opens it later does not see this reader.
                case lockFileMissing
                /// `lock.mdb` is not a plain file of the log's own: a symbolic link (to a file or to
                /// nothing), a file with other hard links, one with holes, or of a size LMDB never
                /// makes. LMDB would write into it, or create, grow or allocate it; it is left alone.
                case lockFileDistrusted
            }

            /// Why the lock file is not used.
            public let reason: Reason
            /// The log's directory, as given to ``ChangeLog/init(path:options:)``.
            public let path: String
            /// What is wrong with the lock file, for ``Reason/lockFileMissing`` and
            /// ``Reason/lockFileDistrusted``.
            let lockFile: String?

            init(reason: Reason, path: String, lockFile: String? = nil) {
                self.reason = reason
                self.path = path
                self.lockFile = lockFile
            }

            /// One sentence naming the log, the reason and what it means: for a warning to the
            /// user, who may rely on what is read.
            public var description: String {
                let prefix = "reading the log at \(path) without its lock file"
                switch reason {
                case .immutableFiles:
                    return prefix + " (its files are immutable): no process can write to it meanwhile"
                case .lockFileMissing:
                    return prefix + " (\(lockFile ?? "it has no lock.mdb")): a writer that opens it meanwhile does not "
                        + "see this reader, and may change pages while they are read"
                case .lockFileDistrusted:
                    return prefix + " (\(lockFile ?? "its lock.mdb is not a plain file")): writers running at the same "
                        + "time are not seen, and may change pages while they are read; read it while nothing writes to "
                        + "it, or read a copy"
                case .lockFileNotWritable, .readOnlyFileSystem:
                    let cause =
                        reason == .readOnlyFileSystem
                        ? "the file system is read-only" : "its lock.mdb is not writable by this user"
                    return prefix + " (\(cause)): writers running at the same time are not seen, and may change "
                        + "pages while they are read; read it while nothing writes to it, or read a copy"
                }
            }
        }

        /// Whether, and why, this instance reads the log without LMDB's lock file; `nil` when it
        /// uses the lock file (and for a log on another engine, which has none), which it always does when it may write (``Options/readOnly`` is
        /// false: opening fails instead). See ``ReadingWithoutLock`` for what it means for reads.
        ///
        /// The reason is found when this is read: what opening found wrong with `lock.mdb` first,
        /// then the file system's flags, then whether `lock.mdb` is immutable.
        ///
        /// - Complexity: one call to get the environment's flags; when it is read without the lock
        ///   file, two more calls to look at the file system and at `lock.mdb`.
        public var readingWithoutLock: ReadingWithoutLock? {
            guard let environment = (store.storage as? LMDBLogStorage)?.environment, environment.isOpenWithoutLockFile
            else { return nil }
            if let distrust = environment.lockFileDistrust {
                let reason: ReadingWithoutLock.Reason = distrust == .missing ? .lockFileMissing : .lockFileDistrusted
                return ReadingWithoutLock(reason: reason, path: path, lockFile: distrust.description)
            }
            var information = statvfs()
            if statvfs(path, &information) == 0, information.f_flag & UInt(ST_RDONLY) != 0 {
                return ReadingWithoutLock(reason: .readOnlyFileSystem, path: path)
            }
            let lockFile = path + "/lock.mdb"
            if faccessat(AT_FDCWD, lockFile, W_OK, AT_EACCESS) != 0, errno == EPERM {
                return ReadingWithoutLock(reason: .immutableFiles, path: path)
            }
            return ReadingWithoutLock(reason: .lockFileNotWritable, path: path)
        }
    }
#endif
