import Foundation
import Testing

/// What an import holds in memory: proportional to its input's bytes, never to its number of
/// lines (the help says 3 to 8 times the input).
@Suite("replay import's memory")
struct ImportMemoryTests {
    /// 32 MB of line feeds are 32 million lines: kept as 24-byte entries they were 768 MB before
    /// the first snapshot was read (100 MB took 3.3 GB). The limit is on the process's private
    /// writable memory (`RLIMIT_DATA`, set by util-linux's `prlimit`), which the log's file
    /// mapping does not count.
    @Test("32 MB of blank lines import within 512 MiB of private memory")
    func blankLines() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var input = Data(repeating: UInt8(ascii: "\n"), count: 32 << 20)
        input.append(Data(Fixtures.history.utf8))
        let file = directory.url.appendingPathComponent("blank.jsonl")
        try input.write(to: file)
        let prlimit = "/usr/bin/prlimit"
        try #require(FileManager.default.isExecutableFile(atPath: prlimit), "prlimit (util-linux) sets the limit")
        let result = try await ToolRunner.run(
            ["import", file.path, "--log", directory.path("app.lmdb")],
            launcher: [prlimit, "--data=\(512 << 20)", ToolRunner.binary.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("appended revisions 1 to 3 (3) to "), "\(result)")
    }
}
