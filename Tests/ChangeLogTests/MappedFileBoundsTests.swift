import CLMDB
import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLog

#if canImport(Glibc)
    import Glibc
#endif

/// The bounds every lent key and value is checked against (``MappedFileBounds``), driven
/// directly with addresses inside a real log's map.
@Suite("Mapped file bounds")
struct MappedFileBoundsTests {
    /// A log with some revisions, the data file's path and size, and where its map starts.
    private func openLog(at path: String) async throws -> (log: ChangeLog, file: String, size: Int, mapStart: UInt) {
        let log = try ChangeLog(path: path)
        _ = try await appendRevisions(3, to: log)
        let file = path + "/data.mdb"
        var status = stat()
        #expect(stat(file, &status) == 0)
        // Lending a value finds the map and reads the file's size.
        let lent = try log.store.environment.read { transaction in
            try transaction.withValue(forKey: LogStore.formatKey, in: log.store.meta) {
                UInt(bitPattern: $0?.baseAddress)
            }
        }
        let maps = MappedFileBounds.mappings(ofDevice: UInt64(status.st_dev), inode: UInt64(status.st_ino)) ?? []
        let map = try #require(maps.first { $0.contains(lent) })
        return (log, file, Int(status.st_size), map.lowerBound)
    }

    /// A value of `count` bytes at `offset` in the map.
    private func value(at offset: Int, count: Int, mapStart: UInt) -> MDB_val {
        MDB_val(mv_size: count, mv_data: UnsafeMutableRawPointer(bitPattern: mapStart + UInt(offset)))
    }

    @Test("a value inside the file passes; one reaching past its end is refused")
    func insideAndPast() async throws {
        try await withTemporaryDirectory { path in
            let (log, _, size, mapStart) = try await openLog(at: path)
            let bounds = log.store.environment.mapBounds
            #expect(throws: Never.self) { _ = try bounds.lent(value(at: size - 64, count: 64, mapStart: mapStart)) }
            let error = #expect(throws: LMDBError.self) {
                _ = try bounds.lent(value(at: size - 64, count: 65, mapStart: mapStart))
            }
            #expect(error?.code == MDB_CORRUPTED)
        }
    }

    /// A reserve that fails cuts the data file back (``DataFileReserve``); the size the bounds
    /// had read would let a damaged value reach into the part cut off, which is no longer
    /// backed by the file: reading it would end the process with `SIGBUS`.
    @Test("after the file is cut back and the bounds are told, a value reaching past the new end is refused")
    func fileCutBack() async throws {
        try await withTemporaryDirectory { path in
            let (log, file, size, mapStart) = try await openLog(at: path)
            let environment = log.store.environment
            let used = environment.info().usedBytes
            // The space kept ahead of the used pages is what a failed reserve cuts off.
            try #require(size - used >= 8192, "the file keeps no space ahead: \(size) bytes, \(used) used")
            let cut = size - 4096
            let reaching = value(at: cut - 16, count: 64, mapStart: mapStart)
            #expect(throws: Never.self) { _ = try environment.mapBounds.lent(reaching) }
            #expect(truncate(file, off_t(cut)) == 0)
            environment.mapBounds.fileMayHaveShrunk()
            let error = #expect(throws: LMDBError.self) { _ = try environment.mapBounds.lent(reaching) }
            #expect(error?.code == MDB_CORRUPTED)
            // The log itself is intact: only zeros were cut off.
            #expect(try await log.verify().failure == nil)
        }
    }

    /// Looking the map up needs a file descriptor for `/proc/self/maps`. When the process has
    /// none left at the first value lent after the map moved, the lookup fails; the check must
    /// look again later, not stay off: a damaged value would then be read past the file's end
    /// or the map's (`SIGBUS`, `SIGSEGV`).
    @Test("a map lookup that fails for want of file descriptors is made again, and damage is still refused")
    func lookupWithoutDescriptors() async throws {
        try await withTemporaryDirectory { path in
            let mapSize = 256 << 10
            let log = try ChangeLog(path: path, options: .init(initialMapSize: mapSize))
            _ = try await appendRevisions(3, to: log)
            try damageSize(ofRevision: 2, of: log, high: 0x0020)
            // The worker's append of 3,000 items of about 110 bytes does not fit in the map.
            let worker = try WorkerProcess([
                "read-without-descriptors", "--log", path, "--revision", "2", "--map-size", "\(mapSize)",
                "--append-items", "3000",
            ])
            let status = try await worker.waitForExit()
            #expect(status == 0, "stderr: \(worker.errors)")
            let lines = worker.lines.map(\.text)
            #expect(lines.first == "grew", "\(lines), stderr: \(worker.errors)")
            let refused = lines.dropFirst().first ?? ""
            #expect(refused.hasPrefix("refused 2: "), "\(lines), stderr: \(worker.errors)")
            #expect(refused.contains("LMDB reports its file damaged while reading revision 2"), "\(refused)")
        }
    }

    /// The check reads the data file's size when a value reaches past the size it knows. A
    /// size that cannot be read (`fstat` failing) must not make it refuse a healthy log.
    @Test("when the data file's size cannot be read, values are lent as they are")
    func sizeUnreadable() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await appendRevisions(1, to: log)
            var status = stat()
            #expect(stat(path + "/data.mdb", &status) == 0)
            let grown = Int(status.st_size) + (256 << 10)
            // The worker learns the file's size; this process then grows the file well past it.
            let worker = try WorkerProcess(["read-without-data-descriptor", "--log", path, "--grow-to", "\(grown)"])
            _ = try await worker.waitForLine { $0 == "opened" }
            var revisions = 1
            while stat(path + "/data.mdb", &status) == 0, Int(status.st_size) < grown {
                _ = try await log.append(try makeSnapshot(sections: 4, itemsPerSection: 50, version: revisions))
                revisions += 1
            }
            let exit = try await worker.waitForExit()
            #expect(exit == 0, "stderr: \(worker.errors)")
            // The worker may read before the last append commits: the file grows as it begins.
            let lines = worker.lines.map(\.text)
            #expect(lines.count == 2 && lines.first == "opened", "\(lines), stderr: \(worker.errors)")
            let read = lines.last.flatMap { $0.hasPrefix("read ") ? Int($0.dropFirst(5)) : nil }
            #expect(read.map { $0 >= revisions - 1 } == true, "\(lines), stderr: \(worker.errors)")
        }
    }
}
