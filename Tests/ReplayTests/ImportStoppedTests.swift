import ChangeLog
import Foundation
import Testing

/// Imports that stop while appending: what they say they appended must be what the log holds,
/// and they must say where to resume, since retrying the whole input appends its prefix twice.
@Suite("replay import, stopped while appending")
struct ImportStoppedTests {
    /// `count` snapshot lines of `items` items each, no item shared between lines, so that
    /// every revision stores new chunks and the log grows by about the same bytes per line.
    static func distinctLines(_ count: Int, items: Int) -> String {
        (1...count).map { line in
            let list = (1...items).map { #"{"id": "line-\#(line)-item-\#($0)", "summary": "summary \#($0)"}"# }
            return #"{"sections": [{"title": "S", "items": [\#(list.joined(separator: ", "))]}]}"#
        }.joined(separator: "\n") + "\n"
    }

    @Test("an append refused midway (the file-size limit) names the revisions kept and the line to resume from")
    func appendFailsMidway() throws {
        let prlimit = "/usr/bin/prlimit"
        try #require(FileManager.default.isExecutableFile(atPath: prlimit), "prlimit (util-linux) sets the limit")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("limited.lmdb")
        let file = try directory.write("big.jsonl", Self.distinctLines(60, items: 200))
        let result = try ToolRunner.run(
            ["import", file, "--log", log, "--commit-every", "2"],
            launcher: [prlimit, "--fsize=\(256 << 10)", ToolRunner.binary.path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout == "")
        let kept = try ChangeLog(path: log, options: .init(createIfMissing: false, readOnly: true)).latestRevision
        try #require(kept >= 2 && kept < 60, "the limit must stop the import after some transactions: \(result)")
        let next = kept + 1
        #expect(result.stderr.hasPrefix("replay: \(file): appending line \(next) and the lines after it failed: "))
        #expect(
            result.stderr.hasSuffix(
                "; revisions 1 to \(kept) (\(kept)), from the lines before line \(next), were appended to \(log) and "
                    + "stay there (to finish, import \(file) from line \(next) on)\n"), "\(result)")
        #expect(try ToolRunner.run(["verify", "--log", log]).status == 0)
    }

    @Test("an append refused in the import's one transaction says that nothing was appended")
    func oneTransactionFails() throws {
        let prlimit = "/usr/bin/prlimit"
        try #require(FileManager.default.isExecutableFile(atPath: prlimit), "prlimit (util-linux) sets the limit")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("limited.lmdb")
        let result = try ToolRunner.run(
            ["import", "-", "--log", log], input: Self.distinctLines(60, items: 200),
            launcher: [prlimit, "--fsize=\(256 << 10)", ToolRunner.binary.path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("replay: standard input: appending line 1 and the lines after it failed: "))
        #expect(result.stderr.hasSuffix("; nothing was appended\n"), "\(result)")
        #expect(try ChangeLog(path: log, options: .init(createIfMissing: false, readOnly: true)).latestRevision == 0)
    }
}
