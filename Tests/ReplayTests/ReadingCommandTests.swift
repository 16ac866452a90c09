import ChangeLog
import Foundation
import ListAdapter
import Testing

/// export, log, show, stats: exact output on a known history, and their bad inputs.
@Suite("replay export, log, show, stats")
struct ReadingCommandTests {
    /// A log holding `Fixtures.history`, in a fresh temporary directory.
    static func makeLog() async throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let log = directory.path("app.lmdb")
        let result = try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.history)
        #expect(result.status == 0, "\(result)")
        return (directory, log)
    }

    @Test("export writes FORMAT.md revision lines, oldest first, and they import again")
    func export() async throws {
        let (directory, log) = try await Self.makeLog()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["export", "--log", log, "--from", "2", "--to", "3"])
        #expect(result.status == 0, "\(result)")
        let expected = """
            {"revision":2,"time":"<time>","meta":{"commit":"c2"},"snapshot":{"sections":[{"title":"Today","items":[{"id":"b"},{"id":"a","summary":"hi!"}]},{"title":"Old","items":[{"id":"c"}]}]},"changes":{"sections":{"deleted":[],"inserted":[{"index":1,"title":"Old","items":[{"id":"c"}]}],"moved":[],"updated":[]},"items":{"deleted":[],"inserted":[],"moved":[{"from":[0,1],"to":[0,0]}],"updated":[{"from":[0,0],"to":[0,1],"summary":"hi!"}]}}}
            {"revision":3,"time":"<time>","meta":{},"snapshot":{"sections":[{"title":"Old","items":[{"id":"c"},{"id":"b"}]}]},"changes":{"sections":{"deleted":[0],"inserted":[],"moved":[],"updated":[]},"items":{"deleted":[],"inserted":[{"at":[0,1],"id":"b"}],"moved":[],"updated":[]}}}

            """
        #expect(maskingTimes(result.stdout) == expected)
        #expect(result.stderr == "")

        // Every exported line decodes as a revision whose snapshot and changes are the stored ones.
        let all = try await ToolRunner.run(["export", "--log", log])
        let stored = try ChangeLog(path: log, options: .init(createIfMissing: false))
        for line in all.stdout.split(separator: "\n") {
            let record = try RevisionRecord(jsonLine: line.utf8)
            #expect(record == (try stored.record(at: record.revision)))
        }
    }

    @Test("an export alone replays: revisions from 1 without gaps, each line's changes from the line before")
    func exportReplaysAlone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let before = Date()
        let input = Fixtures.history + Fixtures.growing(4)
        // Far from UTC, so that a local time written with a "Z" would show.
        let farEast = ["TZ": "Pacific/Kiritimati"]
        #expect(
            try await ToolRunner.run(["import", "-", "--log", log], input: input, environment: farEast).status == 0)
        let after = Date()
        let result = try await ToolRunner.run(["export", "--log", log], environment: farEast)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasSuffix("}\n") && !result.stdout.contains("\n\n"))
        let lines = result.stdout.split(separator: "\n")
        let times = ISO8601DateFormatter()
        times.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        // The first revision is the change from the empty snapshot.
        var previous = LogSnapshot()
        for (offset, line) in lines.enumerated() {
            let record = try RevisionRecord(jsonLine: line.utf8)
            #expect(record.revision == UInt64(offset + 1))
            #expect(try previous.applying(record.changes) == record.snapshot, "revision \(record.revision)")
            previous = record.snapshot
            // When it was appended, in UTC to the millisecond.
            let time = try #require(line.firstMatch(of: /"time":"([^"]*)"/)).output.1
            #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(time)")
            let date = try #require(times.date(from: String(time)))
            #expect(date.timeIntervalSince(before) > -0.001 && after.timeIntervalSince(date) > -0.001, "\(time)")
        }
        #expect(lines.count == 7)
        #expect(
            previous
                == (try JSONDecoder().decode(
                    LogSnapshot.self, from: Data(Fixtures.growing(4).split(separator: "\n")[3].utf8))))
    }

    @Test("log prints one line per revision, newest first")
    func log() async throws {
        let (directory, log) = try await Self.makeLog()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["log", "--log", log])
        #expect(result.status == 0, "\(result)")
        #expect(
            maskingTimes(result.stdout) == """
                3  <time>  sections +0 -1 ~0 *0  items +1 -0 ~0 *0
                2  <time>  commit=c2  sections +1 -0 ~0 *0  items +0 -0 ~1 *1
                1  <time>  commit=c1  sections +1 -0 ~0 *0  items +0 -0 ~0 *0

                """)
        let ranged = try await ToolRunner.run(["log", "--log", log, "--from", "2", "--to", "2"])
        #expect(maskingTimes(ranged.stdout) == "2  <time>  commit=c2  sections +1 -0 ~0 *0  items +0 -0 ~1 *1\n")
    }

    @Test("show prints the metadata, the snapshot and the operations in words")
    func show() async throws {
        let (directory, log) = try await Self.makeLog()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["show", "2", "--log", log])
        #expect(result.status == 0, "\(result)")
        #expect(
            maskingTimes(result.stdout) == """
                revision 2
                time     <time>
                meta     commit=c2
                counts   sections +1 -0 ~0 *0  items +0 -0 ~1 *1

                snapshot: 2 sections, 3 items
                  [0] Today (2 items)
                    * 0: b
                    * 1: a  hi!
                  [1] Old (1 items)
                      0: c

                operations:
                  insert section 1 "Old" with 1 item
                  move item "b" from [0, 1] to [0, 0]
                  update item "a" from [0, 0] to [0, 1]: summary now "hi!"

                """)
        let json = try await ToolRunner.run(["show", "3", "--log", log, "--json"])
        #expect(
            maskingTimes(json.stdout)
                == #"{"revision":3,"time":"<time>","meta":{},"snapshot":{"sections":[{"title":"Old","items":[{"id":"c"},{"id":"b"}]}]},"changes":{"sections":{"deleted":[0],"inserted":[],"moved":[],"updated":[]},"items":{"deleted":[],"inserted":[{"at":[0,1],"id":"b"}],"moved":[],"updated":[]}}}"#
                + "\n")
    }

    @Test("stats adds up the log")
    func stats() async throws {
        let (directory, log) = try await Self.makeLog()
        defer { directory.remove() }
        let result = try await ToolRunner.run(["stats", "--log", log])
        #expect(result.status == 0, "\(result)")
        let lines = maskingTimes(result.stdout).split(separator: "\n").map(String.init)
        #expect(lines[0] == "log            \(log)")
        #expect(lines[1] == "revisions      3 (1 to 3)")
        #expect(lines[2].hasPrefix("time span      <time> to <time> ("))
        // The file holds the pages in use and the zeros kept ahead of them.
        // Digits come in groups of three.
        let disk = try #require(
            lines[3].wholeMatch(
                of: /on disk        (\d{1,3}(?:,\d{3})+) bytes \(([\d,]+) in use, ([\d,]+) of them free for reuse\)/))
        func number(_ text: Substring) -> Int { Int(text.filter { $0 != "," })! }
        #expect(number(disk.output.1) > number(disk.output.2))
        #expect(number(disk.output.2) > number(disk.output.3))
        #expect(lines[4].hasPrefix("per revision   "))
        #expect(lines[5] == "largest        revision 2: 3 items in 2 sections")
        #expect(lines[6] == "operations     sections +2 -1 ~0 *0  items +1 -0 ~1 *1")
    }

    @Test(
        "reading commands never create a log: a missing one is an error naming the path",
        arguments: [["export"], ["log"], ["show", "1"], ["stats"], ["verify"], ["play"], ["tail"]])
    func missingLog(command: [String]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("missing.lmdb")
        let result = try await ToolRunner.run(command + ["--log", log])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "replay: no log at \(log): check --log or $REPLAY_LOG, or create one with `replay import` or "
                + "`replay demo`\n")
        #expect(!FileManager.default.fileExists(atPath: log))
    }

    @Test(
        "reading commands refuse an existing directory that holds no log, and leave it as it was",
        arguments: [["export"], ["log"], ["show", "1"], ["stats"], ["verify"], ["play"], ["tail"]])
    func directoryWithoutLog(command: [String]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try directory.write("notes.txt", "not a log\n")
        let result = try await ToolRunner.run(command + ["--log", directory.url.path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("replay: no log at \(directory.url.path): "), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["notes.txt"])
    }

    /// LMDB takes an empty data file for a log not created yet; the message said only "no log".
    @Test("a log directory whose data.mdb is empty is reported as such")
    func emptyDataFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.history).status == 0)
        #expect(truncate(log + "/data.mdb", 0) == 0)
        for command in [["verify"], ["log"], ["stats"]] {
            let result = try await ToolRunner.run(command + ["--log", log])
            #expect(result.status == 2, "\(command): \(result)")
            #expect(
                result.stderr.hasPrefix(
                    "replay: no log at \(log) (its data.mdb is empty: a log's creation cut short, or a data file "
                        + "emptied behind its back): check --log"), "\(command): \(result.stderr)")
        }
    }

    @Test("a log this user may not reach or open is reported as such, not as missing, with the reason once")
    func unreachableLog() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let locked = directory.path("locked")
        let log = locked + "/app.lmdb"
        #expect(
            try await ToolRunner.run(["import", "-", "--log", log], input: #"{"sections": []}"# + "\n").status == 0)
        let manager = FileManager.default
        let files = try manager.contentsOfDirectory(atPath: log).map { log + "/" + $0 }
        // Root may search and open everything: as root, the tool runs as nobody, from a copy,
        // on a log nobody owns. Modes are set whatever the umask.
        var launcher: [String] = []
        var modes = [directory.url.path: 0o755, locked: 0o755, log: 0o755]
        for file in files { modes[file] = 0o644 }
        if getuid() == 0 {
            let setpriv = "/usr/bin/setpriv"
            try #require(manager.isExecutableFile(atPath: setpriv), "as root, this test runs the tool through setpriv")
            let copy = directory.path("replay")
            try await ToolRunner.copyBinary(to: copy)
            modes[copy] = 0o755
            launcher = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", copy]
            for path in [locked, log] + files {
                try manager.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: path)
            }
        }
        for (path, mode) in modes {
            try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
        func run(_ path: String = log) async throws -> ToolRunner.Result {
            try await ToolRunner.run(["log", "--log", path], launcher: launcher)
        }
        func attempt(locking path: String) async throws -> ToolRunner.Result {
            try manager.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
            defer { try? manager.setAttributes([.posixPermissions: modes[path] ?? 0o755], ofItemAtPath: path) }
            return try await run()
        }
        // Nothing locked yet: the log opens.
        let open = try await run()
        #expect(open.status == 0, "\(open)")
        let parentLocked = try await attempt(locking: locked)
        #expect(parentLocked.status == 2)
        #expect(
            parentLocked.stderr
                == "replay: cannot reach \(log) (Permission denied): check the directories on its path\n")
        let logLocked = try await attempt(locking: log)
        #expect(logLocked.status == 2)
        #expect(
            logLocked.stderr
                == "replay: cannot look into the log directory \(log) (Permission denied): check that it is a log "
                + "directory you may read and write\n")
        let dataLocked = try await attempt(locking: log + "/data.mdb")
        #expect(dataLocked.status == 2)
        #expect(
            dataLocked.stderr
                == "replay: cannot open the log at \(log): check that it is a log directory you may read and write "
                + "(Permission denied (LMDB code 13))\n")
        // Readers record themselves in lock.mdb: a log whose lock.mdb this user may not write is
        // read without it, with a warning naming the cause.
        let lockLocked = try await attempt(locking: log + "/lock.mdb")
        #expect(lockLocked.status == 0, "\(lockLocked)")
        #expect(lockLocked.stdout == open.stdout)
        #expect(lockLocked.stderr == "replay: warning: " + ToolRunner.withoutLockWarning(log: log))
        let throughFile = try await run(log + "/data.mdb/app.lmdb")
        #expect(throughFile.status == 2)
        #expect(
            throughFile.stderr
                == "replay: cannot reach \(log)/data.mdb/app.lmdb (Not a directory): check the directories on its path\n"
        )
        // Unlocked again, the log is as it was.
        #expect(try await run().status == 0)
    }

    @Test("metadata and values with line breaks or escape codes stay on one line, escaped")
    func controlCharacters() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("odd.lmdb")
        let log = try ChangeLog(path: path)
        let snapshot = try LogSnapshot(sections: [.init(title: "T\u{1B}[31m", items: [.init(id: "a\nb")])])
        _ = try await log.append(snapshot, meta: ["a\nb": "x\ny", "plain": "v"])
        let result = try await ToolRunner.run(["log", "--log", path])
        #expect(
            maskingTimes(result.stdout) == #"1  <time>  "a\nb"="x\ny" plain=v  sections +1 -0 ~0 *0  items +0 -0 ~0 *0"#
                + "\n")
        let show = try await ToolRunner.run(["show", "1", "--log", path])
        #expect(show.stdout.contains(#"[0] "T\u{1b}[31m" (1 items)"#), "\(show.stdout)")
        #expect(show.stdout.contains(#"0: "a\nb""#))
    }

    /// U+2028 and U+2029 break lines for some tools, U+202E reverses the rest of a line as shown,
    /// and U+FEFF is invisible: each is shown as its escape, in text output and in errors.
    @Test("line separators, bidirectional controls and the byte order mark are escaped, never printed raw")
    func invisibleAndReorderingCharacters() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("bidi.lmdb")
        let input = #"""
            {"sections":[{"title":"a\u2028b\u202ec\ufeffd","items":[{"id":"i\u2029"}]}]}

            """#
        let imported = try await ToolRunner.run(["import", "-", "--log", log], input: input)
        #expect(imported.status == 0, "\(imported)")
        let show = try await ToolRunner.run(["show", "1", "--log", log])
        #expect(show.stdout.contains(#"[0] "a\u{2028}b\u{202e}c\u{feff}d" (1 items)"#), "\(show)")
        #expect(show.stdout.contains(#"0: "i\u{2029}""#), "\(show)")
        let bad = try await ToolRunner.run(
            ["import", "-", "--log", log], input: "\u{FEFF}\u{FEFF}{\"sections\": []}\n")
        #expect(bad.status == 2)
        #expect(
            bad.stderr.contains(#"column 1: not valid JSON: invalid value ("\u{feff}{\"sections\": []}")"#), "\(bad)")
        for output in [show.stdout, bad.stderr] {
            #expect(!output.unicodeScalars.contains { [0x2028, 0x2029, 0x202E, 0xFEFF].contains($0.value) })
        }
    }

    /// U+009B is the 8-bit form of ESC [ (CSI), which a terminal may act on like ESC [; DEL
    /// may erase. Neither byte may reach standard output: each is shown as its escape.
    @Test(
        "DEL and C1 controls in titles, ids and metadata are escaped, never printed raw",
        arguments: [
            (["show", "1"], #"[0] "x\u{9b}[2Jy\u{7f}z" (1 items)"#),
            (["show", "1"], #"0: "i\u{9b}31m\u{85}""#),
            (["tail"], #""k\u{9b}"="v\u{7f}""#),
            (["play", "--into", "text"], #"[0] "x\u{9b}[2Jy\u{7f}z""#),
            (["play", "--into", "text"], #""i\u{9b}31m\u{85}""#),
        ])
    func c1Controls(command: [String], escaped: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("c1.lmdb")
        let input = #"""
            {"sections":[{"title":"x\u009b[2Jy\u007fz","items":[{"id":"i\u009b31m\u0085"}]}],"meta":{"k\u009b":"v\u007f"}}

            """#
        let imported = try await ToolRunner.run(["import", "-", "--log", log], input: input)
        #expect(imported.status == 0, "\(imported)")
        let result = try await ToolRunner.run(command + ["--log", log])
        #expect(result.status == 0, "\(command): \(result)")
        let bytes = Array(result.stdout.utf8)
        #expect(!bytes.contains(0x7F), "\(command): \(result)")
        // U+0080–U+009F in UTF-8: C2 80 to C2 9F.
        let c1 = zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) }
        #expect(!c1, "\(command): \(result)")
        #expect(result.stdout.contains(escaped), "\(command): \(result)")
    }

    @Test(
        "revisions out of range are named with the range the log holds",
        arguments: [
            (["show", "9"], "revision 9 is out of range: the log at LOG holds revisions 1 to 3"),
            (["export", "--from", "4"], "revision 4 is out of range: the log at LOG holds revisions 1 to 3"),
            (["log", "--to", "7"], "revision 7 is out of range: the log at LOG holds revisions 1 to 3"),
            (["verify", "--from", "5"], "revision 5 is out of range: the log at LOG holds revisions 1 to 3"),
        ])
    func outOfRange(command: [String], message: String) async throws {
        let (directory, log) = try await Self.makeLog()
        defer { directory.remove() }
        let result = try await ToolRunner.run(command + ["--log", log])
        #expect(result.status == 2)
        #expect(result.stderr == "replay: \(message.replacingOccurrences(of: "LOG", with: log))\n")
    }

    @Test("--from after --to is a usage error")
    func inverted() async throws {
        let result = try await ToolRunner.run(["export", "--from", "3", "--to", "2"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--from 3 is after --to 2"))
    }
}
