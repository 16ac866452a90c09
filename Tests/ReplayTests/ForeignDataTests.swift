import ChangeLog
import Foundation
import Testing

/// The tool pointed at data that is not a log: another application's LMDB environment, which it
/// must leave as it is, and an empty log, which every reading command reads as empty.
@Suite("replay on foreign data and empty logs")
struct ForeignDataTests {
    /// An LMDB environment of another application in `directory`: one named database holding
    /// one key, written through the library's LMDB layer and released before the tool runs.
    static func makeForeignEnvironment(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("other-app")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        do {
            let environment = try LMDBEnvironment.open(directory: path, configuration: .init(mapSize: 1 << 20))
            try environment.write { transaction throws in
                let settings = try transaction.openDatabase(named: "settings", create: true)
                try transaction.put(Array("theme".utf8), forKey: Array("dark".utf8), in: settings)
            }
        }
        return path
    }

    @Test(
        "commands refuse another application's LMDB environment and leave its data.mdb as it was",
        arguments: [
            ["stats"], ["verify"], ["log"], ["export"], ["tail"], ["show", "1"], ["play", "--into", "text"],
            ["import", "-"], ["demo", "--revisions", "5"],
        ])
    func foreignEnvironment(command: [String]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.makeForeignEnvironment(in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb"))
        let result = try await ToolRunner.run(command + ["--log", path], input: Fixtures.history)
        #expect(result.status == 2, "\(command): \(result)")
        #expect(result.stderr.contains("holds an LMDB environment that is not a replay log"), "\(command): \(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb")) == before, "\(command)")
    }

    @Test(
        "reading commands on an empty log print nothing and succeed",
        arguments: [["log"], ["export"], ["tail"], ["play", "--into", "jsonl"]])
    func emptyLog(command: [String]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("empty.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: "").status == 0)
        let result = try await ToolRunner.run(command + ["--log", log])
        #expect(result.status == 0, "\(command): \(result)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(command): \(result)")
    }
}
