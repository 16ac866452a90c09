import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLog

/// Logs on a file system with no space left: creating one, or opening one whose `lock.mdb` is
/// missing, throws rather than ending the process with `SIGBUS` inside LMDB (which writes into
/// its map of a lock file that `ftruncate` leaves without blocks), and leaves nothing behind
/// that opens as something else once there is space again.
///
/// Each test mounts a small `tmpfs` (``SmallFileSystem``), which takes root on Linux; CI runs
/// the tests as root. Elsewhere the suite is skipped, and shows as skipped.
@Suite(
    "Full file systems",
    .enabled(if: SmallFileSystem.canMount, "mounting a tmpfs takes root (CAP_SYS_ADMIN) on Linux"))
struct FullFileSystemTests {
    @Test("creating a log on a full file system throws cannotOpen naming the path and saying it is full")
    func creating() async throws {
        try await withSmallFileSystem { fileSystem in
            let path = fileSystem.path + "/new.lmdb"
            let error = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
            #expect(error?.code == .cannotOpen)
            #expect(error?.path == path)
            #expect(
                error?.message
                    == "cannot open the log at \(path): the file system is full, and LMDB needs space for its files "
                    + "(lock.mdb, data.mdb); free some space, then retry")
            #expect((error?.cause as? LMDBError)?.code == ENOSPC, "\(String(describing: error))")
            // What is left is no log, and becomes one once there is space.
            let reading = #expect(throws: ChangeLogError.self) {
                _ = try ChangeLog(path: path, options: .init(readOnly: true))
            }
            #expect(reading?.code == .logNotFound, "\(String(describing: reading))")
            try FileManager.default.removeItem(atPath: fileSystem.path + "/fill")
            let log = try ChangeLog(path: path)
            _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 2))
            #expect(try log.latestRevision == 1)
        }
    }

    /// With a few pages free, LMDB gets further: the lock file fits, then the data file's meta
    /// pages (one of the two, with 12 KB: LMDB leaves that page alone, which every later open
    /// would refuse as not an LMDB file, so the open empties the file again), then part of the
    /// first transaction. Whatever fits, the open fails plainly, and with space freed the log is
    /// created where it failed.
    @Test(
        "creating a log with a few pages free fails plainly, and the log is created there later",
        arguments: [4, 8, 12, 16, 20])
    func creatingWithPagesFree(kilobytes: Int) async throws {
        try await withSmallFileSystem(filled: false) { fileSystem in
            try fileSystem.fill(leaving: kilobytes << 10)
            let path = fileSystem.path + "/new.lmdb"
            do {
                _ = try ChangeLog(path: path)
            } catch let error as ChangeLogError {
                #expect(error.code == .cannotOpen || error.code == .storage, "\(error)")
                #expect(error.path == path)
                let reading = #expect(throws: ChangeLogError.self) {
                    _ = try ChangeLog(path: path, options: .init(readOnly: true))
                }
                #expect(reading?.code == .logNotFound, "\(String(describing: reading))")
            }
            try FileManager.default.removeItem(atPath: fileSystem.path + "/fill")
            let log = try ChangeLog(path: path)
            _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 2))
            #expect(try log.latestRevision == 1)
            #expect(try await log.verify().isValid)
        }
    }

    /// A lock file that was deleted, or that a crash left as a hole of the right size (what
    /// LMDB's `ftruncate` makes before the fault), has no blocks: opening the log to write must
    /// allocate them. A reader leaves such a lock file alone and reads without it, so it
    /// opens on a full file system too, and creates nothing.
    @Test("a log whose lock.mdb is missing or a hole opens to write only with space; a reader reads it without one")
    func lockFileWithoutBlocks() async throws {
        try await withSmallFileSystem(filled: false) { fileSystem in
            let path = fileSystem.path + "/app.lmdb"
            let lockFile = path + "/lock.mdb"
            let snapshot = try await makeClosedLog(at: path)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: lockFile)[.size] as? Int)
            try FileManager.default.removeItem(atPath: lockFile)
            try fileSystem.fill()
            do {
                let reader = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(reader.readingWithoutLock?.reason == .lockFileMissing)
                #expect(try reader.snapshot(at: 1) == snapshot)
            }
            #expect(!FileManager.default.fileExists(atPath: lockFile))
            let error = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
            #expect(error?.code == .cannotOpen, "\(String(describing: error))")
            #expect(error?.message.contains("the file system is full") == true, "\(String(describing: error))")
            #expect(truncate(lockFile, off_t(size)) == 0)
            let hole = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
            #expect(hole?.message.contains("the file system is full") == true, "\(String(describing: hole))")
            do {
                let reader = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(reader.readingWithoutLock?.reason == .lockFileDistrusted)
                #expect(try reader.snapshot(at: 1) == snapshot)
            }
            try FileManager.default.removeItem(atPath: fileSystem.path + "/fill")
            let log = try ChangeLog(path: path, options: .init(readOnly: true))
            #expect(try log.snapshot(at: 1) == snapshot)
        }
    }

    @Test("an existing log with its lock file opens on a full file system and reads")
    func existingLog() async throws {
        try await withSmallFileSystem(filled: false) { fileSystem in
            let path = fileSystem.path + "/app.lmdb"
            let snapshot = try await makeClosedLog(at: path)
            try fileSystem.fill()
            for readOnly in [false, true] {
                let log = try ChangeLog(path: path, options: .init(readOnly: readOnly))
                #expect(try log.snapshot(at: 1) == snapshot)
            }
        }
    }

    /// The lock file cannot be created or written on a read-only file system: the step is
    /// skipped, and LMDB's open goes on as before (reading without a lock file there).
    @Test("on a read-only file system allocating the lock file is skipped, and the log still opens for reading")
    func readOnlyFileSystem() async throws {
        try await withSmallFileSystem(filled: false) { fileSystem in
            let path = fileSystem.path + "/app.lmdb"
            let snapshot = try await makeClosedLog(at: path)
            try FileManager.default.removeItem(atPath: path + "/lock.mdb")
            try await fileSystem.remountReadOnly()
            defer { try? fileSystem.remount(readOnly: false) }
            #expect(try LockFileSpace.ensure(directory: path, maxReaders: 126, mode: 0o644) == .skipped(EROFS))
            do {
                let log = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(log.readingWithoutLock?.reason == .readOnlyFileSystem)
                #expect(try log.snapshot(at: 1) == snapshot)
            }
            let writing = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
            #expect(writing?.message.contains("does not permit writing") == true, "\(String(describing: writing))")
        }
    }

    /// Makes a log at `path` with one revision, and closes it; returns that revision's snapshot.
    private func makeClosedLog(at path: String) async throws -> LogSnapshot {
        let snapshot = try makeSnapshot(sections: 1, itemsPerSection: 2)
        let log = try ChangeLog(path: path)
        _ = try await log.append(snapshot)
        return snapshot
    }
}
