#if LMDB
    import CLMDB

    // What only a log on LMDB has: its environment and databases, for the LMDB-only parts of the
    // API (the map, the lock file, the data file's descriptor) and for tests that reach into them.
    extension LogStore {
        /// The LMDB engine of the log; every log is on LMDB for now.
        var lmdb: LMDBLogStorage {
            guard let storage = storage as? LMDBLogStorage else {
                preconditionFailure("the log at \(path) is not stored in LMDB")
            }
            return storage
        }

        /// The log's LMDB environment.
        var environment: LMDBEnvironment { lmdb.environment }
        /// The `revisions` database.
        var revisions: LMDBDatabase { lmdb.revisions }
        /// The `chunks` database.
        var chunks: LMDBDatabase { lmdb.chunks }
        /// The `meta` database.
        var meta: LMDBDatabase { lmdb.meta }
        /// The `meta` key of the layout version (``LMDBLogStorage/formatKey``).
        static var formatKey: [UInt8] { LMDBLogStorage.formatKey }
    }

    extension ChangeLog {
        /// The size of the log's memory map in bytes, as it is now: it grows as the log does (LMDB's).
        package var mapSize: Int { store.environment.info().mapSize }

        /// The descriptor LMDB reads and writes `data.mdb` through, or `nil` (for tests that take
        /// it away behind LMDB's back).
        package var dataFileDescriptor: Int32? {
            var descriptor: Int32 = -1
            return mdb_env_get_fd(store.environment.handle, &descriptor) == MDB_SUCCESS ? descriptor : nil
        }
    }
#endif
