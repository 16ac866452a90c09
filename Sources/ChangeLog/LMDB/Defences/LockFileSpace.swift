#if LMDB
    import CFileWriteback

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The blocks of `lock.mdb`, allocated before LMDB maps the file and writes into the map.
    ///
    /// LMDB creates the lock file, extends it with `ftruncate` (which allocates nothing: the file
    /// is all holes), maps it and writes its reader table's header into the map
    /// (`mdb_env_setup_locks`). On a full file system the page fault of that write finds no block
    /// to allocate, and the kernel ends the process with `SIGBUS`, before LMDB can return an
    /// error. Allocating the blocks first turns that into `ENOSPC` (or `EDQUOT`), which
    /// ``LMDBEnvironment/open(directory:configuration:)`` throws.
    ///
    /// The blocks are allocated without changing the file's size (`FALLOC_FL_KEEP_SIZE`), so LMDB
    /// sizes the file itself and reads the number of reader slots from it, as without the step. A lock
    /// file whose blocks are all there already is only examined (one `stat`): it is neither
    /// opened nor written. Any failure other than a lack of space (a read-only file system, a
    /// directory or lock file this process may not write, an immutable file, a file system that
    /// cannot allocate ahead, a system other than Linux) skips the step, and LMDB's open proceeds
    /// as it would without it, with its own errors and fallbacks.
    ///
    /// `data.mdb` needs nothing of the kind: LMDB writes a new data file's meta pages with
    /// `pwrite`, which fails with `ENOSPC`, maps it read-only, and writes its pages with `pwrite`
    /// too (the environment is not opened with `MDB_WRITEMAP`).
    enum LockFileSpace {
        /// What ``ensure(directory:maxReaders:mode:)`` did.
        enum Outcome: Equatable {
            /// The lock file's blocks were all allocated already: it was left as it was.
            case unchanged
            /// Blocks were allocated (and the file created when it was missing).
            case allocated
            /// The lock file could not be opened or allocated for a reason other than a lack of
            /// space, the `errno` given: nothing was done, LMDB's open goes on as without the step.
            case skipped(Int32)
        }

        /// The most bytes of `lock.mdb` that LMDB 0.9 maps for `maxReaders` reader slots when it
        /// sizes the file itself: `(maxReaders - 1) * sizeof(MDB_reader) + sizeof(MDB_txninfo)`
        /// in `mdb_env_setup_locks`.
        ///
        /// Each reader slot (`MDB_reader`: transaction ID, process and thread IDs) is padded to a
        /// cache line of 64 bytes. `MDB_txninfo` is two padded parts, the table's header (magic,
        /// format, reader mutex, last transaction ID, reader count) and the writer mutex, followed
        /// by the first reader slot. Computed from this platform's `pthread_mutex_t`, the header
        /// is exact where LMDB uses POSIX mutexes (Linux: 8,192 bytes for 126 readers on x86-64,
        /// 8,256 on arm64) and an upper bound where it uses semaphores.
        static func mappedBytes(maxReaders: UInt32) -> Int {
            let cacheLine = 64
            func padded(_ bytes: Int) -> Int { (bytes + cacheLine - 1) / cacheLine * cacheLine }
            let mutex = MemoryLayout<pthread_mutex_t>.size
            // Magic and format (4 bytes each), the mutex, the transaction ID (8) and the reader
            // count (4), aligned to 8.
            let header = padded((4 + 4 + mutex + 8 + 4 + 7) / 8 * 8)
            let writerMutex = padded(mutex)
            return header + writerMutex + Int(max(maxReaders, 1)) * cacheLine
        }

        /// Allocates the blocks of the lock file of the environment in `directory`, up to
        /// ``mappedBytes(maxReaders:)`` or the file's size if larger, creating the file with `mode`
        /// (as LMDB would) when it is missing.
        ///
        /// - Throws: ``LMDBError`` with `ENOSPC` or `EDQUOT` when the file system (or the user's
        ///   quota) has no space for them. Every other failure is returned as
        ///   ``Outcome/skipped(_:)``.
        static func ensure(directory: String, maxReaders: UInt32, mode: mode_t) throws(LMDBError) -> Outcome {
            let path = directory + "/lock.mdb"
            let needed = mappedBytes(maxReaders: maxReaders)
            var information = stat()
            if stat(path, &information) == 0 {
                guard !isAllocated(information, needed: needed) else { return .unchanged }
            } else if errno != ENOENT {
                return .skipped(errno)
            }
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode)
            guard descriptor >= 0 else { return try skipping(errno) }
            defer { close(descriptor) }
            guard fstat(descriptor, &information) == 0 else { return .skipped(errno) }
            guard !isAllocated(information, needed: needed) else { return .unchanged }
            let length = max(needed, Int(information.st_size))
            guard changelog_allocate(descriptor, 0, Int64(length)) == 0 else {
                let code = errno
                giveBackBlocksPastTheEnd(of: descriptor)
                return try skipping(code)
            }
            return .allocated
        }

        /// Gives back the blocks past the end of the lock file `descriptor`: a file system that ran
        /// out of space part of the way through an allocation (ext4) keeps the blocks it got, past
        /// the file's end, where nothing would free them. Cutting the file to its own size frees
        /// them, but only while no other process has the environment open (``changelog_lock_environment``):
        /// one that does has sized the file and mapped it, and the size read here may be older.
        private static func giveBackBlocksPastTheEnd(of descriptor: Int32) {
            guard changelog_lock_environment(descriptor) == 0 else { return }
            defer { changelog_unlock_environment(descriptor) }
            var information = stat()
            guard fstat(descriptor, &information) == 0 else { return }
            _ = ftruncate(descriptor, information.st_size)
        }

        /// Whether the file `information` describes has blocks for its size and at least `needed`
        /// bytes (`st_blocks` counts 512-byte units, blocks allocated past the end included).
        private static func isAllocated(_ information: stat, needed: Int) -> Bool {
            Int(information.st_blocks) * 512 >= max(needed, Int(information.st_size))
        }

        /// Throws a lack of space; any other `code` skips the step.
        private static func skipping(_ code: Int32) throws(LMDBError) -> Outcome {
            guard code != ENOSPC, code != EDQUOT else { throw LMDBError(code: code) }
            return .skipped(code)
        }
    }
#endif
