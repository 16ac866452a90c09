import CLMDBRaw

/// The raw LMDB baseline of the ChangeLog benchmarks: one environment with one database of
/// fixed-size values under big-endian sequential keys, written with `MDB_APPEND`, through the C
/// API and nothing else.
///
/// The environment is opened with LMDB's default flags (plus `MDB_NOTLS`, as the log does), so
/// every commit is durable when it returns: data and meta pages are flushed with `fdatasync`.
/// Not thread-safe: one caller at a time.
public final class RawLMDB: @unchecked Sendable {
    /// An LMDB failure: the function that failed, its return code and `mdb_strerror`'s text.
    public struct Failure: Error, CustomStringConvertible {
        /// The C function that failed.
        public let function: String
        /// LMDB's or the system's error code.
        public let code: Int32
        /// What LMDB says the code means, and where it happened.
        public var description: String { "\(function) failed (\(code)): \(String(cString: mdb_strerror(code)))" }
    }

    private let environment: OpaquePointer
    private var database: MDB_dbi = 0
    private var nextKey: UInt64 = 1

    /// The number of values stored so far.
    public var count: Int { Int(nextKey - 1) }

    /// Opens (creating) an environment in the existing directory `directory`.
    ///
    /// - Parameter mapSize: the size of the memory map: the most the database can hold.
    public init(directory: String, mapSize: Int = 4 << 30) throws {
        var handle: OpaquePointer?
        try Self.check(mdb_env_create(&handle), "mdb_env_create")
        guard let handle else { throw Failure(function: "mdb_env_create", code: EINVAL) }
        do {
            try Self.check(mdb_env_set_mapsize(handle, mapSize), "mdb_env_set_mapsize")
            try Self.check(mdb_env_open(handle, directory, UInt32(MDB_NOTLS), 0o644), "mdb_env_open")
        } catch {
            mdb_env_close(handle)
            throw error
        }
        environment = handle
        try write { transaction in
            try Self.check(mdb_dbi_open(transaction, nil, 0, &database), "mdb_dbi_open")
        }
    }

    deinit {
        mdb_env_close(environment)
    }

    /// Stores `count` values of `value`'s bytes, each in its own durable write transaction.
    public func putEachInOwnTransaction(count: Int, value: [UInt8]) throws {
        for _ in 0..<count {
            try write { transaction in try put(value, in: transaction) }
        }
    }

    /// Stores `count` values of `value`'s bytes in one durable write transaction.
    public func putInOneTransaction(count: Int, value: [UInt8]) throws {
        try write { transaction in
            for _ in 0..<count {
                try put(value, in: transaction)
            }
        }
    }

    /// Stores each of `values` in one durable write transaction, in order.
    public func putInOneTransaction(values: [[UInt8]]) throws {
        try write { transaction in
            for value in values {
                try put(value, in: transaction)
            }
        }
    }

    /// Reads the values with keys `first ..< first + count` in one read transaction, copying
    /// each one out as a revision read does, and returns the number of bytes read.
    public func read(first: Int, count: Int) throws -> Int {
        try Self.read(first: first, count: count, of: database, in: environment)
    }

    /// Reads the values with keys `first ..< first + count` (big-endian `UInt64`s) of `database`
    /// in one read transaction of `environment`, copying each one out as a revision read does,
    /// and returns the number of bytes read: the raw read both readers measure.
    static func read(first: Int, count: Int, of database: MDB_dbi, in environment: OpaquePointer) throws -> Int {
        var transaction: OpaquePointer?
        try check(mdb_txn_begin(environment, nil, UInt32(MDB_RDONLY), &transaction), "mdb_txn_begin")
        defer { mdb_txn_abort(transaction) }
        var bytes = 0
        for key in first..<(first + count) {
            var keyBytes = UInt64(key).bigEndian
            var value = MDB_val()
            try withUnsafeMutableBytes(of: &keyBytes) { keyBuffer throws in
                var keyValue = MDB_val(mv_size: keyBuffer.count, mv_data: keyBuffer.baseAddress)
                try check(mdb_get(transaction, database, &keyValue, &value), "mdb_get")
            }
            let copy = [UInt8](UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
            bytes += copy.count
        }
        return bytes
    }

    /// Puts `value` under the next key. The value's bytes are handed to LMDB in place (LMDB only
    /// reads them): a mutable view of the caller's array would copy it, since the array is
    /// shared, adding an allocation and a copy of the whole value to every timed put.
    private func put(_ value: [UInt8], in transaction: OpaquePointer?) throws {
        var key = nextKey.bigEndian
        try withUnsafeMutableBytes(of: &key) { keyBuffer throws in
            try value.withUnsafeBytes { valueBuffer throws in
                var keyValue = MDB_val(mv_size: keyBuffer.count, mv_data: keyBuffer.baseAddress)
                var dataValue = MDB_val(
                    mv_size: valueBuffer.count, mv_data: UnsafeMutableRawPointer(mutating: valueBuffer.baseAddress))
                try Self.check(mdb_put(transaction, database, &keyValue, &dataValue, UInt32(MDB_APPEND)), "mdb_put")
            }
        }
        nextKey += 1
    }

    /// Runs `body` in a write transaction and commits it; aborts it when `body` throws.
    private func write(_ body: (OpaquePointer?) throws -> Void) throws {
        var transaction: OpaquePointer?
        try Self.check(mdb_txn_begin(environment, nil, 0, &transaction), "mdb_txn_begin")
        do {
            try body(transaction)
        } catch {
            mdb_txn_abort(transaction)
            throw error
        }
        try Self.check(mdb_txn_commit(transaction), "mdb_txn_commit")
    }

    static func check(_ code: Int32, _ function: String) throws {
        guard code == MDB_SUCCESS else { throw Failure(function: function, code: code) }
    }
}

/// `EINVAL` without importing the C library for one constant.
private let EINVAL: Int32 = 22
