import Foundation
import Testing

@testable import replay

/// The progress line's wording; whether it is shown at all depends on standard error being a
/// terminal, which it never is under the tests.
@Suite("progress lines")
struct ProgressFormatTests {
    @Test("a phase, a total in lines with the percentage, and a rate once a second has passed")
    func linesWithTotal() {
        #expect(
            Progress.describe(
                label: "importing", phase: "checking", done: 12_000, total: 50_000, unit: .items("lines"), elapsed: 1.5)
                == "importing, checking: 12000 of 50000 lines (24%), 8000 lines/s")
        #expect(
            Progress.describe(
                label: "importing", phase: "appending", done: 50_000, total: 50_000, unit: .items("lines"),
                elapsed: 0.5) == "importing, appending: 50000 of 50000 lines (100%)")
    }

    @Test("bytes are shown in megabytes, with a tenth")
    func bytes() {
        #expect(
            Progress.describe(
                label: "importing", phase: "appending", done: 125_000_000, total: 500_000_000, unit: .bytes,
                elapsed: 2) == "importing, appending: 125.0 of 500.0 MB (25%), 62.5 MB/s")
    }

    @Test("without a known total or a phase, the steps done alone")
    func noTotal() {
        #expect(
            Progress.describe(label: "reading revisions", phase: nil, done: 7, total: nil, unit: .items(""), elapsed: 0)
                == "reading revisions: 7")
        #expect(
            Progress.describe(label: "importing", phase: "checking", done: 3, total: 0, unit: .bytes, elapsed: 0)
                == "importing, checking: 0.0 MB")
    }

    @Test("progress is off when standard error is not a terminal")
    func offWithoutTerminal() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("history.jsonl", Fixtures.history)
        for options in [[], ["--commit-every", "1"]] {
            let result = try await ToolRunner.run(
                ["import", file, "--log", directory.path("app\(options.count).lmdb")] + options)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr == "", "\(result)")
        }
    }

    @Test(
        "an import on a terminal shows its phases, its total and what it appended",
        .enabled(if: ToolRunner.canRunOnTerminal, ToolRunner.terminalRequirement), arguments: [nil, "2"])
    func importOnTerminal(commitEvery: String?) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("history.jsonl", Fixtures.history)
        // `script` gives the tool a terminal; its output is what the terminal showed.
        let options = commitEvery.map { ["--commit-every", String($0)] } ?? []
        let shown = try await ToolRunner.runOnTerminal(["import", file, "--log", directory.path("app.lmdb")] + options)
        let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
        #expect(size > 0 && size < 100_000)
        if commitEvery == nil {
            #expect(shown.contains("\rimporting, checking: 3 of 3 lines (100%)"), "\(shown)")
            #expect(shown.contains("\rimporting, appending: 0 of 3 lines (0%)"), "\(shown)")
        } else {
            #expect(shown.contains("\rimporting, checking: 0.0 of 0.0 MB (0%)"), "\(shown)")
        }
        #expect(shown.hasSuffix("appended revisions 1 to 3 (3) to \(directory.path("app.lmdb"))\r\n"), "\(shown)")
    }
}
