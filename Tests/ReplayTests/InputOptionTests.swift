import Foundation
import Testing

/// `--input FILE`: every command that reads a history reads an export as it reads a log.
@Suite("--input reads an export as --log reads a log")
struct InputOptionTests {
    /// The reading commands, as run on the broken export's history (revision 7's wrong move).
    static let commands: [[String]] = [
        ["verify"], ["play", "--into", "strict"], ["play", "--into", "strict", "--one-batch"],
        ["play", "--into", "text"], ["play", "--into", "jsonl"], ["show", "7"], ["show", "9"], ["log"],
        ["log", "--from", "6"], ["export"], ["export", "--from", "3", "--to", "7"], ["stats"],
    ]

    @Test("every reading command gives the same output and exit status with --input as with --log")
    func sameAsLog() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("broken.jsonl", try await RecordedHistoryFixtures.brokenExport(in: directory))
        let log = directory.path("crash.lmdb")
        #expect(try await ToolRunner.run(["import", file, "--log", log]).status == 0)

        for command in Self.commands {
            let fromLog = try await ToolRunner.run(command + ["--log", log])
            let fromInput = try await ToolRunner.run(command + ["--input", file])
            #expect(fromInput.status == fromLog.status, "\(command): \(fromInput) vs \(fromLog)")
            #expect(
                fromInput.stdout.replacing(file, with: "<source>") == fromLog.stdout.replacing(log, with: "<source>"),
                "\(command)")
            #expect(
                fromInput.stderr.replacing("the export \(file)", with: "<source>")
                    == fromLog.stderr.replacing("the log at \(log)", with: "<source>"), "\(command)")
        }

        var viewed: [(Int32?, String?, Data?)] = []
        for (name, source) in [("log", ["--log", log]), ("input", ["--input", file])] {
            let out = directory.path("\(name).html")
            let result = try? await ToolRunner.run(["view", "--out", out] + source)
            viewed.append(
                (
                    result?.status, result?.stdout.replacing(out, with: "<out>"),
                    try? Data(contentsOf: URL(fileURLWithPath: out))
                ))
        }
        #expect(viewed[0].0 == 0 && viewed[1].0 == 0)
        #expect(viewed[0].1 == viewed[1].1)
        #expect(viewed[0].2 != nil && viewed[0].2 == viewed[1].2)

        var reduced: [(Int32?, String?)] = []
        for (name, source) in [("log", ["--log", log]), ("input", ["--input", file])] {
            let out = directory.path("reduced-\(name)")
            let result = try? await ToolRunner.run(
                ["reduce", "--until", "verify", "--jobs", "1", "--out", out] + source)
            // The oracle calls' duration is the one line that may differ.
            let stdout = result?.stdout.replacing(out, with: "<out>").replacing(#/ in \d+\.\d+ s\n/#, with: "\n")
            reduced.append((result?.status, stdout))
        }
        #expect(reduced[0].0 == 0 && reduced[1].0 == 0, "\(reduced)")
        #expect(reduced[0].1 == reduced[1].1)
    }

    @Test("a gzipped export reads as the plain one")
    func gzipped() async throws {
        let gzip = ["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let gzip else {
            print("skipped: no gzip to compress the test's export")
            return
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("broken.jsonl", try await RecordedHistoryFixtures.brokenExport(in: directory))
        let compress = Process()
        compress.executableURL = URL(fileURLWithPath: gzip)
        compress.arguments = ["-k", file]
        try compress.run()
        compress.waitUntilExit()
        try #require(compress.terminationStatus == 0)
        for command in [["verify"], ["export"], ["log"]] {
            let plain = try await ToolRunner.run(command + ["--input", file])
            let zipped = try await ToolRunner.run(command + ["--input", file + ".gz"])
            #expect(zipped.status == plain.status, "\(command): \(zipped)")
            #expect(zipped.stdout == plain.stdout, "\(command)")
        }
        // Cut short, it is bad input naming the file.
        let whole = try Data(contentsOf: URL(fileURLWithPath: file + ".gz"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: directory.path("cut.gz")))
        let cut = try await ToolRunner.run(["verify", "--input", directory.path("cut.gz")])
        #expect(cut.status == 2, "\(cut)")
        #expect(cut.stderr.hasPrefix("replay: \(directory.path("cut.gz")): the gzip stream ends early"), "\(cut)")
    }

    @Test("--log with --input is a usage error; a bad line or a gap is bad input naming the line")
    func refusals() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let export = try await RecordedHistoryFixtures.brokenExport(in: directory)
        let file = try directory.write("broken.jsonl", export)
        for command in Self.commands.map({ $0 }) + [["view", "--out", directory.path("v.html")]] {
            let both = try await ToolRunner.run(command + ["--log", directory.path("x.lmdb"), "--input", file])
            #expect(both.status == 64, "\(command): \(both)")
            #expect(both.stderr.contains("give either --log or --input, not both"), "\(command)")
        }
        var lines = export.split(separator: "\n").map(String.init)
        lines[2] = #"{"sections": []}"#
        let snapshotLine = try directory.write("snapshot.jsonl", lines.joined(separator: "\n") + "\n")
        let bad = try await ToolRunner.run(["verify", "--input", snapshotLine])
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.hasPrefix("replay: \(snapshotLine), line 3, "), "\(bad)")

        let gap = try directory.write(
            "gap.jsonl",
            export.split(separator: "\n").enumerated()
                .filter { $0.offset != 3 }.map { String($0.element) }.joined(separator: "\n") + "\n")
        let gapped = try await ToolRunner.run(["log", "--input", gap])
        #expect(gapped.status == 2, "\(gapped)")
        #expect(gapped.stderr.hasPrefix("replay: \(gap), line 4: revision 5 follows revision 3"), "\(gapped)")
    }
}
