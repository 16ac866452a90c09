import ChangeLog
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

/// verify and replay: exit 0 on a good log, exit 1 naming the first failing revision.
@Suite("replay verify and replay play")
struct CheckingCommandTests {
    @Test("verify passes on a good log")
    func verifyGood() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["verify", "--log", log])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "verified revisions 1 to 3 (3): ok\n")
        #expect(result.stderr == "")
    }

    @Test("verify names the revision whose stored record was changed behind the log's back")
    func verifyTampered() async throws {
        let (directory, log) = try await Tampering.damagedLog(revisions: 6, damaged: 4)
        defer { directory.remove() }
        let result = try await ToolRunner.run(["verify", "--log", log])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("replay: verification failed: revision 4"), "\(result.stderr)")
        // Revisions before the damage still verify.
        #expect(try await ToolRunner.run(["verify", "--log", log, "--to", "3"]).status == 0)
    }

    @Test(
        "replay stops at the revision whose stored record was changed, with exit status 1 as verify",
        arguments: ["strict", "text", "jsonl"])
    func replayTampered(renderer: String) async throws {
        let (directory, log) = try await Tampering.damagedLog(revisions: 6, damaged: 4)
        defer { directory.remove() }
        let result = try await ToolRunner.run(["play", "--log", log, "--into", renderer])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.hasPrefix("replay: replay stopped: the record of revision 4"), "\(result.stderr)")
        #expect(try await ToolRunner.run(["play", "--log", log, "--into", renderer, "--to", "3"]).status == 0)
    }

    /// `stats` trapped on the range 524289...6, `verify` and `log` called every revision
    /// "out of range", and `tail --from 1` said revision 1 was dropped by retention.
    @Test("a damaged first revision key is reported as damage by every reading command, without a crash")
    func damagedFirstKey() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.growing(6)).status == 0)
        #expect(try FileDamage.renumberFirstRevisionKey(ofLogAt: log, to: 524_289) >= 1)
        let damage =
            "the first revision key of the log at \(log) reads 524289, and the latest revision is 6: a key was damaged"
        let verify = try await ToolRunner.run(["verify", "--log", log])
        #expect(verify.status == 1, "\(verify)")
        #expect(verify.stderr.hasPrefix("replay: verification failed: " + damage), "\(verify.stderr)")
        for command in [["stats"], ["log"], ["export"], ["show", "1"], ["tail", "--from", "1"]] {
            let result = try await ToolRunner.run(command + ["--log", log])
            #expect(result.status == 2, "\(command): \(result)")
            #expect(result.stderr.hasPrefix("replay: " + damage), "\(command): \(result.stderr)")
        }
    }

    /// LMDB would read such a value past the file's end (`SIGBUS`): the walk of the log's pages
    /// at open refuses it first (`ChangeLog.Options.untrusted`); the library's reads of a log
    /// opened without the walk refuse it when it is lent (`MappedFileBoundsTests`).
    @Test("a record whose stored size reaches past the data file is refused at open, naming its node, once")
    func recordPastTheFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.growing(6)).status == 0)
        #expect(try FileDamage.inflateRecordSize(ofRevision: 4, ofLogAt: log) >= 1)
        for command in [["show", "4"], ["verify"], ["export"], ["stats"]] {
            let result = try await ToolRunner.run(command + ["--log", log])
            #expect(result.status == 2, "\(command): \(result)")
            #expect(
                result.stderr.hasPrefix("replay: cannot open the log at \(log): its data file is damaged (node "),
                "\(command): \(result.stderr)")
            #expect(result.stderr.contains(" of the database \"revisions\" holds "), "\(command): \(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(command): \(result.stderr)")
        }
    }

    @Test("export of a damaged log writes every revision before the damage, then names it")
    func exportStopsAtDamage() async throws {
        let (directory, log) = try await Tampering.damagedLog(revisions: 6, damaged: 4)
        defer { directory.remove() }
        for command in ["export", "log"] {
            let result = try await ToolRunner.run([command, "--log", log])
            #expect(result.status == 2, "\(command): \(result)")
            #expect(result.stderr.contains("revision 4"), "\(command): \(result.stderr)")
            if command == "export" {
                let revisions = try result.stdout.split(separator: "\n").map {
                    try RevisionRecord(jsonLine: $0.utf8).revision
                }
                #expect(revisions == [1, 2, 3])
            }
        }
    }

    /// A log whose revision 2 stores changes that do not take revision 1 to revision 2.
    static func logWithBadBatch(in directory: TemporaryDirectory) async throws -> String {
        let path = directory.path("bad.lmdb")
        let log = try ChangeLog(path: path)
        let first = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "a"), .init(id: "b")])])
        _ = try await log.append(first)
        let second = try LogSnapshot(sections: [.init(title: "A", items: [.init(id: "a")])])
        // Deletes a row that does not exist instead of [0, 1].
        let wrong = LogChanges(deletedItems: [ItemPath(section: 0, item: 5)])
        _ = try await log.append(second, changes: wrong)
        _ = try await log.append(try LogSnapshot(sections: []))
        return path
    }

    @Test("verify and replay --into strict name the revision of an invalid batch")
    func invalidBatch() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try await Self.logWithBadBatch(in: directory)
        let verify = try await ToolRunner.run(["verify", "--log", log])
        #expect(verify.status == 1)
        #expect(verify.stderr.hasPrefix("replay: verification failed: revision 2"), "\(verify.stderr)")
        let replay = try await ToolRunner.run(["play", "--log", log, "--into", "strict"])
        #expect(replay.status == 1)
        #expect(replay.stdout == "")
        #expect(replay.stderr.hasPrefix("replay: replay refused: revision 2"), "\(replay.stderr)")
        #expect(replay.stderr.contains("attempt to delete row 5 from section 0 which only contains 2 rows"))
    }

    @Test("replay --into strict accepts a good history")
    func replayStrict() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["play", "--log", log])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "replayed revisions 1 to 3 into the strict renderer: 3 batches accepted\n")
    }

    @Test("replay --into text prints the list as it evolves, changed rows marked")
    func replayText() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["play", "--log", log, "--into", "text", "--from", "2"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == """
                revision 1: reload: 1 sections, 2 items
                  [0] Today
                      a  hi
                      b
                revision 2: batch: sections +1 -0 ~0 *0  items +0 -0 ~1 *1
                  [0] Today
                    * b
                    * a  hi!
                  [1] Old
                      c
                revision 3: batch: sections +0 -1 ~0 *0  items +1 -0 ~0 *0
                  [0] Old
                      c
                    * b

                """)
    }

    @Test("replay --into jsonl writes one object per reload or batch")
    func replayJSONLines() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["play", "--log", log, "--into", "jsonl", "--from", "3"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == """
                {"revision":2,"reload":{"sections":[{"title":"Today","items":[{"id":"b"},{"id":"a","summary":"hi!"}]},{"title":"Old","items":[{"id":"c"}]}]}}
                {"revision":3,"changes":{"sections":{"deleted":[0],"inserted":[],"moved":[],"updated":[]},"items":{"deleted":[],"inserted":[{"at":[0,1],"id":"b"}],"moved":[],"updated":[]}}}

                """)
    }

    @Test("replay rejects an unknown renderer")
    func unknownRenderer() async throws {
        let result = try await ToolRunner.run(["play", "--into", "html"])
        #expect(result.status == 64)
    }

    @Test("the README's crash-report recipe: exported revisions become a failing test")
    func crashReportRecipe() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try await Self.logWithBadBatch(in: directory)
        let export = try await ToolRunner.run(["export", "--log", log, "--from", "1", "--to", "2"])
        #expect(export.status == 0)
        let records = try export.stdout.split(separator: "\n").map {
            try RevisionRecord(jsonLine: $0.utf8)
        }
        var tableView = StrictListView<String, String, String>()
        tableView.reloadData(records[0].snapshot)
        let error = #expect(throws: BatchUpdateError.self) {
            for record in records.dropFirst() {
                try tableView.performBatchUpdatesDeferringReconfigures(record.changes, resultingIn: record.snapshot)
            }
        }
        #expect(
            error?.description.contains("attempt to delete row 5 from section 0 which only contains 2 rows") == true)
    }

    @Test("long work shows no progress through a pipe")
    func noProgressThroughPipe() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        let piped = try await ToolRunner.run(["verify", "--log", log])
        #expect(piped.stderr == "")
    }

    @Test(
        "long work shows progress on a terminal",
        .enabled(if: ToolRunner.canRunOnTerminal, ToolRunner.terminalRequirement))
    func progressOnTerminal() async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        // `script` gives the tool a terminal; its output is what the terminal showed.
        let shown = try await ToolRunner.runOnTerminal(["verify", "--log", log])
        #expect(shown.contains("\rverifying revisions: 1 of 3 (33%)"))
        #expect(shown.hasSuffix("verified revisions 1 to 3 (3): ok\r\n"))
    }
}
