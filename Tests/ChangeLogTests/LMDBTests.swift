import CLMDB
import Foundation
import Testing

@testable import ChangeLog

@Suite("LMDB layer")
struct LMDBTests {
    @Test("CLMDB links and round-trips one value")
    func cLMDBSmoke() throws {
        try withTemporaryDirectory { path in
            var environment: OpaquePointer?
            #expect(mdb_env_create(&environment) == MDB_SUCCESS)
            defer { mdb_env_close(environment) }
            #expect(mdb_env_open(environment, path, 0, 0o644) == MDB_SUCCESS)
            var transaction: OpaquePointer?
            #expect(mdb_txn_begin(environment, nil, 0, &transaction) == MDB_SUCCESS)
            var database: MDB_dbi = 0
            #expect(mdb_dbi_open(transaction, nil, 0, &database) == MDB_SUCCESS)
            var keyBytes = Array("key".utf8)
            var valueBytes = Array("value".utf8)
            let putResult = keyBytes.withUnsafeMutableBytes { key in
                valueBytes.withUnsafeMutableBytes { value in
                    var key = MDB_val(mv_size: key.count, mv_data: key.baseAddress)
                    var value = MDB_val(mv_size: value.count, mv_data: value.baseAddress)
                    return mdb_put(transaction, database, &key, &value, 0)
                }
            }
            #expect(putResult == MDB_SUCCESS)
            #expect(mdb_txn_commit(transaction) == MDB_SUCCESS)

            #expect(mdb_txn_begin(environment, nil, UInt32(MDB_RDONLY), &transaction) == MDB_SUCCESS)
            var value = MDB_val()
            let getResult = keyBytes.withUnsafeMutableBytes { key in
                var key = MDB_val(mv_size: key.count, mv_data: key.baseAddress)
                return mdb_get(transaction, database, &key, &value)
            }
            #expect(getResult == MDB_SUCCESS)
            let read = Array(UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size))
            mdb_txn_abort(transaction)
            #expect(read == Array("value".utf8))
        }
    }

    @Test("errors carry LMDB's code and text")
    func errorDescriptions() {
        #expect(LMDBError.notFound.code == MDB_NOTFOUND)
        #expect(LMDBError.mapFull.description.contains("MDB_MAP_FULL"))
        #expect(LMDBError(code: ENOENT).description.contains("No such file"))
        #expect(throws: LMDBError.keyExists) { try LMDBError.check(MDB_KEYEXIST) }
        #expect(throws: Never.self) { try LMDBError.check(MDB_SUCCESS) }
    }

    @Test("write, read, cursors, deletes and append order")
    func roundTrips() throws {
        try withTemporaryDirectory { path in
            let environment = try LMDBEnvironment.open(directory: path)
            let database = try environment.write { transaction throws in
                let database = try transaction.openDatabase(named: "numbers", create: true)
                for number in UInt64(1)...10 {
                    try transaction.put(
                        Array("v\(number)".utf8), forKey: number.bigEndianKey, in: database, flags: .append)
                }
                return database
            }
            // Appending out of order is refused, and the failed write leaves no trace.
            #expect(throws: LMDBError.keyExists) {
                try environment.write { transaction throws in
                    try transaction.put([1], forKey: UInt64(11).bigEndianKey, in: database, flags: .append)
                    try transaction.put([1], forKey: UInt64(5).bigEndianKey, in: database, flags: .append)
                }
            }
            try environment.read { transaction throws in
                #expect(try transaction.value(forKey: UInt64(11).bigEndianKey, in: database) == nil)
                #expect(try transaction.value(forKey: UInt64(3).bigEndianKey, in: database) == Array("v3".utf8))
                #expect(try transaction.statistics(of: database).entries == 10)
            }
            // Delete the even keys while walking with a cursor.
            try environment.write { transaction throws in
                try transaction.withCursor(in: database) { cursor throws in
                    var more = try cursor.move(to: .first)
                    while more {
                        let key = UInt64(bigEndianKey: try cursor.currentKey())!
                        if key % 2 == 0 {
                            try cursor.deleteCurrent()
                        }
                        more = try cursor.move(to: .next)
                    }
                }
            }
            let keys = try environment.read { transaction throws in
                try transaction.withCursor(in: database) { cursor throws in
                    var keys: [UInt64] = []
                    var more = try cursor.move(to: .atOrAfter(UInt64(2).bigEndianKey))
                    while more {
                        keys.append(UInt64(bigEndianKey: try cursor.current().key)!)
                        more = try cursor.move(to: .next)
                    }
                    #expect(try cursor.move(to: .exactly(UInt64(4).bigEndianKey)) == false)
                    #expect(try cursor.move(to: .last))
                    #expect(try cursor.current().value == Array("v9".utf8))
                    return keys
                }
            }
            #expect(keys == [3, 5, 7, 9])
        }
    }

    @Test("an aborted write leaves no trace")
    func abortLeavesNoTrace() throws {
        struct Stop: Error {}
        try withTemporaryDirectory { path in
            let environment = try LMDBEnvironment.open(directory: path)
            let database = try environment.write { try $0.openDatabase(named: nil, create: false) }
            #expect(throws: Stop.self) {
                try environment.write { transaction throws in
                    try transaction.put([1], forKey: [1], in: database)
                    throw Stop()
                }
            }
            let transaction = try LMDBTransaction(environment: environment, readOnly: false)
            try transaction.put([2], forKey: [2], in: database)
            transaction.abort()
            try environment.read { transaction throws in
                #expect(try transaction.statistics(of: database).entries == 0)
            }
        }
    }

    @Test("one path is one environment per process")
    func registry() throws {
        try withTemporaryDirectory { path in
            let first = try LMDBEnvironment.open(directory: path)
            let second = try LMDBEnvironment.open(directory: path + "/.")
            #expect(first === second)
            #expect(first.staleReadersCleared == 0)
        }
    }

    @Test("the map grows past a tiny initial size")
    func mapGrowth() throws {
        try withTemporaryDirectory { path in
            let environment = try LMDBEnvironment.open(
                directory: path, configuration: .init(mapSize: 64 << 10))
            let initialSize = environment.info().mapSize
            let database = try environment.write { try $0.openDatabase(named: "values", create: true) }
            let value = [UInt8](repeating: 0xAB, count: 3000)
            // Many small transactions, then one large one.
            for number in UInt64(0)..<200 {
                try environment.write { transaction throws in
                    try transaction.put(value, forKey: number.bigEndianKey, in: database)
                }
            }
            try environment.write { transaction throws in
                for number in UInt64(200)..<1000 {
                    try transaction.put(value, forKey: number.bigEndianKey, in: database)
                }
            }
            #expect(environment.info().mapSize > initialSize)
            #expect(environment.info().mapSize >= 1000 * 3000)
            try environment.read { transaction throws in
                #expect(try transaction.statistics(of: database).entries == 1000)
                #expect(try transaction.value(forKey: UInt64(999).bigEndianKey, in: database) == value)
            }
        }
    }
}
