import CLMDB
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ChangeLog

/// `Options.readOnly`, and what opening a log leaves alone: a log opened for reading writes
/// nothing, and no open turns another LMDB environment into a log.
@Suite("Opening without writing")
struct ReadOnlyTests {
    @Test("a log opened read-only reads and verifies, writes nothing, and refuses to append or drop")
    func readOnly() async throws {
        try await withTemporaryDirectory { path in
            do {
                let log = try ChangeLog(path: path)
                for version in 0..<3 {
                    _ = try await log.append(try makeSnapshot(sections: 2, itemsPerSection: 3, version: version))
                }
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb"))
            do {
                let log = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(log.readingWithoutLock == nil, "this user may write lock.mdb: readers use it")
                #expect(try log.latestRevision == 3)
                #expect(try log.snapshot(at: 2) == makeSnapshot(sections: 2, itemsPerSection: 3, version: 1))
                #expect(try await log.verify().isValid)
                #expect(throws: Never.self) { try log.flush() }
                let append = await #expect(throws: ChangeLogError.self) {
                    _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 1))
                }
                #expect(append?.code == .readOnly)
                #expect(append?.message.contains("cannot append to the log at \(path)") == true)
                let drop = await #expect(throws: ChangeLogError.self) { _ = try await log.dropRevisions(before: 2) }
                #expect(drop?.code == .readOnly)
                let writable = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
                #expect(writable?.code == .incompatibleOptions)
                #expect(writable?.message.contains("for reading only") == true)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb")) == before)
            // Released, the log opens for writing again.
            let log = try ChangeLog(path: path)
            #expect(try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 1)).revision == 4)
        }
    }

    @Test(
        "a log whose lock.mdb this user may not write is read without it, and says so; it does not open to write",
        .enabled(if: getuid() != 0, "root may write any file; ForeignLogTests reads a root-owned log as nobody"))
    func lockFileNotWritable() async throws {
        try await withTemporaryDirectory { path in
            let snapshot = try makeSnapshot(sections: 2, itemsPerSection: 3)
            do {
                _ = try await ChangeLog(path: path).append(snapshot)
            }
            let lockFile = path + "/lock.mdb"
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: lockFile)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: lockFile) }
            do {
                let log = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(log.readingWithoutLock?.reason == .lockFileNotWritable)
                #expect(
                    log.readingWithoutLock?.description.contains("writers running at the same time are not seen")
                        == true)
                #expect(try log.snapshot(at: 1) == snapshot)
                #expect(try await log.verify().isValid)
            }
            let writable = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
            #expect(
                writable?.message
                    == "cannot open the log at \(path) for writing: its lock.mdb is not writable by this user; ask "
                    + "its owner, copy the log, or open it for reading only (Options.readOnly)")
        }
    }

    @Test("read-only, a missing log or an empty data.mdb is not found, and nothing is created")
    func readOnlyCreatesNothing() throws {
        try withTemporaryDirectory { path throws in
            let missing = path + "/missing"
            let notFound = #expect(throws: ChangeLogError.self) {
                _ = try ChangeLog(path: missing, options: .init(createIfMissing: true, readOnly: true))
            }
            #expect(notFound?.code == .logNotFound)
            #expect(notFound?.message.contains("createIfMissing") == false, "never created read-only")
            #expect(!FileManager.default.fileExists(atPath: missing))
            #expect(FileManager.default.createFile(atPath: path + "/data.mdb", contents: Data()))
            let empty = #expect(throws: ChangeLogError.self) {
                _ = try ChangeLog(path: path, options: .init(readOnly: true))
            }
            #expect(empty?.code == .logNotFound)
            #expect(empty?.message.contains("an empty data.mdb") == true)
            #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["data.mdb"])
        }
    }

    @Test(
        "an LMDB environment that holds something else is not opened as a log, and is left as it is",
        arguments: [false, true])
    func foreignEnvironment(readOnly: Bool) throws {
        try withTemporaryDirectory { path throws in
            for (name, key) in [(nil, "revisions"), ("other", "key")] as [(String?, String)] {
                let directory = path + "/\(name ?? "main")"
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
                try writeForeignEnvironment(at: directory, database: name, key: key)
                let before = try Data(contentsOf: URL(fileURLWithPath: directory + "/data.mdb"))
                let error = #expect(throws: ChangeLogError.self) {
                    _ = try ChangeLog(path: directory, options: .init(readOnly: readOnly))
                }
                #expect(error?.code == .cannotOpen)
                #expect(error?.message.contains("is not a replay log") == true, "\(String(describing: error))")
                #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/data.mdb")) == before)
            }
        }
    }

    /// LMDB forbids opening named databases from concurrent transactions of one process: two
    /// instances of one log opened at once on two threads re-registered the databases, and a
    /// write transaction begun in between then failed to commit with `MDB_BAD_DBI`. Opening
    /// therefore holds the environment's lock for opening databases; here the test holds it,
    /// and an open on another thread must wait for it.
    @Test("opening a log's databases waits while another open of the same environment holds the lock")
    func opensAreSerialized() throws {
        try withTemporaryDirectory { path throws in
            _ = try ChangeLog(path: path)
            let environment = try LMDBEnvironment.open(directory: path)
            let opened = DispatchSemaphore(value: 0)
            let result = Mutex<Result<Void, ChangeLogError>?>(nil)
            let waited = environment.openingDatabases {
                Thread.detachNewThread {
                    let outcome = Result { () throws(ChangeLogError) in
                        _ = try LMDBLogStorage.open(environment: environment, path: path, readOnly: false)
                    }
                    result.withLock { $0 = outcome }
                    opened.signal()
                }
                // Not a time limit: only an open that ignored the lock could end meanwhile.
                return opened.wait(timeout: .now() + .milliseconds(200)) == .timedOut
            }
            #expect(waited, "the open did not wait for the lock")
            if waited { opened.wait() }
            #expect(throws: Never.self) { try result.withLock { $0 }?.get() }
        }
    }

    @Test("an empty path, a dangling symbolic link and a directory that cannot be made are named plainly")
    func pathErrors() throws {
        let empty = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: "") }
        #expect(empty?.code == .invalidArgument)
        try withTemporaryDirectory { path throws in
            // More than any process can map: the option is named, not the directory.
            let huge = #expect(throws: ChangeLogError.self) {
                _ = try ChangeLog(path: path, options: .init(initialMapSize: 1 << 62))
            }
            #expect(huge?.code == .invalidArgument)
            #expect(huge?.message.contains("Options.initialMapSize") == true, "\(String(describing: huge))")
        }
        try withTemporaryDirectory { path throws in
            let link = path + "/link"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path + "/missing/target")
            for readOnly in [false, true] {
                let dangling = #expect(throws: ChangeLogError.self) {
                    _ = try ChangeLog(path: link, options: .init(readOnly: readOnly))
                }
                #expect(dangling?.code == .cannotOpen)
                #expect(
                    dangling?.message
                        == "\(link) is a symbolic link to \(path)/missing/target, which does not exist: create the "
                        + "directory it points to, or pass another path")
            }
            #expect(!FileManager.default.fileExists(atPath: path + "/missing"))
        }
        #if os(Linux)
            // sysfs refuses new directories, even to root.
            let refused = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: "/sys/replay-test.lmdb") }
            #expect(refused?.code == .cannotOpen)
            #expect(refused?.message.hasPrefix("cannot create the log directory /sys/replay-test.lmdb (") == true)
            #expect(refused?.message.contains("Error Domain") == false, "\(String(describing: refused))")
        #endif
    }

    /// No file system path holds a NUL byte; the system calls would read the path only up to it,
    /// and so open, or create, the log of another path.
    @Test("a path with a NUL byte is refused, and nothing is created at the path before it")
    func pathWithNUL() throws {
        try withTemporaryDirectory { path throws in
            for options in [ChangeLog.Options(), .init(createIfMissing: false), .init(readOnly: true)] {
                let error = #expect(throws: ChangeLogError.self) {
                    _ = try ChangeLog(path: path + "/log\u{0}.old", options: options)
                }
                #expect(error?.code == .invalidArgument, "\(String(describing: error))")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
        }
    }

    /// Writes an LMDB environment of another application with LMDB's C API: one key in the main
    /// database (`database` nil) or in a named database.
    private func writeForeignEnvironment(at path: String, database: String?, key: String) throws {
        var environment: OpaquePointer?
        try #require(mdb_env_create(&environment) == MDB_SUCCESS)
        defer { mdb_env_close(environment) }
        try #require(mdb_env_set_maxdbs(environment, 4) == MDB_SUCCESS)
        try #require(mdb_env_open(environment, path, 0, 0o644) == MDB_SUCCESS)
        var transaction: OpaquePointer?
        try #require(mdb_txn_begin(environment, nil, 0, &transaction) == MDB_SUCCESS)
        var dbi: MDB_dbi = 0
        try #require(mdb_dbi_open(transaction, database, UInt32(MDB_CREATE), &dbi) == MDB_SUCCESS)
        var keyBytes = Array(key.utf8)
        var valueBytes: [UInt8] = [1, 2, 3]
        let result = keyBytes.withUnsafeMutableBytes { keyBuffer in
            valueBytes.withUnsafeMutableBytes { valueBuffer in
                var keyValue = MDB_val(mv_size: keyBuffer.count, mv_data: keyBuffer.baseAddress)
                var value = MDB_val(mv_size: valueBuffer.count, mv_data: valueBuffer.baseAddress)
                return mdb_put(transaction, dbi, &keyValue, &value, 0)
            }
        }
        try #require(result == MDB_SUCCESS)
        try #require(mdb_txn_commit(transaction) == MDB_SUCCESS)
    }
}
