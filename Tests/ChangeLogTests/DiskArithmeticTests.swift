import CLMDB
import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLog

/// Figures read from the file (free-list lengths, page counts, the last page, the largest
/// keys) are damaged like any other bytes: arithmetic on them reports damage instead of
/// trapping. A trap ends the test run.
@Suite("Arithmetic on figures read from disk")
struct DiskArithmeticTests {
    @Test("a free-list length word is read only when a record can hold it")
    func freeListLength() {
        func length(_ words: [Int]) -> Int? {
            words.withUnsafeBytes { LMDBTransaction.freeListLength(of: $0) }
        }
        #expect(length([0]) == 0)
        #expect(length([2, 7, 9]) == 2)
        #expect(length([1, 7, 9]) == 1)
        #expect(length([3, 7, 9]) == nil)
        #expect(length([-1, 7]) == nil)
        #expect(length([Int.max, 7]) == nil)
        #expect(length([]) == nil)
        #expect([UInt8](repeating: 0, count: 7).withUnsafeBytes { LMDBTransaction.freeListLength(of: $0) } == nil)
    }

    @Test("sums of counts read from the file refuse negative counts and overflow")
    func checkedSum() {
        #expect(LMDBTransaction.checkedSum([1, 2, 3]) == 6)
        #expect(LMDBTransaction.checkedSum([Int]()) == 0)
        #expect(LMDBTransaction.checkedSum([Int.max, 1]) == nil)
        #expect(LMDBTransaction.checkedSum([Int.max / 2 + 1, Int.max / 2 + 1]) == nil)
        #expect(LMDBTransaction.checkedSum([5, -1]) == nil)
    }

    @Test("a used extent from an impossible last page is nil, never a trap")
    func usedBytes() {
        func info(lastPage: Int, pageSize: Int = 4_096) -> LMDBEnvironment.Info {
            LMDBEnvironment.Info(mapSize: 0, pageSize: pageSize, lastPage: lastPage, lastTransactionID: 0, readers: 0)
        }
        #expect(info(lastPage: 3).checkedUsedBytes == 16_384)
        #expect(info(lastPage: -1).checkedUsedBytes == 0)
        #expect(info(lastPage: Int.max).checkedUsedBytes == nil)
        #expect(info(lastPage: Int.max / 4_096).checkedUsedBytes == nil)
        #expect(info(lastPage: -2).checkedUsedBytes == nil)
        #expect(info(lastPage: Int.max).usedBytes == 0)
    }

    /// The free list's lengths of a damaged copy are added up without trapping: an arithmetic
    /// overflow is reported as damage, so `stats` on such a copy fails with an error.
    @Test("a free-list length damaged to the largest Int makes statistics() report damage", arguments: [Int.max, -5])
    func damagedFreeList(length: Int) async throws {
        try await withTemporaryDirectory { path in
            do {
                let log = try ChangeLog(path: path)
                for version in 0..<6 {
                    _ = try await log.append(try makeSnapshot(sections: 2, itemsPerSection: 20, version: version))
                }
            }
            try Self.overwriteFirstFreeListLength(ofLogAt: path, with: length)
            let log = try ChangeLog(path: path, options: .init(readOnly: true))
            let error = await #expect(throws: ChangeLogError.self) { _ = try await log.statistics() }
            #expect(error?.reportsDamage == true, "\(String(describing: error))")
            #expect(error?.message.contains("its data file is damaged") == true, "\(String(describing: error))")
            // The revisions themselves still read.
            #expect(try log.snapshot(at: 6) == makeSnapshot(sections: 2, itemsPerSection: 20, version: 5))
        }
    }

