import ChangeLogTestSupport
import Foundation
import Testing

/// The plain build's `PlainLog`, when scripts/test.sh made it.
private let plainBuildBinary = ProcessInfo.processInfo.environment["CHANGELOG_TEST_PLAIN_BUILD"]

/// What an app builds when it names the package with `traits: []`: ChangeLog, ChangeLogFile and
/// ListAdapter with no system library, zstd left out. scripts/test.sh builds Examples/PlainLog
/// that way (`--disable-default-traits`, a scratch folder of its own) and passes the binary's
/// path in `CHANGELOG_TEST_PLAIN_BUILD`; this full build's `PlainLog` and `replay` check it.
/// Without the variable the suite is skipped with one line, and fails when `CI` is `true`.
@Suite("The plain build (no traits)")
struct PlainBuildTests {
    /// This build's `PlainLog`, beside `replay`: the same program with every default trait.
    static let fullBinary = ToolRunner.binary.deletingLastPathComponent().appendingPathComponent("PlainLog").path

    /// The plain binary's path; fails the test when it is missing (on CI).
    private func plain() throws -> String {
        try #require(plainBuildBinary, "CHANGELOG_TEST_PLAIN_BUILD is not set on CI: scripts/test.sh sets it")
    }

    /// `replay export` of the file log at `path`, each revision's time left out (the two
    /// builds append at different moments).
    private func export(_ path: String) async throws -> String {
        let result = try await ToolRunner.run(["export", "--log", "file:\(path)"])
        #expect(result.status == 0, "\(result)")
        return maskingTimes(result.stdout)
    }

    /// One test, so that a run without the plain build reports one skipped line.
    @Test(
        "its log verifies and exports as the full build's, and a log with zstd-compressed chunks is refused in one line",
        .enabled(
            if: plainBuildBinary != nil || ProcessInfo.processInfo.environment["CI"] == "true",
            "CHANGELOG_TEST_PLAIN_BUILD is not set: scripts/test.sh builds the plain PlainLog and sets it"))
    func plainBuild() async throws {
        try await plainLogMatchesTheFullBuild()
        try await plainBuildRefusesCompressedChunks()
    }

    /// A log the plain build writes verifies with `replay verify` and exports what the full build's does.
    private func plainLogMatchesTheFullBuild() async throws {
        let plain = try plain()
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let plainLog = scratch.path("plain.changelog")
        let fullLog = scratch.path("full.changelog")
        for (binary, path) in [(plain, plainLog), (Self.fullBinary, fullLog)] {
            let written = try await ToolRunner.run(["write", path, "33", "40"], launcher: [binary])
            #expect(written.status == 0, "\(binary): \(written)")
        }
        let verified = try await ToolRunner.run(["verify", "--log", "file:\(plainLog)"])
        #expect(verified.status == 0, "\(verified)")
        let plainExport = try await export(plainLog)
        #expect(plainExport.split(separator: "\n").count == 40)
        #expect(plainExport == (try await export(fullLog)))
        // The plain build reads its own log; the full build's stores compressed chunks (the
        // next test relies on that), so the plain log, stored plain, is the larger.
        let read = try await ToolRunner.run(["verify", plainLog], launcher: [plain])
        #expect(read.status == 0 && read.stdout == "verified 40 revisions\n", "\(read)")
        let sizes = try [plainLog, fullLog].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }
        #expect((sizes[0] ?? 0) > (sizes[1] ?? .max), "plain \(sizes[0] ?? -1) bytes, full \(sizes[1] ?? -1) bytes")
    }

    /// The plain build reading a log with zstd-compressed chunks prints one clear line and exits 1.
    private func plainBuildRefusesCompressedChunks() async throws {
        let plain = try plain()
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let fullLog = scratch.path("full.changelog")
        let written = try await ToolRunner.run(["write", fullLog, "33", "40"], launcher: [Self.fullBinary])
        #expect(written.status == 0, "\(written)")
        let read = try await ToolRunner.run(["verify", fullLog], launcher: [plain])
        #expect(read.status == 1, "\(read)")
        #expect(read.stdout.isEmpty, "\(read)")
        let lines = read.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(read)")
        #expect(
            read.stderr.contains(
                "is compressed with zstd, which this build leaves out: enable the package trait `Zstd`"),
            "\(read)")
    }
}
