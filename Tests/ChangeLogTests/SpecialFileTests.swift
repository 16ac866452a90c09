import CLMDB
import ChangeLogTestSupport
import Foundation
import Testing

@testable import ChangeLog

/// A FIFO, a device or a socket in place of a log's files or of the log itself: opening must
/// refuse it with an error naming the file, never hang (a FIFO opened for reading waits for a
/// writer forever) or crash. A hang shows as a test run that never ends.
@Suite("Special files in place of a log's files")
struct SpecialFileTests {
    @Test(
        "a special data.mdb or lock.mdb is refused, naming the file, for every way of opening",
        arguments: SpecialFileKind.allCases, ["data.mdb", "lock.mdb"])
    func specialEnvironmentFile(kind: SpecialFileKind, name: String) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/app.lmdb"
            do {
                let log = try ChangeLog(path: path)
                _ = try await log.append(try makeSnapshot(sections: 1, itemsPerSection: 2))
            }
            try FileManager.default.removeItem(atPath: path + "/" + name)
            try kind.make(at: path + "/" + name)
            for options in [
                ChangeLog.Options(readOnly: true), ChangeLog.Options(createIfMissing: false), ChangeLog.Options(),
            ] {
                let error = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path, options: options) }
                #expect(error?.code == .cannotOpen)
                #expect(error?.path == path)
                #expect(
                    error?.message
                        == "cannot open the log at \(path): its \(name) is \(kind.phrase), not a regular file as a "
                        + "log's files are; remove it, or pass the directory of a log")
            }
        }
    }

    @Test("a special data.mdb in a directory holding nothing else is refused, and not replaced by a new log")
    func specialDataFileAlone() throws {
        try withTemporaryDirectory { directory in
            for kind in SpecialFileKind.allCases {
                let path = directory + "/\(kind)"
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                try kind.make(at: path + "/data.mdb")
                for options in [ChangeLog.Options(readOnly: true), ChangeLog.Options()] {
                    let error = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path, options: options) }
                    #expect(
                        error?.message.contains("its data.mdb is \(kind.phrase)") == true,
                        "\(String(describing: error))")
                }
                #expect(SpecialFile.kind(ofFileAt: path + "/data.mdb") != nil)
                #expect(!FileManager.default.fileExists(atPath: path + "/lock.mdb"))
            }
        }
    }

    @Test("a special file as the log's path is named for what it is", arguments: SpecialFileKind.allCases)
    func specialLogPath(kind: SpecialFileKind) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/app.lmdb"
            try kind.make(at: path)
            for options in [ChangeLog.Options(readOnly: true), ChangeLog.Options()] {
                let error = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path, options: options) }
                #expect(error?.code == .cannotOpen)
                #expect(error?.message == "\(path) is \(kind.phrase); a log is a directory: pass the directory's path")
            }
        }
    }

    @Test("the LMDB layer refuses a FIFO before LMDB opens it, with ENODEV")
    func environmentLevel() throws {
        try withTemporaryDirectory { path in
            try SpecialFileKind.fifo.make(at: path + "/data.mdb")
            #expect(SpecialFile.first(inDirectory: path) == SpecialFile(name: "data.mdb", kind: .fifo))
            let error = #expect(throws: LMDBError.self) {
                _ = try LMDBEnvironment.open(
                    directory: path, configuration: .init(flags: UInt32(MDB_RDONLY)))
            }
            #expect(error?.code == ENODEV)
        }
    }
}
