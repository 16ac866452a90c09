import ChangeLogTestSupport
import Foundation
import Testing

/// A FIFO, a device or a socket where a log's `data.mdb` or `lock.mdb` is, or as the `--log`
/// path itself: every reading command exits 2 with one line naming the file. Left to LMDB's
/// `open`, a FIFO named `data.mdb` would hang them forever; a hang shows as a run that never ends.
@Suite("replay on special files")
struct SpecialFileCommandTests {
    static let readingCommands = [["verify"], ["export"], ["show", "1"], ["stats"], ["log"]]

    @Test(
        "every reading command exits 2 naming a special data.mdb or lock.mdb",
        arguments: SpecialFileKind.allCases, ["data.mdb", "lock.mdb"])
    func specialEnvironmentFile(kind: SpecialFileKind, name: String) async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        try FileManager.default.removeItem(atPath: log + "/" + name)
        try kind.make(at: log + "/" + name)
        for command in Self.readingCommands + [["import", "-"]] {
            let result = try await ToolRunner.run(command + ["--log", log], input: Fixtures.history)
            #expect(result.status == 2, "\(command): \(result)")
            #expect(result.stdout.isEmpty, "\(command): \(result)")
            #expect(
                result.stderr
                    == "replay: cannot open the log at \(log): its \(name) is \(kind.phrase), not a regular file as a "
                    + "log's files are; remove it, or pass the directory of a log\n",
                "\(command)")
        }
    }

    @Test("every reading command exits 2 when --log names a special file", arguments: SpecialFileKind.allCases)
    func specialLogPath(kind: SpecialFileKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        try kind.make(at: log)
        for command in Self.readingCommands {
            let result = try await ToolRunner.run(command + ["--log", log])
            #expect(result.status == 2, "\(command): \(result)")
            #expect(
                result.stderr == "replay: \(log) is \(kind.phrase); a log is a directory: pass the directory's path\n",
                "\(command): \(result)")
        }
    }
}
