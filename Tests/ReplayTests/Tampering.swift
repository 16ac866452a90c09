import CLMDB
import Foundation

/// Flips one byte in the middle of a stored revision record with LMDB's own API, behind the
/// log's back, as damage on disk would.
enum Tampering {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A log of `Fixtures.growing(revisions)`, imported by the tool into a fresh temporary
    /// directory, with a byte of revision `damaged`'s record flipped.
    static func damagedLog(revisions: Int, damaged: UInt64) async throws -> (directory: TemporaryDirectory, log: String)
    {
        let directory = try TemporaryDirectory()
        let log = directory.path("app.lmdb")
        let imported = try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.growing(revisions))
        guard imported.status == 0 else { throw Failure(description: "import failed: \(imported)") }
        try flipByte(ofRevision: damaged, inLogAt: log)
        return (directory, log)
    }

    static func flipByte(ofRevision revision: UInt64, inLogAt path: String) throws {
        var environment: OpaquePointer?
        try check(mdb_env_create(&environment), "mdb_env_create")
        defer { mdb_env_close(environment) }
        try check(mdb_env_set_maxdbs(environment, 8), "mdb_env_set_maxdbs")
        try check(mdb_env_open(environment, path, 0, 0o644), "mdb_env_open")
        var transaction: OpaquePointer?
        try check(mdb_txn_begin(environment, nil, 0, &transaction), "mdb_txn_begin")
        var database: MDB_dbi = 0
        let opened = mdb_dbi_open(transaction, "revisions", 0, &database)
        guard opened == 0 else {
            mdb_txn_abort(transaction)
            throw Failure(description: "mdb_dbi_open: \(opened)")
        }
        var keyBytes = withUnsafeBytes(of: revision.bigEndian) { Array($0) }
        var bytes: [UInt8] = []
        let status = keyBytes.withUnsafeMutableBytes { keyBuffer -> Int32 in
            var key = MDB_val(mv_size: keyBuffer.count, mv_data: keyBuffer.baseAddress)
            var value = MDB_val()
            let found = mdb_get(transaction, database, &key, &value)
            guard found == 0 else { return found }
            bytes = Array(UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
            bytes[bytes.count / 2] ^= 0xFF
            return bytes.withUnsafeMutableBytes { valueBuffer in
                var newValue = MDB_val(mv_size: valueBuffer.count, mv_data: valueBuffer.baseAddress)
                return mdb_put(transaction, database, &key, &newValue, 0)
            }
        }
        guard status == 0 else {
            mdb_txn_abort(transaction)
            throw Failure(description: "tampering with revision \(revision) failed: \(status)")
        }
        try check(mdb_txn_commit(transaction), "mdb_txn_commit")
    }

    private static func check(_ status: Int32, _ operation: String) throws {
        guard status == 0 else { throw Failure(description: "\(operation): \(String(cString: mdb_strerror(status)))") }
    }
}
