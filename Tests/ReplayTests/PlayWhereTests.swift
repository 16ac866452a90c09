import Foundation
import Testing

/// `replay play --where` on the fixture history of `Tests/Viewer/fixtures/life-history.jsonl`,
/// whose revisions alternate between `job=app` (1, 3, 5, 7) and `job=sync job` (2, 4, 6) and whose
/// item with a tricky id moves across sections and changes summary in one revision, goes with a
/// deleted section and comes back: the renderer gets the first matching revision's list, then the
/// changes `diff --log` computes from each matching revision to the next.
@Suite("replay play --where")
struct PlayWhereTests {
    /// `line` as a JSON object.
    static func object(_ line: some StringProtocol) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
    }

    @Test("jsonl gets the first matching revision whole, then the changes diff --log prints between matches")
    func jsonLines() async throws {
        let history = try await ViewerBrowserTests.trickyHistory()
        defer { history.directory.remove() }
        for (arguments, revisions) in [
            (["--where", "job=sync job"], [2, 4, 6]), (["--where", "job~a", "--where", "step~"], [1, 3, 5, 7]),
            (["--from", "3", "--to", "6", "--where", "job=sync job"], [4, 6]),
        ] {
            let played = try await ToolRunner.run(["play", "--log", history.log, "--into", "jsonl"] + arguments)
            #expect(played.status == 0, "\(played)")
            let lines = played.stdout.split(separator: "\n")
            #expect(lines.count == revisions.count, "\(arguments): \(played.stdout)")
            guard lines.count == revisions.count else { continue }
            let first = try Self.object(lines[0])
            #expect(first["revision"] as? Int == revisions[0])
            let stored = try Self.object(history.lines[revisions[0] - 1])
            #expect(first["reload"] as? NSDictionary == stored["snapshot"] as? NSDictionary, "\(arguments)")
            for (line, (old, new)) in zip(lines.dropFirst(), zip(revisions, revisions.dropFirst())) {
                let diff = try await ToolRunner.run(["diff", "--log", history.log, String(old), String(new)])
                #expect(diff.status == 0, "\(diff)")
                let batch = try Self.object(line)
                #expect(batch["revision"] as? Int == new)
                #expect(batch["changes"] as? NSDictionary == (try Self.object(diff.stdout)), "\(arguments) \(new)")
            }
        }
    }

    @Test("the strict renderer checks every batch between matching revisions, staged and as one batch")
    func strict() async throws {
        let history = try await ViewerBrowserTests.trickyHistory()
        defer { history.directory.remove() }
        let sync = try await ToolRunner.run(["play", "--log", history.log, "--where", "job=sync job"])
        #expect(sync.status == 0, "\(sync)")
        #expect(
            sync.stdout
                == "replayed the 3 revisions from 1 to 7 that satisfy --where into the strict renderer: "
                + "2 batches accepted\n")
        let app = try await ToolRunner.run(["play", "--log", history.log, "--where", "job=app", "--one-batch"])
        #expect(app.status == 0, "\(app)")
        #expect(
            app.stdout
                == "replayed the 4 revisions from 1 to 7 that satisfy --where into the strict renderer, one batch each: "
                + "3 batches accepted\n")
        let one = try await ToolRunner.run(["play", "--log", history.log, "--where", "step=5"])
        #expect(one.status == 0, "\(one)")
        #expect(
            one.stdout
                == "replayed the 1 revision from 1 to 7 that satisfy --where into the strict renderer: "
                + "0 batches accepted\n")
    }

    @Test("text prints each matching revision, the last one's list equal to its stored snapshot")
    func text() async throws {
        let history = try await ViewerBrowserTests.trickyHistory()
        defer { history.directory.remove() }
        let played = try await ToolRunner.run(["play", "--log", history.log, "--into", "text", "--where", "job~sync"])
        #expect(played.status == 0, "\(played)")
        let headers = played.stdout.split(separator: "\n").filter { $0.hasPrefix("revision ") }
        #expect(headers.map { $0.prefix(while: { $0 != ":" }) } == ["revision 2", "revision 4", "revision 6"])
        #expect(headers.first?.contains("reload") == true)
        let plain = try await ToolRunner.run([
            "play", "--log", history.log, "--into", "text", "--from", "5", "--to", "6",
        ])
        // The list printed for revision 6 is the same, reached from revision 4 or from revision 5.
        let lastList = { (output: String) in
            output.components(separatedBy: "revision 6: ").last?.split(separator: "\n").dropFirst().map { line in
                line.replacingOccurrences(of: "*", with: " ")
            }
        }
        #expect(lastList(played.stdout) == lastList(plain.stdout), "\(played.stdout)\n\(plain.stdout)")
    }

    @Test("no matching revision, or a condition without = or ~, is refused naming it")
    func refused() async throws {
        let history = try await ViewerBrowserTests.trickyHistory()
        defer { history.directory.remove() }
        let none = try await ToolRunner.run(["play", "--log", history.log, "--where", "job=nobody's job"])
        #expect(none.status == 2, "\(none)")
        #expect(
            none.stderr.hasPrefix("replay: no revision of ")
                && none.stderr.hasSuffix(" from 1 to 7 satisfies --where 'job=nobody'\\''s job'\n"), "\(none)")
        #expect(none.stdout.isEmpty)
        let bad = try await ToolRunner.run(["play", "--log", history.log, "--where", "job"])
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderr.contains("--where: the condition 'job' has neither '=' nor '~'"), "\(bad)")
    }
}
