import Foundation
import Testing

@testable import ChangeLog

/// A new log is private to its owner by default (files 0600, directory 0700); group or world
/// access only when `Options.fileMode` asks for it; existing files keep their bits.
@Suite("File modes of new logs")
struct FileModeTests {
    /// The permission bits of the file at `path`.
    static func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o7777
    }

    @Test(
        "a new log's directory and files get the bits asked for, the lock file write where read is allowed",
        arguments: [
            (ChangeLog.Options.privateFileMode, 0o700, 0o600, 0o600), (0o640, 0o750, 0o640, 0o660),
            (0o660, 0o770, 0o660, 0o660), (0o644, 0o755, 0o644, 0o666), (0o620, 0o730, 0o620, 0o620),
            (0o666, 0o775, 0o666, 0o666),
        ])
    func newLog(fileMode: Int, directoryMode: Int, dataMode: Int, lockMode: Int) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/logs/app.lmdb"
            let log = try ChangeLog(path: path, options: .init(fileMode: fileMode))
            _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 2))
            #expect(try Self.mode(of: path) == directoryMode)
            #expect(try Self.mode(of: path + "/data.mdb") == dataMode)
            #expect(try Self.mode(of: path + "/lock.mdb") == lockMode)
            #expect(ChangeLog.Options.directoryMode(forFileMode: fileMode) == directoryMode)
        }
    }

    @Test("the default options create a private log")
    func privateByDefault() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/app.lmdb"
            _ = try ChangeLog(path: path)
            #expect(ChangeLog.Options().fileMode == 0o600)
            #expect(try Self.mode(of: path) == 0o700)
            #expect(try Self.mode(of: path + "/data.mdb") == 0o600)
            #expect(try Self.mode(of: path + "/lock.mdb") == 0o600)
        }
    }

    @Test("an existing directory and an existing log keep their bits, whatever fileMode says")
    func existingKeepTheirs() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/app.lmdb"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try FileManager.default.setAttributes([.posixPermissions: 0o751], ofItemAtPath: path)
            do {
                let log = try ChangeLog(path: path, options: .init(fileMode: 0o640))
                _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 2))
            }
            #expect(try Self.mode(of: path) == 0o751)
            #expect(try Self.mode(of: path + "/data.mdb") == 0o640)
            for file in ["data.mdb", "lock.mdb"] {
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path + "/" + file)
            }
            _ = try ChangeLog(path: path, options: .init(fileMode: 0o600))
            #expect(try Self.mode(of: path + "/data.mdb") == 0o644)
            #expect(try Self.mode(of: path + "/lock.mdb") == 0o644)
        }
    }

    @Test(
        "a lock file made again by a writer beside an existing data file follows the data file's bits; a reader makes none"
    )
    func lockFileFollowsDataFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/app.lmdb"
            do {
                let log = try ChangeLog(path: path, options: .init(fileMode: 0o640))
                _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 2))
            }
            try FileManager.default.removeItem(atPath: path + "/lock.mdb")
            do {
                let log = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(try log.latestRevision == 1)
            }
            #expect(!FileManager.default.fileExists(atPath: path + "/lock.mdb"))
            let log = try ChangeLog(path: path)
            #expect(try log.latestRevision == 1)
            #expect(try Self.mode(of: path + "/lock.mdb") == 0o660)
        }
    }

    @Test(
        "a mode without the owner's read and write, or with other bits, is refused before anything is created",
        arguments: [0o400, 0o200, 0o040, 0o700, 0o4600, 0o1600, 0o601, 0o7777, -1, 0o10600])
    func invalidModes(fileMode: Int) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/app.lmdb"
            #expect(!ChangeLog.Options.isValidFileMode(fileMode))
            let error = #expect(throws: ChangeLogError.self) {
                _ = try ChangeLog(path: path, options: .init(fileMode: fileMode))
            }
            #expect(error?.code == .invalidArgument)
            #expect(
                error?.message
                    == "fileMode \(ChangeLog.Options.octal(fileMode)) is not a log's file mode: it must include the "
                    + "owner's read and write (0600) and hold only read and write bits (at most 0666)")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}
