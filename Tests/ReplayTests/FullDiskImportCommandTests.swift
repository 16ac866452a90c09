import ChangeLogTestSupport
import Foundation
import Testing

/// `replay import` into a log whose file system fills up: LMDB reports the short write as an
/// input/output error; the tool's line says the file system is full.
///
/// Each test mounts a small `tmpfs` (``SmallFileSystem``), which takes root on Linux; CI runs
/// the tests as root. Elsewhere the suite is skipped, and shows as skipped.
@Suite(
    "replay import on a file system that fills up",
    .enabled(if: SmallFileSystem.canMount, "mounting a tmpfs takes root (CAP_SYS_ADMIN) on Linux"))
struct FullDiskImportCommandTests {
    @Test("an import that fills the file system exits 2 with one line saying it is full")
    func importFillingTheDisk() async throws {
        try await withSmallFileSystem(bytes: 1 << 20, filled: false) { fileSystem in
            let log = fileSystem.path + "/app.lmdb"
            #expect(try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.history).status == 0)
            try fileSystem.fill()
            let lines = (1...300).map { line in
                let items = (1...60).map { #"{"id": "item-\#(line)-\#($0)", "summary": "line \#(line), item \#($0)"}"# }
                return #"{"sections": [{"title": "All", "items": [\#(items.joined(separator: ", "))]}]}"#
            }
            let result = try await ToolRunner.run(
                ["import", "-", "--log", log, "--commit-every", "10"], input: lines.joined(separator: "\n") + "\n")
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("the file system is full; free some space, then retry"), "\(result)")
            #expect(!result.stderr.contains("Input/output error"), "\(result)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result)")
        }
    }
}
