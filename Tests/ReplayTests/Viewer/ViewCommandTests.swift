import Foundation
import Testing

@Suite("replay view")
struct ViewCommandTests {
    @Test("view writes one HTML file holding the viewer and the range's revision lines, and the one before")
    func writesFile() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let file = directory.path("view.html")
        let result = try await ToolRunner.run(["view", "--log", log, "--from", "2", "--out", file])
        #expect(result.status == 0, "\(result)")
        #expect(maskingTimes(result.stdout).hasPrefix("wrote \(file): revisions 2 to 3 (2 revisions, "), "\(result)")
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains(#"id="embedded-revisions" data-from="2" data-to="3">"#))
        let export = try await ToolRunner.run(["export", "--log", log]).stdout.split(separator: "\n")
        for line in export { #expect(html.contains(line), "revision line missing: \(line)") }
        // Nothing is left beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [
                "app.lmdb", "view.html",
            ])
    }

    @Test("view --where writes its conditions as the filter the page opens with, escaped for HTML")
    func whereFilter() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let file = directory.path("view.html")
        let result = try await ToolRunner.run([
            "view", "--log", log, "--where", #"note~say "<hi>" & go"#, "--where", "job=sync", "--out", file,
        ])
        #expect(result.status == 0, "\(result)")
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            html.contains(
                #"data-from="1" data-to="3" data-where="&quot;note~say \&quot;&lt;hi&gt;\&quot; &amp; go&quot; job=sync">"#
            ),
            "\(html.prefix(300))")
        let bad = try await ToolRunner.run(["view", "--log", log, "--where", "=x", "--out", file, "--force"])
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderr.contains("--where: the condition '=x' has no key before '='"), "\(bad)")
    }

    @Test("view does not replace an existing file without --force, and replaces it with --force")
    func existingFile() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let file = try directory.write("kept.html", "mine\n")
        let refused = try await ToolRunner.run(["view", "--log", log, "--out", file])
        #expect(refused.status == 2)
        #expect(refused.stderr == "replay: \(file) exists; pass --force to replace it\n", "\(refused)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "mine\n")
        let forced = try await ToolRunner.run(["view", "--log", log, "--out", file, "--force"])
        #expect(forced.status == 0, "\(forced)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
    }

    @Test("view refuses bad ranges, an empty log, a missing log and a directory it cannot write, and writes nothing")
    func refusals() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let file = directory.path("out.html")
        let cases: [([String], Int32, String)] = [
            (["--from", "3", "--to", "2"], 64, "Error: --from 3 is after --to 2"),
            (["--from", "0"], 64, "Error: revisions count from 1"),
            (["--to", "9"], 2, "replay: revision 9 is out of range: the log at \(log) holds revisions 1 to 3"),
        ]
        for (arguments, status, message) in cases {
            let result = try await ToolRunner.run(["view", "--log", log, "--out", file] + arguments)
            #expect(result.status == status, "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result)")
        }
        let empty = directory.path("empty.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", empty], input: "\n").status == 0)
        let onEmpty = try await ToolRunner.run(["view", "--log", empty, "--out", file])
        #expect(onEmpty.status == 2)
        #expect(onEmpty.stderr.hasSuffix("is empty: there is no revision to view\n"), "\(onEmpty)")
        let missing = try await ToolRunner.run(["view", "--log", directory.path("none.lmdb"), "--out", file])
        #expect(missing.status == 2, "\(missing)")
        let nowhere = try await ToolRunner.run(["view", "--log", log, "--out", directory.path("no/such/dir/out.html")])
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr.contains("cannot write a file in"), "\(nowhere)")
        let noOut = try await ToolRunner.run(["view", "--log", log])
        #expect(noOut.status == 64)
        #expect(!FileManager.default.fileExists(atPath: file))
    }
}
