import Foundation
import Testing

/// A line whose `meta` holds several bad values names the first of them in line order, the
/// same in every run: the reader checks `meta` in one pass over the text, never in the order of
/// a dictionary, whose iteration order changes from process to process (Swift seeds its hashes
/// per process).
@Suite("Deterministic meta errors")
struct DeterministicMetaErrorTests {
    /// Keys in an order that is neither sorted nor any one process's hash order, each with a
    /// value that is no string; the first is `q7`.
    static let keys = ["q7", "a", "zz", "m1", "b2", "k", "c", "y9", "d0", "x", "e", "w", "f5", "v", "g", "u", "h"]
    static let meta = "{" + keys.enumerated().map { #""\#($1)": \#($0)"# }.joined(separator: ", ") + "}"

    @Test("import names the first bad meta key in line order, in every run")
    func importNamesFirstKey() async throws {
        let line = #"{"meta": \#(Self.meta), "sections": []}"# + "\n"
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        for _ in 0..<6 {
            let result = try await ToolRunner.run(["import", "-", "--log", log], input: line)
            #expect(result.status == 2)
            #expect(
                result.stderr
                    == "replay: standard input, line 1, column 17, meta.q7: expected a string, found 0; "
                    + "nothing was appended\n")
        }
        // A revision line's meta, and a streaming import's, the same way.
        let revision = #"{"revision": 4, "meta": \#(Self.meta), "snapshot": {"sections": []}}"# + "\n"
        for arguments in [["import", "-", "--log", log], ["import", "-", "--log", log, "--commit-every", "1"]] {
            for _ in 0..<3 {
                let result = try await ToolRunner.run(arguments, input: revision)
                #expect(result.status == 2)
                #expect(
                    result.stderr.hasPrefix(
                        "replay: standard input, line 1, column 32, meta.q7: expected a string, found 0"))
            }
        }
    }

    @Test("diff names the first bad meta key of a snapshot file in line order, in every run")
    func diffNamesFirstKey() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = try directory.write("good.json", #"{"sections": []}"#)
        let bad = try directory.write("bad.json", #"{"sections": [], "meta": \#(Self.meta)}"#)
        for _ in 0..<6 {
            let result = try await ToolRunner.run(["diff", good, bad])
            #expect(result.status == 2)
            #expect(result.stderr == "replay: \(bad): column 33, meta.q7: expected a string, found 0\n")
        }
    }
}
