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
/// first read of a page past its end crash the process with `SIGBUS`. The meta page, at the
/// start of the file, records the last page in use: a file shorter than that is refused as
/// damaged (`MDB_CORRUPTED`) before any other page is read, when the environment opens and
/// when each transaction begins.
extension LMDBEnvironment {
    /// Throws `MDB_CORRUPTED` when the data file of the open environment `handle`, with pages of
    /// `pageSize` bytes, is shorter than the pages its latest meta page records as used. A
    /// length that cannot be read refuses nothing.
    ///
    /// The meta page is read before the file's length: another process's commit writes its
    /// pages before its meta page, so a length read after the meta page covers the pages it
    /// names.
    static func checkDataFileLength(of handle: OpaquePointer, pageSize: Int) throws(LMDBError) {
        var info = MDB_envinfo()
        guard mdb_env_info(handle, &info) == MDB_SUCCESS else { return }
        var descriptor: mdb_filehandle_t = -1
        var file = stat()
        guard mdb_env_get_fd(handle, &descriptor) == MDB_SUCCESS, fstat(descriptor, &file) == 0 else { return }
        let (used, overflow) = (info.me_last_pgno + 1).multipliedReportingOverflow(by: pageSize)
        if overflow || Int(file.st_size) < used {
            throw LMDBError(code: MDB_CORRUPTED)
        }
    }
}
