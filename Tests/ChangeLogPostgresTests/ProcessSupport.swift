import ChangeLog
import ChangeLogTestSupport
import Foundation

/// Other processes on the test server's logs: the built `replay` tool, and the parsing of
/// what `ChangeLogWorker` printed.
enum ToolProcess {
    /// A run of the tool to its end.
    struct Run: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String

        var description: String {
            "status \(status), stdout \(stdout.debugDescription), stderr \(stderr.debugDescription)"
        }
    }

    /// Runs the built `replay` (beside the worker) with `arguments` to its end, off the pool.
    static func replay(_ arguments: [String]) async throws -> Run {
        let binary = try WorkerProcess.binary().deletingLastPathComponent().appendingPathComponent("replay")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let stdout = directory.appendingPathComponent("stdout")
        let stderr = directory.appendingPathComponent("stderr")
        try Data().write(to: stdout)
        try Data().write(to: stderr)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        await process.exited()
        return Run(
            status: process.terminationStatus, stdout: try String(contentsOf: stdout, encoding: .utf8),
            stderr: try String(contentsOf: stderr, encoding: .utf8))
    }
}

extension WorkerProcess {
    /// The revisions of the `committed A B` lines the worker printed so far, in order.
    var committedRevisions: [UInt64] {
        lines.flatMap { line -> [UInt64] in
            let words = line.text.split(separator: " ")
            guard words.count == 3, words[0] == "committed", let first = UInt64(words[1]), let last = UInt64(words[2])
            else { return [] }
            return Array(first...last)
        }
    }

    /// The expected latest revisions of the `conflict L` lines the worker printed so far.
    var conflicts: [UInt64] {
        lines.compactMap { line in
            let words = line.text.split(separator: " ")
            guard words.count == 2, words[0] == "conflict" else { return nil }
            return UInt64(words[1])
        }
    }

    /// The `R DIGEST` lines a `follow` worker printed so far, as pairs.
    var followed: [(revision: UInt64, digest: String)] {
        lines.compactMap { line in
            let words = line.text.split(separator: " ")
            guard words.count == 2, let revision = UInt64(words[0]) else { return nil }
            return (revision, String(words[1]))
        }
    }
}

/// The digests of revisions 1 to `latest` of `log`, as ``RecordDigest`` computes them from the
/// stored records, read off the pool.
func storedDigests(of log: ChangeLog, through latest: UInt64) async throws -> [String] {
    guard latest > 0 else { return [] }
    return try await offThePool {
        try (1...latest).map { revision in try RecordDigest.of(log.record(at: revision)) }
    }
}
