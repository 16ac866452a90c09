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
    /// Whether the data file of the open environment `handle`, with pages of `pageSize` bytes,
    /// is long enough to hold LMDB's two meta pages, which `mdb_txn_begin` and `mdb_env_info`
    /// read through the map. A length that cannot be read counts as long enough.
    static func dataFileHoldsMetaPages(of handle: OpaquePointer, pageSize: Int) -> Bool {
        var descriptor: mdb_filehandle_t = -1
        var file = stat()
        guard mdb_env_get_fd(handle, &descriptor) == MDB_SUCCESS, fstat(descriptor, &file) == 0 else { return true }
        return Int(file.st_size) >= 2 * pageSize
    }

    /// Throws `MDB_CORRUPTED` when the data file of the open environment `handle`, with pages of
    /// `pageSize` bytes, is shorter than the pages its latest meta page records as used, or
    /// when that meta page records none (the meta pages themselves are pages 0 and 1, so a
    /// zeroed meta page is the only way to read 0). A length that cannot be read refuses
    /// nothing.
    ///
    /// The meta page is read before the file's length: another process's commit writes its
    /// pages before its meta page, so a length read after the meta page covers the pages it
    /// names.
    static func checkDataFileLength(of handle: OpaquePointer, pageSize: Int) throws(LMDBError) {
        var info = MDB_envinfo()
        guard mdb_env_info(handle, &info) == MDB_SUCCESS else { return }
        guard info.me_last_pgno >= 1 else { throw LMDBError(code: MDB_CORRUPTED) }
        var descriptor: mdb_filehandle_t = -1
        var file = stat()
        guard mdb_env_get_fd(handle, &descriptor) == MDB_SUCCESS, fstat(descriptor, &file) == 0 else { return }
        let (used, overflow) = (info.me_last_pgno + 1).multipliedReportingOverflow(by: pageSize)
        if overflow || Int(file.st_size) < used {
            throw LMDBError(code: MDB_CORRUPTED)
        }
    }
}
