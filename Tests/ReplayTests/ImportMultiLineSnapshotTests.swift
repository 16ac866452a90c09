import Foundation
import Testing

/// A snapshot file spread over several lines (pretty-printed) given to `replay import`.
@Suite("replay import, a snapshot spread over lines")
struct ImportMultiLineSnapshotTests {
    static let hint =
        " (each snapshot must be on one line, as JSON Lines: this line opens an object it does not close, as the "
        + "first line of a snapshot spread over several lines, pretty-printed, does); nothing was appended\n"

    @Test(
        "a first line that opens an object and does not close it gets the hint that a snapshot is one line",
        arguments: [
            ("{\n  \"sections\": []\n}\n", "line 1, column 2: not valid JSON: unexpected end of text, expected a key"),
            (
                "{\"sections\": [\n{\"title\": \"A }\", \"items\": []}]}\n",
                "line 1, column 15, sections[0]: not valid JSON: unexpected end of text, expected a value"
            ),
        ])
    func hinted(input: String, problem: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("pretty.json", input)
        for options in [[], ["--commit-every", "1"]] {
            let result = try await ToolRunner.run(["import", file, "--log", directory.path("app.lmdb")] + options)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr == "replay: \(file), \(problem)\(Self.hint)", "\(result)")
        }
    }

    @Test(
        "other bad lines get no hint: a later line, a closed object, an array, a line alone",
        arguments: [
            "{\"sections\": []}\n{\n", "{\"sections\": []}}\n{}\n", "[\n{}\n", "{\"sections\": 7, \"x\": \"{[\"}\n{}\n",
            "{\"sections\": [\n",
        ])
    func notHinted(input: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for options in [[], ["--commit-every", "1"]] {
            let result = try await ToolRunner.run(
                ["import", "-", "--log", directory.path("app.lmdb")] + options, input: input)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.hasPrefix("replay: standard input, line "), "\(result)")
            #expect(!result.stderr.contains("one line"), "\(result)")
        }
    }
}
