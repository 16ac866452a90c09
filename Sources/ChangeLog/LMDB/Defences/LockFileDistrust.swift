#if LMDB
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Why an environment opened for reading only is read without its `lock.mdb`: the lock file is
    /// missing, or is not a file LMDB may write into on a reader's behalf.
    ///
    /// LMDB opens `lock.mdb` for reading and writing even in a read-only open (`O_RDWR | O_CREAT`,
    /// following symbolic links), creates it when it is missing, grows it to its reader table's size
    /// and writes the table's header into it whenever no other process has it open. A log shipped
    /// from elsewhere decides what that file is: a symbolic link to a file of the reader's (which
    /// LMDB would overwrite and grow to 8 KB), a dangling one (whose target LMDB would create), a
    /// hard link to such a file, or a sparse file of terabytes (whose blocks a reader would
    /// allocate, or whose holes would end it with `SIGBUS` on a full disk). A reading open examines
    /// the file with `lstat` first (``examine(directory:maxReaders:)``) and lets LMDB open it only
    /// when it is a plain file of its own: a regular file, no symbolic link, one link, every block
    /// allocated, and of a size LMDB makes for 1 to 65,536 readers; LMDB is then told to use no more
    /// reader slots than the file holds, so that it never grows it. Any other lock file, or none, is
    /// left exactly as it is, and the log is read without it (`MDB_NOLOCK`), as
    /// ``LMDBEnvironment/isOpenWithoutLockFile`` and `ChangeLog.readingWithoutLock` then say: a
    /// reading open creates, grows, allocates and writes no file it did not make.
    ///
    /// What that costs: a reader without the lock file holds no slot in the reader table, so a
    /// writer that works on the log meanwhile does not see it and may reuse the pages it reads (a
    /// torn or damaged read, refused as damage). A missing lock file means no process had the log
    /// open when the reader opened it; a distrusted one means the log came from elsewhere.
    ///
    /// Not defended: a lock file swapped for a link between the `lstat` and LMDB's own `open`.
    /// That takes a process that may write the log's directory while the reader opens it, which
    /// can replace `data.mdb` too; what is defended is a log's files as they lie, shipped or copied.
    package enum LockFileDistrust: Hashable, Sendable, CustomStringConvertible {
        /// There is no `lock.mdb`, and a reading open creates none.
        case missing
        /// `lock.mdb` is a symbolic link (to a file or to nothing), which reading never follows.
        case symbolicLink
        /// `lock.mdb` has other hard links, which may be files outside the log.
        case hardLinks(Int)
        /// `lock.mdb` has holes: `allocated` bytes on disk for `size` bytes.
        case holes(size: Int, allocated: Int)
        /// `lock.mdb` is of a size LMDB never makes for a reader table of 1 to 65,536 readers.
        case size(Int)

        /// The most reader slots a lock file may hold: `ChangeLog.Options.maxReadersLimit`.
        static let maxReaderSlots: UInt32 = 65_536

        /// What LMDB may do with the lock file of the environment in `directory`.
        package enum Examination: Hashable, Sendable {
            /// LMDB may open it, with at most `readers` reader slots: as many as asked for, or
            /// fewer when the file holds fewer, so that LMDB does not grow it.
            case usable(readers: UInt32)
            /// It is left alone, and the environment read without it.
            case distrusted(LockFileDistrust)
        }

        /// Examines `lock.mdb` in `directory` with `lstat`, opening nothing. A path that cannot be
        /// examined for another reason than `ENOENT` is left to LMDB, whose open reports it.
        ///
        /// - Complexity: one `lstat`.
        package static func examine(directory: String, maxReaders: UInt32) -> Examination {
            var information = stat()
            guard lstat(directory + "/lock.mdb", &information) == 0 else {
                return errno == ENOENT ? .distrusted(.missing) : .usable(readers: maxReaders)
            }
            switch information.st_mode & S_IFMT {
            case S_IFLNK: return .distrusted(.symbolicLink)
            // A FIFO, a device, a socket or a directory is refused before this (``SpecialFile``).
            case S_IFREG: break
            default: return .usable(readers: maxReaders)
            }
            guard information.st_nlink <= 1 else { return .distrusted(.hardLinks(Int(information.st_nlink))) }
            let size = Int(information.st_size)
            guard
                size >= LockFileSpace.mappedBytes(maxReaders: 1),
                size <= LockFileSpace.mappedBytes(maxReaders: maxReaderSlots)
            else { return .distrusted(.size(size)) }
            let allocated = Int(information.st_blocks) * 512
            guard allocated >= size else { return .distrusted(.holes(size: size, allocated: allocated)) }
            return .usable(readers: min(maxReaders, slots(inFileOf: size)))
        }

        /// The reader slots a lock file of `size` bytes holds: the most for which LMDB's table is
        /// no larger than the file (``LockFileSpace/mappedBytes(maxReaders:)``).
        static func slots(inFileOf size: Int) -> UInt32 {
            let table = LockFileSpace.mappedBytes(maxReaders: 1) - 64
            return UInt32(clamping: max(1, (size - table) / 64))
        }

        /// What is wrong with the lock file, as a clause of a sentence about `lock.mdb`: "it has
        /// none", "its lock.mdb is a symbolic link, which reading never follows".
        package var description: String {
            switch self {
            case .missing:
                "it has no lock.mdb, and reading creates none"
            case .symbolicLink:
                "its lock.mdb is a symbolic link, which reading never follows"
            case .hardLinks(let count):
                "its lock.mdb has \(count) hard links, and may be a file outside the log"
            case .holes(let size, let allocated):
                "its lock.mdb has holes (\(allocated) of its \(size) bytes on disk), which reading does not fill"
            case .size(let size):
                "its lock.mdb is \(size) bytes, a size LMDB never makes"
            }
        }
    }
#endif
