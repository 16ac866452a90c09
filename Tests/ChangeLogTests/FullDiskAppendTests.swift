import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLog

/// An append on a file system that filled up: LMDB reports the short write of its pages as an
/// input/output error (`EIO`); the error says the file system is full, and the log stays
/// intact and appendable once there is space.
///
/// Each test mounts a small `tmpfs` (``SmallFileSystem``), which takes root on Linux; CI runs
/// the tests as root. Elsewhere the suite is skipped, and shows as skipped.
@Suite(
    "Appending on a full file system",
    .enabled(if: SmallFileSystem.canMount, "mounting a tmpfs takes root (CAP_SYS_ADMIN) on Linux"))
struct FullDiskAppendTests {
    @Test("an append that meets a full file system says the file system is full, and a later one succeeds")
    func appendOnFullFileSystem() async throws {
        try await withSmallFileSystem(bytes: 1 << 20, filled: false) { fileSystem in
            let path = fileSystem.path + "/app.lmdb"
            let log = try ChangeLog(path: path)
            _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 2))
            try fileSystem.fill()
            var failure: ChangeLogError?
            var appended = 1
            for version in 0..<400 {
                do {
                    _ = try await log.append(try makeSnapshot(sections: 4, itemsPerSection: 100, version: version))
                    appended += 1
                } catch let error as ChangeLogError {
                    failure = error
                    break
                }
            }
            let error = try #require(failure, "400 appends fitted on a full file system")
            #expect(error.code == .storage, "\(error)")
            #expect(
                error.message
                    == "LMDB failed while appending to the log at \(path): the file system is full; free some space, "
                    + "then retry",
                "\(error)")
            #expect((error.cause as? LMDBError)?.code == ENOSPC, "\(error)")
            try FileManager.default.removeItem(atPath: fileSystem.path + "/fill")
            _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 3))
            #expect(try log.latestRevision == UInt64(appended + 1))
            #expect(try await log.verify().isValid)
        }
    }

    @Test("EIO names a full file system only when the log's file system has no space left")
    func inputOutputError() throws {
        try withTemporaryDirectory { path in
            let roomy = ChangeLogError.storage(LMDBError(code: EIO), path: path, during: "appending to")
            #expect((roomy.cause as? LMDBError)?.code == EIO)
            #expect(roomy.message.hasSuffix("check the disk (space, permissions, health) and retry"))
            let quota = ChangeLogError.storage(LMDBError(code: EDQUOT), path: path, during: "appending to")
            #expect(
                quota.message.hasSuffix("the disk quota is used up; free some space or raise the quota, then retry"))
        }
        try withSmallFileSystem { fileSystem in
            let full = ChangeLogError.storage(LMDBError(code: EIO), path: fileSystem.path, during: "appending to")
            #expect((full.cause as? LMDBError)?.code == ENOSPC)
            #expect(full.message.hasSuffix("the file system is full; free some space, then retry"))
        }
    }
}
