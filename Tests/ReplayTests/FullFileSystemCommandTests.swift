import ChangeLogTestSupport
import Foundation
import Testing

/// `replay` on a full file system: creating a log there exits 2 with one line that says the file
/// system is full, never with `SIGBUS` inside LMDB (exit 135); reading one whose `lock.mdb` is
/// missing needs no space, since a reader creates no lock file.
///
/// Each test mounts a small `tmpfs` (``SmallFileSystem``), which takes root on Linux; CI runs
/// the tests as root. Elsewhere the suite is skipped, and shows as skipped.
@Suite(
    "replay on a full file system",
    .enabled(if: SmallFileSystem.canMount, "mounting a tmpfs takes root (CAP_SYS_ADMIN) on Linux"))
struct FullFileSystemCommandTests {
    @Test(
        "creating a log on a full file system exits 2 with one line saying so",
        arguments: [["import", "-"], ["demo"]])
    func creating(command: [String]) async throws {
        try await withSmallFileSystem { fileSystem in
            let log = fileSystem.path + "/new.lmdb"
            let result = try await ToolRunner.run(command + ["--log", log], input: #"{"sections": []}"# + "\n")
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(
                result.stderr
                    == "replay: cannot open the log at \(log): the file system is full, and LMDB needs space for its "
                    + "files (lock.mdb, data.mdb); free some space, then retry (No space left on device (LMDB code 28))\n"
            )
        }
    }

    @Test("reading a log whose lock.mdb was deleted, on a full file system, reads it without one and creates none")
    func missingLockFile() async throws {
        try await withSmallFileSystem(filled: false) { fileSystem in
            let log = fileSystem.path + "/app.lmdb"
            #expect(
                try await ToolRunner.run(["import", "-", "--log", log], input: #"{"sections": []}"# + "\n").status == 0)
            try FileManager.default.removeItem(atPath: log + "/lock.mdb")
            try fileSystem.fill()
            let result = try await ToolRunner.run(["log", "--log", log])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("1  "), "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: log + "/lock.mdb"))
        }
    }
}