    @Test("a chunk key damaged to the largest number makes an append fail as damage, not trap")
    func largestChunkKey() async throws {
        try await withTemporaryDirectory { path in
            do {
                let log = try ChangeLog(path: path)
                _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 2))
            }
            try Self.put(key: UInt64.max, value: [1, 2, 3], database: "chunks", inLogAt: path)
            let log = try ChangeLog(path: path)
            let error = await #expect(throws: ChangeLogError.self) {
                _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 3))
            }
            #expect(error?.code == .malformedRecord, "\(String(describing: error))")
            #expect(error?.message.contains("chunk key that reads 18446744073709551615") == true)
            #expect(try log.latestRevision == 1)
        }
    }

    @Test("a chunk key damaged to one below the largest number leaves no identifiers for an append's chunks")
    func chunkIdentifiersRunOut() async throws {
        try await withTemporaryDirectory { path in
            do {
                let log = try ChangeLog(path: path)
                _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 2))
            }
            try Self.put(key: UInt64.max - 1, value: [1, 2, 3], database: "chunks", inLogAt: path)
            let log = try ChangeLog(path: path)
            let error = await #expect(throws: ChangeLogError.self) {
                _ = try await log.append(try makeSnapshot(sections: 3, itemsPerSection: 4, version: 1))
            }
            #expect(error?.code == .malformedRecord, "\(String(describing: error))")
            #expect(error?.message.contains("chunk key that reads 18446744073709551614") == true)
            #expect(try log.latestRevision == 1)
        }
    }

    /// Writes `length` over the length word of the first record of the free list of the log at
    /// `path`, in the file behind LMDB's back: every copy of the record's bytes, as LMDB read
    /// them, gets it (older copies in free pages do not matter).
    static func overwriteFirstFreeListLength(ofLogAt path: String, with length: Int) throws {
        let record = try withRawEnvironment(at: path, flags: UInt32(MDB_RDONLY)) { _, transaction in
            var cursor: OpaquePointer?
            try #require(mdb_cursor_open(transaction, 0, &cursor) == MDB_SUCCESS)
            defer { mdb_cursor_close(cursor) }
            var key = MDB_val()
            var value = MDB_val()
            try #require(mdb_cursor_get(cursor, &key, &value, MDB_FIRST) == MDB_SUCCESS, "the free list is empty")
            return [UInt8](UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
        }
        try #require(record.count >= 16)
        let url = URL(fileURLWithPath: path + "/data.mdb")
        var bytes = [UInt8](try Data(contentsOf: url))
        var changed = 0
        for offset in stride(from: 0, through: bytes.count - record.count, by: 1)
        where bytes[offset..<offset + record.count].elementsEqual(record) {
            bytes.replaceSubrange(offset..<offset + 8, with: withUnsafeBytes(of: length) { Array($0) })
            changed += 1
        }
        try #require(changed >= 1)
        try Data(bytes).write(to: url)
    }

    /// Stores `value` under the big-endian `key` in the named `database` of the log at `path`,
    /// with LMDB's own API, behind the log's back.
    static func put(key: UInt64, value: [UInt8], database: String, inLogAt path: String) throws {
        try withRawEnvironment(at: path, flags: 0) { _, transaction in
            var dbi: MDB_dbi = 0
            try #require(mdb_dbi_open(transaction, database, 0, &dbi) == MDB_SUCCESS)
            var keyBytes = withUnsafeBytes(of: key.bigEndian) { Array($0) }
            var valueBytes = value
            let result = keyBytes.withUnsafeMutableBytes { keyBuffer in
                valueBytes.withUnsafeMutableBytes { valueBuffer in
                    var key = MDB_val(mv_size: keyBuffer.count, mv_data: keyBuffer.baseAddress)
                    var value = MDB_val(mv_size: valueBuffer.count, mv_data: valueBuffer.baseAddress)
                    return mdb_put(transaction, dbi, &key, &value, 0)
                }
            }
            try #require(result == MDB_SUCCESS)
        }
    }

    /// Runs `body` in a transaction of a plain LMDB environment at `path` (committed unless it is
    /// read-only), closing everything after.
    private static func withRawEnvironment<R>(
        at path: String, flags: UInt32, _ body: (OpaquePointer, OpaquePointer) throws -> R
    ) throws -> R {
        var created: OpaquePointer?
        try #require(mdb_env_create(&created) == MDB_SUCCESS)
        let environment = try #require(created)
        defer { mdb_env_close(environment) }
        try #require(mdb_env_set_maxdbs(environment, 8) == MDB_SUCCESS)
        try #require(mdb_env_open(environment, path, flags, 0o600) == MDB_SUCCESS)
        var begun: OpaquePointer?
        try #require(mdb_txn_begin(environment, nil, flags, &begun) == MDB_SUCCESS)
        let transaction = try #require(begun)
        do {
            let result = try body(environment, transaction)
            if flags & UInt32(MDB_RDONLY) != 0 {
                mdb_txn_abort(transaction)
            } else {
                try #require(mdb_txn_commit(transaction) == MDB_SUCCESS)
            }
            return result
        } catch {
            mdb_txn_abort(transaction)
            throw error
        }
    }
}
