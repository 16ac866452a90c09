import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLog

/// The allocation of `lock.mdb`'s blocks before LMDB maps it (``LockFileSpace``), on the file
/// system the tests run on. The full file systems it is for are in ``FullFileSystemTests``.
@Suite("Lock file space")
struct LockFileSpaceTests {
    /// LMDB sizes a new lock file itself; the blocks allocated before must cover it all.
    @Test("the bytes allocated cover the lock file LMDB makes, and all of it has blocks", arguments: [1, 126, 1_000])
    func coversLockFile(maxReaders: Int) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/log"
            _ = try ChangeLog(path: path, options: .init(maxReaders: maxReaders))
            let status = try Status(path + "/lock.mdb")
            let expected = LockFileSpace.mappedBytes(maxReaders: UInt32(maxReaders))
            #if os(Linux)
                // LMDB uses POSIX mutexes on Linux: the computation is exact.
                #expect(status.size == expected)
            #else
                #expect(status.size <= expected)
            #endif
            #expect(status.allocated >= status.size, "\(status)")
        }
    }

    /// Unchecked, a `maxReaders` of 10 million would reserve 640 MB of hidden blocks for
    /// `lock.mdb`, and `UInt32.max` 275 GB, filling the disk.
    @Test("maxReaders must be from 1 to 65,536", arguments: [0, 65_537, 10_000_000, Int(UInt32.max), Int.max])
    func maxReadersRange(maxReaders: Int) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/log"
            let error = #expect(throws: ChangeLogError.self) {
                _ = try ChangeLog(path: path, options: .init(maxReaders: maxReaders))
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message.contains("maxReaders from 1 to 65536 (got") == true, "\(String(describing: error))")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    /// `ext4` keeps the blocks a `fallocate` got before it ran out of space: a failed open gives
    /// them back rather than leave them in `lock.mdb`, past its end, where nothing else would.
    @Test(
        "an allocation that runs out of space part of the way gives back the blocks it got",
        .enabled(if: SmallFileSystem.canMountExt4, "needs root, mkfs.ext4 and loop devices"))
    func partialAllocationGivenBack() throws {
        let fileSystem = try SmallFileSystem.ext4(megabytes: 16)
        defer { fileSystem.unmount() }
        try fileSystem.fill(leaving: 1 << 20)
        let directory = fileSystem.path + "/log"
        #expect(mkdir(directory, 0o755) == 0)
        let error = #expect(throws: LMDBError.self) {
            _ = try LockFileSpace.ensure(directory: directory, maxReaders: 65_536, mode: 0o644)
        }
        #expect(error?.code == ENOSPC)
        let status = try Status(directory + "/lock.mdb")
        #expect(status.allocated == 0, "\(status)")
    }

    /// The blocks are given back by cutting the file to its size, which another process that
    /// has the environment open may have changed since it was read: it is done only when no
    /// other process has the environment open (LMDB's lock of the lock file's first byte).
    @Test(
        "blocks a failed allocation got are given back only while no other process has the log open",
        .enabled(if: SmallFileSystem.canMountExt4, "needs root, mkfs.ext4 and loop devices"))
    func partialAllocationWhileOpenElsewhere() async throws {
        let fileSystem = try SmallFileSystem.ext4(megabytes: 16)
        defer { fileSystem.unmount() }
        let directory = fileSystem.path + "/log"
        do {
            let log = try ChangeLog(path: directory)
            _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 2))
        }
        let lockFile = directory + "/lock.mdb"
        let size = try Status(lockFile).size
        let worker = try WorkerProcess(["hold-readers", "--log", directory, "--count", "1"])
        _ = try await worker.waitForLine { $0 == "holding 1" }
        try fileSystem.fill(leaving: 1 << 20)
        #expect(throws: LMDBError.self) {
            _ = try LockFileSpace.ensure(directory: directory, maxReaders: 65_536, mode: 0o644)
        }
        let whileOpen = try Status(lockFile)
        #expect(whileOpen.size == size)
        #expect(whileOpen.allocated > 1 << 19, "the blocks stay while another process has the log open: \(whileOpen)")
        worker.kill()
        _ = try await worker.waitForExit()
        #expect(throws: LMDBError.self) {
            _ = try LockFileSpace.ensure(directory: directory, maxReaders: 65_536, mode: 0o644)
        }
        let afterwards = try Status(lockFile)
        #expect(afterwards.size == size)
        #expect(afterwards.allocated < 1 << 16, "\(afterwards)")
    }

    /// LMDB writes into its map of the lock file at every open (the reader table's header when
    /// it is the only user, a reader slot for each read): that changes the file's times, not
    /// its size or blocks. The allocation step only looks at a file that has its blocks.
    @Test("a lock file that exists with its blocks is not modified by the allocation, nor resized by an open")
    func existingLockFileIsLeftAlone() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/log"
            _ = try ChangeLog(path: path)
            let lockFile = path + "/lock.mdb"
            let before = try Status(lockFile)
            // Times have a resolution of a clock tick: let one pass, so that a write would show.
            usleep(20_000)
            #expect(try LockFileSpace.ensure(directory: path, maxReaders: 126, mode: 0o644) == .unchanged)
            #expect(try Status(lockFile) == before)
            for readOnly in [false, true] {
                _ = try ChangeLog(path: path, options: .init(readOnly: readOnly))
                let after = try Status(lockFile)
                #expect(after.inode == before.inode)
                #expect(after.size == before.size)
                #expect(after.allocated == before.allocated)
            }
        }
    }

    @Test("a lock file that is a hole gets its blocks, and keeps its size")
    func holeIsAllocated() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/log"
            _ = try ChangeLog(path: path)
            let lockFile = path + "/lock.mdb"
            let size = try Status(lockFile).size
            try FileManager.default.removeItem(atPath: lockFile)
            #expect(FileManager.default.createFile(atPath: lockFile, contents: nil))
            #expect(truncate(lockFile, off_t(size)) == 0)
            #expect(try Status(lockFile).allocated < size)
            let outcome = try LockFileSpace.ensure(directory: path, maxReaders: 126, mode: 0o644)
            #if os(Linux)
                #expect(outcome == .allocated, "a file system that cannot allocate ahead skips the step: \(outcome)")
            #else
                // Elsewhere the step is always skipped.
                #expect(outcome == .skipped(EOPNOTSUPP))
                return
            #endif
            let status = try Status(lockFile)
            #expect(status.size == size)
            #expect(status.allocated >= size)
            _ = try ChangeLog(path: path)
        }
    }

    /// The `stat` of a file that matters here.
    private struct Status: Equatable, CustomStringConvertible {
        var inode: UInt64
        var size: Int
        /// Bytes of allocated blocks.
        var allocated: Int
        var modified: timespec
        var changed: timespec

        init(_ path: String) throws {
            var information = stat()
            guard stat(path, &information) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            inode = UInt64(information.st_ino)
            size = Int(information.st_size)
            allocated = Int(information.st_blocks) * 512
            #if canImport(Darwin)
                modified = information.st_mtimespec
                changed = information.st_ctimespec
            #else
                modified = information.st_mtim
                changed = information.st_ctim
            #endif
        }

        static func == (lhs: Status, rhs: Status) -> Bool {
            lhs.inode == rhs.inode && lhs.size == rhs.size && lhs.allocated == rhs.allocated
                && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
                && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
        }

        var description: String {
            "inode \(inode), \(size) bytes, \(allocated) allocated, modified \(modified.tv_sec).\(modified.tv_nsec), "
                + "changed \(changed.tv_sec).\(changed.tv_nsec)"
        }
    }
}
