#if LMDB
    import CLMDB

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The check that the data file still holds every page LMDB has in use.
    ///
    /// LMDB reads its pages through the map without looking at the file's length. A data file cut
    /// short (a partial copy, a disk that filled up while copying, a `truncate`) would make the
    /// first read of a page past its end crash the process with `SIGBUS`. The two meta pages, at
    /// the start of the file, are read first: LMDB refuses a file too short to hold them when it
    /// opens (`MDB_INVALID`), and one cut so short later, while open, is refused as damaged
    /// (`MDB_CORRUPTED`) before a transaction begins. The latest meta page records the last page in
    /// use: a file shorter than that, or a meta page that names none (zeroed), is refused before any
    /// other page is read, when the environment opens and when each transaction begins.
    extension LMDBEnvironment {
        /// The length in bytes of the data file of the open environment `handle`, or `nil` when it
        /// cannot be read.
        static func dataFileLength(of handle: OpaquePointer) -> Int? {
            dataFileStatus(of: handle)?.length
        }

        /// The length in bytes and the time of last modification (in nanoseconds) of the data file
        /// of the open environment `handle`, from one `fstat`; `nil` when it cannot be read.
        static func dataFileStatus(of handle: OpaquePointer) -> (length: Int, modified: Int)? {
            var descriptor: mdb_filehandle_t = -1
            var file = stat()
            guard mdb_env_get_fd(handle, &descriptor) == MDB_SUCCESS, fstat(descriptor, &file) == 0 else { return nil }
            #if canImport(Darwin)
                let modified = file.st_mtimespec
            #else
                let modified = file.st_mtim
            #endif
            return (Int(file.st_size), Int(modified.tv_sec) &* 1_000_000_000 &+ Int(modified.tv_nsec))
        }

        /// Whether a data file of `length` bytes (`nil`: unknown, which counts as long enough),
        /// with pages of `pageSize` bytes, holds LMDB's two meta pages, which `mdb_txn_begin` and
        /// `mdb_env_info` read through the map.
        static func holdsMetaPages(length: Int?, pageSize: Int) -> Bool {
            guard let length else { return true }
            return length >= 2 * pageSize
        }

        /// Throws `MDB_CORRUPTED` when the data file of the open environment `handle`, with pages of
        /// `pageSize` bytes, is shorter than the pages its latest meta page records as used, or
        /// when that meta page records none (the meta pages themselves are pages 0 and 1, so a
        /// zeroed meta page is the only way to read 0). A length that cannot be read refuses
        /// nothing.
        ///
        /// The meta page is read before the file's length: another process's commit writes its
        /// pages before its meta page, so a length read after the meta page covers the pages it
        /// names. A `lengthBefore`, read earlier, that already covers them saves reading it again
        /// (the usual case, where the pages in use have not grown past it meanwhile).
        static func checkDataFileLength(of handle: OpaquePointer, pageSize: Int, lengthBefore: Int? = nil)
            throws(LMDBError)
        {
            var info = MDB_envinfo()
            guard mdb_env_info(handle, &info) == MDB_SUCCESS else { return }
            guard info.me_last_pgno >= 1 else { throw LMDBError(code: MDB_CORRUPTED) }
            let (used, overflow) = (info.me_last_pgno + 1).multipliedReportingOverflow(by: pageSize)
            guard !overflow else { throw LMDBError(code: MDB_CORRUPTED) }
            if let lengthBefore, used <= lengthBefore { return }
            guard let length = dataFileLength(of: handle) else { return }
            if length < used {
                throw LMDBError(code: MDB_CORRUPTED)
            }
        }
    }
#endif
