#if LMDB
    import CLMDB

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension MetaPage {
        /// Throws `MDB_CORRUPTED` when the newer meta page of the data file of the open environment
        /// `handle` is impossible for a file of its length (``damage(fileLength:)``): called before
        /// adopting a map that another process grew (`MDB_MAP_RESIZED`).
        ///
        /// LMDB reports `MDB_MAP_RESIZED` when a transaction begins from a meta page whose last page
        /// lies past the map, and adopting it (`mdb_env_set_mapsize` with 0) maps as many bytes as
        /// that last page implies. A last page damaged far past the file's end would make that map
        /// larger than the process can make: it would fail with `ENOMEM`, read as a map too large
        /// for the process rather than a damaged log, and leave the environment with no map at all.
        /// Refused here, the damage is named and the environment keeps its map.
        ///
        /// The meta page is read before the file's length: another process's commit writes its
        /// pages before its meta page, so a length read after the meta page covers the pages it
        /// names. A data file that cannot be read refuses nothing (LMDB's remap reports it).
        static func checkBeforeAdoptingResizedMap(of handle: OpaquePointer) throws(LMDBError) {
            var descriptor: mdb_filehandle_t = -1
            guard mdb_env_get_fd(handle, &descriptor) == MDB_SUCCESS else { return }
            let pages = read(descriptor: descriptor)
            if let first = pages.0, !isPossible(pageSize: first.pageSize) { throw LMDBError(code: MDB_CORRUPTED) }
            guard let meta = newer(of: pages) else { return }
            var file = stat()
            guard fstat(descriptor, &file) == 0 else { return }
            if meta.damage(fileLength: Int(file.st_size)) != nil { throw LMDBError(code: MDB_CORRUPTED) }
        }
    }
#endif
