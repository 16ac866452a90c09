import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A log's files as a hostile sender may ship them: a `lock.mdb` that is a link, has other hard
/// links, holes, or is missing, is left exactly as it is by a read-only open, which reads without
/// it; a writer refuses a linked one.
@Suite("Opening logs with hostile files")
struct HostileLogFileTests {
    /// A closed log of two revisions at `path`; returns its latest snapshot.
    static func makeLog(at path: String, maxReaders: Int = 126) async throws -> LogSnapshot {
        let log = try ChangeLog(path: path, options: .init(maxReaders: maxReaders))
        _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 2))
        let snapshot = try makeSnapshot(sections: 2, itemsPerSection: 3, version: 1)
        _ = try await log.append(snapshot)
        return snapshot
    }

    /// The bytes, size and allocated blocks of the file at `path`, without following a link.
    static func state(of path: String) throws -> (bytes: Data, size: Int, blocks: Int) {
        var information = stat()
        try #require(lstat(path, &information) == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped).prefix(1 << 16)
        return (Data(bytes), Int(information.st_size), Int(information.st_blocks))
    }

    @Test("a read-only open reads past a lock.mdb linked to a file, or to nothing, and creates or changes nothing")
    func linkedLockFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/app.lmdb"
            let snapshot = try await Self.makeLog(at: path)
            let target = directory + "/notes.txt"
            try Data("the reader's notes\n".utf8).write(to: URL(fileURLWithPath: target))
            try FileManager.default.removeItem(atPath: path + "/lock.mdb")
            try FileManager.default.createSymbolicLink(atPath: path + "/lock.mdb", withDestinationPath: target)
            let before = try Self.state(of: target)
            do {
                let log = try ChangeLog(path: path, options: .init(readOnly: true, untrusted: true))
                #expect(log.readingWithoutLock?.reason == .lockFileDistrusted)
                #expect(log.readingWithoutLock?.description.contains("its lock.mdb is a symbolic link") == true)
                #expect(try log.snapshot(at: 2) == snapshot)
            }
            let after = try Self.state(of: target)
            #expect(after.bytes == before.bytes && after.size == before.size && after.blocks == before.blocks)
            // A dangling link: its target is not created.
            let nowhere = directory + "/nowhere"
            try FileManager.default.removeItem(atPath: path + "/lock.mdb")
            try FileManager.default.createSymbolicLink(atPath: path + "/lock.mdb", withDestinationPath: nowhere)
            do {
                let log = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(log.readingWithoutLock?.reason == .lockFileDistrusted)
                #expect(try log.snapshot(at: 2) == snapshot)
            }
            #expect(!FileManager.default.fileExists(atPath: nowhere))
        }
    }

    @Test("a writer refuses a lock.mdb or a data.mdb that is a symbolic link, and writes nothing through it")
    func writerRefusesLinks() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/app.lmdb"
            _ = try await Self.makeLog(at: path)
            let target = directory + "/notes.txt"
            try Data("the writer's notes\n".utf8).write(to: URL(fileURLWithPath: target))
            try FileManager.default.removeItem(atPath: path + "/lock.mdb")
            try FileManager.default.createSymbolicLink(atPath: path + "/lock.mdb", withDestinationPath: target)
            let error = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
            #expect(error?.code == .cannotOpen)
            #expect(
                error?.message
                    == "cannot open the log at \(path): its lock.mdb is a symbolic link to \(target), and a log's files "
                    + "are never followed through links; remove the link (a new lock file is made in its place)")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "the writer's notes\n")
            try FileManager.default.removeItem(atPath: path + "/lock.mdb")
            try FileManager.default.moveItem(atPath: path + "/data.mdb", toPath: directory + "/data.mdb")
            try FileManager.default.createSymbolicLink(
                atPath: path + "/data.mdb", withDestinationPath: directory + "/data.mdb")
            for readOnly in [false, true] {
                let linked = #expect(throws: ChangeLogError.self) {
                    _ = try ChangeLog(path: path, options: .init(readOnly: readOnly))
                }
                #expect(linked?.code == .cannotOpen)
                #expect(linked?.message.contains("its data.mdb is a symbolic link to \(directory)/data.mdb") == true)
            }
            #expect(!FileManager.default.fileExists(atPath: path + "/lock.mdb"))
        }
    }

    @Test("a read-only open leaves a missing, hard-linked or sparse lock.mdb as it is, and reads without it")
    func distrustedLockFiles() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/app.lmdb"
            let snapshot = try await Self.makeLog(at: path)
            let lockFile = path + "/lock.mdb"
            try FileManager.default.removeItem(atPath: lockFile)
            do {
                let log = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(log.readingWithoutLock?.reason == .lockFileMissing)
                #expect(try log.snapshot(at: 2) == snapshot)
            }
            #expect(!FileManager.default.fileExists(atPath: lockFile), "a reader creates no lock file")
            // A writer makes it again; a hard link to it elsewhere makes it distrusted.
            _ = try ChangeLog(path: path)
            let outside = directory + "/outside"
            #expect(link(lockFile, outside) == 0)
            do {
                let log = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(log.readingWithoutLock?.reason == .lockFileDistrusted)
                #expect(log.readingWithoutLock?.description.contains("has 2 hard links") == true)
            }
            try FileManager.default.removeItem(atPath: outside)
            // A sparse lock file of 1 GB: no block is allocated, none written.
            #expect(truncate(lockFile, 1 << 30) == 0)
            let before = try Self.state(of: lockFile)
            do {
                let log = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(log.readingWithoutLock?.reason == .lockFileDistrusted)
                #expect(try log.snapshot(at: 2) == snapshot)
            }
            let after = try Self.state(of: lockFile)
            #expect(after.blocks == before.blocks && after.size == before.size && after.bytes == before.bytes)
        }
    }

    @Test("a read-only open uses a plain lock file made for fewer readers, and does not grow it")
    func smallLockFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/app.lmdb"
            let snapshot = try await Self.makeLog(at: path, maxReaders: 4)
            let before = try Self.state(of: path + "/lock.mdb")
            #expect(before.size == LockFileSpace.mappedBytes(maxReaders: 4))
            do {
                let log = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(log.readingWithoutLock == nil)
                #expect(try log.snapshot(at: 2) == snapshot)
            }
            #expect(try Self.state(of: path + "/lock.mdb").size == before.size)
        }
    }
}
