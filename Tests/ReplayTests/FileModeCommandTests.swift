import Foundation
import Testing

/// `replay import` creates a private log (files 0600 in a 0700 directory) whatever the umask;
/// `--mode` gives group or world access when asked, and a bad mode is a usage error.
@Suite("replay import --mode")
struct FileModeCommandTests {
    /// Runs the tool under `umask`, through the shell.
    static func run(_ arguments: [String], umask: String) async throws -> ToolRunner.Result {
        try await ToolRunner.run(
            arguments, input: Fixtures.history,
            launcher: ["/bin/sh", "-c", "umask \(umask) && exec \"$0\" \"$@\"", ToolRunner.binary.path])
    }

    static func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o7777
    }

    @Test(
        "a new log gets exactly the bits asked for, whatever the umask",
        arguments: [
            ([String](), "000", 0o700, 0o600, 0o600), (["--mode", "0640"], "077", 0o750, 0o640, 0o660),
            (["--mode", "664"], "022", 0o775, 0o664, 0o666), (["--mode", "0666"], "000", 0o775, 0o666, 0o666),
        ])
    func modes(arguments: [String], umask: String, directoryMode: Int, dataMode: Int, lockMode: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let result = try await Self.run(["import", "-", "--log", log] + arguments, umask: umask)
        #expect(result.status == 0, "\(result)")
        #expect(try Self.mode(of: log) == directoryMode)
        #expect(try Self.mode(of: log + "/data.mdb") == dataMode)
        #expect(try Self.mode(of: log + "/lock.mdb") == lockMode)
    }

    @Test(
        "a mode that is not octal, or not a log's, is a usage error and creates nothing",
        arguments: [
            ("64O", "is not an octal file mode such as 0600 or 0640"),
            ("0o640", "is not an octal file mode such as 0600 or 0640"),
            ("60", "is not an octal file mode such as 0600 or 0640"),
            ("00640", "is not an octal file mode such as 0600 or 0640"),
            ("0400", "cannot be a log's mode"), ("0700", "cannot be a log's mode"), ("4600", "cannot be a log's mode"),
        ])
    func badModes(mode: String, complaint: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let result = try await ToolRunner.run(["import", "-", "--log", log, "--mode", mode], input: Fixtures.history)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--mode \(mode) \(complaint)"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: log))
    }

    @Test("an existing log keeps its bits when imported into with another --mode")
    func existingLog() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.history).status == 0)
        let again = try await ToolRunner.run(["import", "-", "--log", log, "--mode", "0666"], input: Fixtures.history)
        #expect(again.status == 0, "\(again)")
        #expect(try Self.mode(of: log + "/data.mdb") == 0o600)
    }
}
