import CLMDB
import Foundation
import ListAdapter
import Synchronization
import Testing

@testable import ChangeLog

@Suite("Map growth")
struct MapResizeTests {
    @Test("reads keep running, and stay correct, while appends grow the map")
    func readsDuringGrowth() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(durability: .noSync, initialMapSize: 64 << 10))
            let first = try makeSnapshot(sections: 10, itemsPerSection: 50)
            _ = try await log.append(first)
            let initial = log.store.environment.info().mapSize
            try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask {
                    for version in 1...30 {
                        _ = try await log.append(
                            try makeSnapshot(sections: 10, itemsPerSection: 50 + version, version: version))
                    }
                    return 0
                }
                for _ in 0..<2 {
                    group.addTask {
                        var reads = 0
                        while try log.latestRevision < 31 {
                            let latest = try log.latestRevision
                            let snapshot = try log.snapshot(at: latest)
                            #expect(snapshot.itemCount == 10 * (50 + Int(latest) - 1))
                            reads += 1
                            // Leave the (possibly two-thread) cooperative pool to the appender.
                            await Task.yield()
                        }
                        return reads
                    }
                }
                for try await _ in group {}
            }
            #expect(log.store.environment.info().mapSize > initial)
        }
    }

    /// `mdb_env_info` reads LMDB's meta pages, inside the map, which a resize in another thread
    /// (growing it, or adopting another process's growth) unmaps and maps again; reading them
    /// without keeping resizes out would crash the process (SIGSEGV). Resizes here alternate
    /// between sizes, so that the map moves.
    @Test("map information and write transactions are safe while another thread resizes the map")
    func informationDuringResizes() throws {
        try withTemporaryDirectory { path in
            let environment = try LMDBEnvironment.open(
                directory: path, configuration: .init(mapSize: 64 << 20, flags: UInt32(MDB_NOSYNC)))
            let database = try environment.write { try $0.openDatabase(named: "values", create: true) }
            let resizing = Atomic<Bool>(true)
            let resizer = Thread {
                for index in 0..<20_000 {
                    let size = (index % 2 == 0 ? 1 << 30 : 64 << 20) + (index % 7) << 20
                    environment.gate.withExclusiveAccess { _ = mdb_env_set_mapsize(environment.handle, size) }
                }
                resizing.store(false, ordering: .releasing)
            }
            resizer.start()
            let written = Mutex(0)
            let failures = Mutex<[String]>([])
            // Two threads read the map's information as fast as they can; one writes.
            DispatchQueue.concurrentPerform(iterations: 3) { worker in
                var number: UInt64 = 0
                while resizing.load(ordering: .acquiring) {
                    guard worker == 0 else {
                        let information = environment.info()
                        if information.mapSize < 64 << 20 {
                            failures.withLock { $0.append("map size \(information.mapSize)") }
                        }
                        continue
                    }
                    do {
                        try environment.write { transaction throws in
                            try transaction.put([1], forKey: number.bigEndianKey, in: database)
                        }
                        number += 1
                        written.withLock { $0 += 1 }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            let entries = try environment.read { try $0.statistics(of: database).entries }
            #expect(entries == written.withLock { $0 })
            #expect(entries > 0)
        }
    }

    /// Another handle on the same files stands in for another process: it grows the map far
    /// beyond this process's, and this process's next transaction must adopt the new size
    /// (`MDB_MAP_RESIZED`). (Within one real process the registry never opens a path twice.)
    @Test("a map grown by another environment handle is adopted")
    func adoptsGrowthByAnotherHandle() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path, options: .init(initialMapSize: 64 << 10))
            _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 5))
            let before = log.store.environment.info().mapSize

            var other: OpaquePointer?
            try LMDBError.check(mdb_env_create(&other))
            defer { mdb_env_close(other) }
            try LMDBError.check(mdb_env_set_maxdbs(other, 4))
            try LMDBError.check(mdb_env_set_mapsize(other, 64 << 20))
            try LMDBError.check(mdb_env_open(other, path, UInt32(MDB_NOTLS), 0o644))
            var transaction: OpaquePointer?
            try LMDBError.check(mdb_txn_begin(other, nil, 0, &transaction))
            var database: MDB_dbi = 0
            try LMDBError.check(mdb_dbi_open(transaction, "filler", UInt32(MDB_CREATE), &database))
            var value = [UInt8](repeating: 7, count: 4000)
            for number in UInt64(0)..<500 {
                var key = number.bigEndianKey
                let result = key.withUnsafeMutableBytes { key in
                    value.withUnsafeMutableBytes { value in
                        var key = MDB_val(mv_size: key.count, mv_data: key.baseAddress)
                        var value = MDB_val(mv_size: value.count, mv_data: value.baseAddress)
                        return mdb_put(transaction, database, &key, &value, 0)
                    }
                }
                try LMDBError.check(result)
            }
            try LMDBError.check(mdb_txn_commit(transaction))

            // This process's map is now smaller than the data: the next transaction adopts it.
            #expect(try log.latestRevision == 1)
            #expect(log.store.environment.info().mapSize > before)
            let appended = try await log.append(try makeSnapshot(sections: 2, itemsPerSection: 5))
            #expect(appended.revision == 2)
        }
    }
}

extension MapResizeTests {
    /// LMDB unmaps the file before it maps it at the new size, and leaves no map when that
    /// fails: a next transaction that read the unmapped meta pages would crash the process
    /// (SIGSEGV). A 64 TiB map cannot double in a 47-bit address space (where it can, the growth
    /// simply succeeds); either way the log must stay readable and writable.
    @Test("a map that cannot grow leaves the log readable and writable")
    func growthBeyondTheAddressSpace() async throws {
        try await withTemporaryDirectory { path in
            let log: ChangeLog
            do throws(ChangeLogError) {
                log = try ChangeLog(path: path, options: .init(initialMapSize: 1 << 46))
            } catch {
                // A process that cannot map 64 TiB at all is told so, naming the option.
                #expect(error.code == .invalidArgument, "\(error)")
                #expect(error.message.contains("initialMapSize"), "\(error)")
                return
            }
            let first = try makeSnapshot(sections: 2, itemsPerSection: 5)
            _ = try await log.append(first)
            let environment = log.store.environment
            let before = environment.info().mapSize
            do throws(LMDBError) {
                try environment.grow(from: before)
                #expect(environment.info().mapSize == before * 2)
            } catch {
                #expect(error.code == ENOMEM)
                #expect(environment.info().mapSize == before)
            }
            #expect(try log.latestRevision == 1)
            #expect(try log.snapshot(at: 1) == first)
            #expect(try await log.append(try makeSnapshot(sections: 3, itemsPerSection: 5)).revision == 2)
        }
    }
}
