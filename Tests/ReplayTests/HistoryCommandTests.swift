import ChangeLog
import ChangeLogTestSupport
import Foundation
import ListAdapter
import ListFormat
import Testing

/// `replay history`, `replay diff --log`, `show --at`, and `--since`, `--until` and `--where`
/// on the reading commands.
@Suite("replay history and the questions about time and metadata")
struct HistoryCommandTests {
    static let preIndexFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/pre-index-log/data.mdb")

    /// A log holding `history`, in `directory`.
    static func log(_ history: ItemLifeHistory, in directory: TemporaryDirectory) async throws -> String {
        let path = directory.path("log")
        let log = try ChangeLog(path: path, options: .init(durability: .noSync))
        _ = try await log.append(contentsOf: history.entries)
        return path
    }

    /// The revision time `step` as RFC 3339 with an offset of +02:00.
    static func offsetTime(ofStep step: Int) -> String {
        let shifted = ItemLifeHistory.time(ofStep: step) + 2 * 3_600_000
        return String(Timestamp.iso8601(milliseconds: shifted).dropLast()) + "+02:00"
    }

    @Test("--json prints the events written down, for awkward identifiers and titles too")
    func seededHistories() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let history = ItemLifeHistory(seed: 6, count: 120)
        let log = try await Self.log(history, in: directory)
        let subjects =
            ItemLifeHistory.identifiers.map { (HistorySubject.item($0), [$0]) }
            + ItemLifeHistory.titles.map { (HistorySubject.section($0), ["--section", $0]) }
        for (subject, arguments) in subjects {
            let result = try await ToolRunner.run(["history"] + arguments + ["--log", log, "--json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr == "")
            let expected = (history.expected[subject] ?? []).map { $0.jsonObject() + "\n" }.joined()
            #expect(result.stdout == expected, "\(subject)")
        }
        let narrowed = try await ToolRunner.run([
            "history", "x/y", "--log", log, "--json", "--from", "20", "--since", Self.offsetTime(ofStep: 30),
            "--until", Self.offsetTime(ofStep: 100), "--where", "op~a", "--where", "job=app",
        ])
        let expected = (history.expected[.item("x/y")] ?? []).filter {
            (30...100).contains($0.revision) && $0.meta["op"]!.contains("a") && $0.meta["job"] == "app"
        }
        #expect(!expected.isEmpty)
        #expect(narrowed.stdout == expected.map { $0.jsonObject() + "\n" }.joined())
    }

    @Test("a log written before the index: the text lines, and the index built once, said once")
    func preIndexLog() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("log")
        try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.preIndexFixture.path, toPath: log + "/data.mdb")
        let first = try await ToolRunner.run(["history", "a b", "--log", log])
        #expect(first.status == 0, "\(first)")
        #expect(
            first.stderr == "replay: note: built the history index of the log at \(log), written before logs kept one\n"
        )
        let time = "2026-12-07T00:56:56.875Z"
        #expect(
            first.stdout == """
                1  \(time)  job=app step=1  inserted (with its section inserted)  - -> Pinned [0, 0]  - -> hello
                3  \(time)  job=app step=3  moved updated  Pinned [0, 0] -> Today [1, 0]  hello -> "hello again"
                4  \(time)  job=app step=4  deleted  Today [1, 0] -> -  "hello again" -> -
                5  \(time)  job=sync step=5  inserted  - -> Today [1, 2]  - -> back

                """)
        let again = try await ToolRunner.run(["history", "--section", "Later / soon", "--log", log])
        #expect(again.stderr == "")
        #expect(again.stdout == "7  \(time)  job=sync step=7  inserted  - -> \"Later / soon\" [0]  - -> -\n")
        let never = try await ToolRunner.run(["history", "never seen", "--log", log])
        #expect(never.status == 0 && never.stdout == "")
    }

    @Test("diff --log compares two revisions, by number or time, either way round")
    func diffOfRevisions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try await Self.log(ItemLifeHistory(seed: 2, count: 60), in: directory)
        let opened = try ChangeLog(path: log, options: .init(readOnly: true))
        for (old, new, arguments) in [
            (5, 40, ["5", "40"]), (40, 5, ["40", "5"]),
            (
                12, 30,
                [
                    "--at", Self.offsetTime(ofStep: 12), "--at",
                    Timestamp.iso8601(milliseconds: ItemLifeHistory.time(ofStep: 30) + 59_000),
                ]
            ),
            (7, 50, ["7", "--at", Self.offsetTime(ofStep: 50)]),
        ] as [(UInt64, UInt64, [String])] {
            let result = try await ToolRunner.run(["diff", "--log", log] + arguments)
            #expect(result.status == 0, "\(result)")
            let changes = try opened.snapshot(at: old).changes(to: try opened.snapshot(at: new))
            #expect(result.stdout == changes.formatJSON() + "\n", "\(arguments)")
        }
        let outside = try await ToolRunner.run(["diff", "--log", log, "5", "99"])
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("revision 99 is out of range"))
        let early = try await ToolRunner.run(["diff", "--log", log, "5", "--at", "2000-01-01T00:00:00Z"])
        #expect(early.status == 2)
        #expect(early.stderr.contains("no revision was current at 2000-01-01T00:00:00Z"))
        let one = try await ToolRunner.run(["diff", "--log", log, "5"])
        #expect(one.status == 64)
        #expect(one.stderr.contains("give two revisions to compare"))
    }

    @Test("show --at, log and export narrowed by time and metadata")
    func timeAndMetadata() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try await Self.log(ItemLifeHistory(seed: 3, count: 40), in: directory)
        let opened = try ChangeLog(path: log, options: .init(readOnly: true))
        let show = try await ToolRunner.run(["show", "--log", log, "--json", "--at", Self.offsetTime(ofStep: 17)])
        #expect(show.stdout == (try opened.record(at: 17).jsonLine()) + "\n")
        let between = try await ToolRunner.run([
            "show", "--log", log, "--json", "--at",
            Timestamp.iso8601(milliseconds: ItemLifeHistory.time(ofStep: 17) + 30_000),
        ])
        #expect(between.stdout == show.stdout)
        let export = try await ToolRunner.run([
            "export", "--log", log, "--since", Self.offsetTime(ofStep: 10), "--until", Self.offsetTime(ofStep: 30),
            "--where", "job=sync",
        ])
        var expected = ""
        for revision in 10...30 as ClosedRange<UInt64> where revision % 3 == 0 {
            expected += try opened.record(at: revision).jsonLine() + "\n"
        }
        #expect(export.stdout == expected)
        let logLines = try await ToolRunner.run(["log", "--log", log, "--since", "-7d", "--where", "op~section"])
        #expect(logLines.status == 0)
        #expect(logLines.stdout == "", "revisions are from 2026-11, not the last 7 days")
        let sections = try await ToolRunner.run(["log", "--log", log, "--where", "op~section"])
        let count = try (1...40 as ClosedRange<UInt64>).filter {
            try opened.record(at: $0).meta["op"]!.contains("section")
        }.count
        #expect(sections.stdout.split(separator: "\n").count == count)
    }

    @Test(
        "bad times and conditions are usage errors that say what is accepted",
        arguments: [
            (["log", "--since", "yesterday"], "--since: 'yesterday' is not a time"),
            (["log", "--until", "-5y"], "--until: '-5y' is not a time"),
            (["export", "--since", "-1h", "--until", "-2h"], "--since -1h is after --until -2h"),
            (["log", "--where", "job"], "--where: the condition 'job' has neither '=' nor '~'"),
            (["log", "--where", "=x"], "--where: the condition '=x' has no key before '='"),
            (["show", "--at", "2026-13-01T00:00:00Z"], "--at: '2026-13-01T00:00:00Z' is not a time"),
            (["show", "3", "--at", "-1h"], "give a revision or --at TIME, not both"),
            (["history"], "give an item's identifier, or --section TITLE"),
        ])
    func badInput(arguments: [String], message: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try await Self.log(ItemLifeHistory(seed: 1, count: 5), in: directory)
        let result = try await ToolRunner.run(arguments + ["--log", log])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }
}
