import CLMDBRaw

/// Raw LMDB reading one named database of an existing environment (a log's `revisions`, say)
/// through the C API and nothing else: the baseline of the log's reads of its own records, the
/// same values in the same file.
///
/// The environment is opened read-only and without the lock file (`MDB_NOLOCK`), so it can sit
/// beside the log's own handle in one process; nothing may write to it while it is open. Not
/// thread-safe: one caller at a time.
public final class RawLMDBReader: @unchecked Sendable {
    private let environment: OpaquePointer
    private let database: MDB_dbi

    /// Opens the database `name` of the environment in `directory`.
    public init(directory: String, database name: String) throws {
        var handle: OpaquePointer?
        try RawLMDB.check(mdb_env_create(&handle), "mdb_env_create")
        guard let handle else { throw RawLMDB.Failure(function: "mdb_env_create", code: 22) }
        do {
            try RawLMDB.check(mdb_env_set_maxdbs(handle, 8), "mdb_env_set_maxdbs")
            try RawLMDB.check(
                mdb_env_open(handle, directory, UInt32(MDB_NOTLS | MDB_RDONLY | MDB_NOLOCK), 0o644), "mdb_env_open")
            var transaction: OpaquePointer?
            try RawLMDB.check(mdb_txn_begin(handle, nil, UInt32(MDB_RDONLY), &transaction), "mdb_txn_begin")
            var database: MDB_dbi = 0
            let opened = mdb_dbi_open(transaction, name, 0, &database)
            guard opened == MDB_SUCCESS else {
                mdb_txn_abort(transaction)
                throw RawLMDB.Failure(function: "mdb_dbi_open", code: opened)
            }
            // Committed, so that the handle outlives the transaction.
            try RawLMDB.check(mdb_txn_commit(transaction), "mdb_txn_commit")
            self.database = database
        } catch {
            mdb_env_close(handle)
            throw error
        }
        environment = handle
    }

    deinit {
        mdb_env_close(environment)
    }

    /// Reads the values with keys `first ..< first + count` (big-endian `UInt64`s) in one read
    /// transaction, copying each one out as a revision read does, and returns the bytes read.
    public func read(first: Int, count: Int) throws -> Int {
        try RawLMDB.read(first: first, count: count, of: database, in: environment)
    }
}
