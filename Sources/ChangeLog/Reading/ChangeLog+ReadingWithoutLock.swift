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
    /// the pages they read alone. When this process cannot write the lock file, a read-only
    /// open reads the log without it (LMDB's `MDB_NOLOCK`) instead of failing: its reads are
    /// in no reader table. A process writing to the log at the same time does not see them:
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
        }

        /// Why the lock file is not used.
        public let reason: Reason
        /// The log's directory, as given to ``ChangeLog/init(path:options:)``.
        public let path: String

        /// One sentence naming the log, the reason and what it means: for a warning to the
        /// user, who may rely on what is read.
        public var description: String {
            let prefix = "reading the log at \(path) without its lock file"
            switch reason {
            case .immutableFiles:
                return prefix + " (its files are immutable): no process can write to it meanwhile"
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
    /// uses the lock file, which it always does when it may write (``Options/readOnly`` is
    /// false: opening fails instead). See ``ReadingWithoutLock`` for what it means for reads.
    ///
    /// The reason is found when this is read: the file system's flags first, then whether
    /// `lock.mdb` is immutable.
    ///
    /// - Complexity: one call to get the environment's flags; when it is read without the lock
    ///   file, two more calls to look at the file system and at `lock.mdb`.
    public var readingWithoutLock: ReadingWithoutLock? {
        guard store.environment.isOpenWithoutLockFile else { return nil }
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
