import ChangeLog
import ChangeLogTestSupport
import ChangeLogTools
import Foundation
import Testing

/// Histories with seeded failures, as files, and the emitted test compiled and run.
enum ReduceFixtures {
    /// 300 chat revisions as revision lines; the first revision from `start` with an updated
    /// item stores a wrong summary for it. Returns the text and the tampered revision.
    static func wrongUpdate(from start: Int = 150) -> (String, UInt64) {
        var records = ChatHistory.records(count: 300)
        let index = records.indices.first { $0 >= start - 1 && !records[$0].changes.updatedItems.isEmpty }!
        records[index].changes.updatedItems[0].summary = "wrong"
        return (ReducibleHistory(records: records).jsonLines(), records[index].revision)
    }

    /// 300 chat revisions as revision lines; the first revision from `start` with a deleted item
    /// lists that deletion twice.
    static func doubleDeletion(from start: Int = 180) -> (String, UInt64) {
        var records = ChatHistory.records(count: 300)
        let index = records.indices.first { $0 >= start - 1 && !records[$0].changes.deletedItems.isEmpty }!
        records[index].changes.deletedItems.append(records[index].changes.deletedItems[0])
        return (ReducibleHistory(records: records).jsonLines(), records[index].revision)
    }

    /// A predicate (for `sh -c`) that fails while both `first` and `second` appear in its input.
    static func bothPresent(_ first: String, _ second: String) -> String {
        let (a, b) = (#"*'"id":"\#(first)"'*"#, #"*'"id":"\#(second)"'*"#)
        return #"input=$(cat); case "$input" in \#(a)) case "$input" in \#(b)) exit 1;; esac;; esac; exit 0"#
    }

    /// The package's root directory.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Compiles and runs the `ReducedTest.swift` written to `directory` alone (it holds its
    /// history), expects it to compile without warnings, and to fail with a message that contains
    /// `message`.
    static func expectReducedTestFails(
        in directory: URL, saying message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let run = try await compileAndRunReducedTest(in: directory, scratch: scratch)
        #expect(run.status != 0, "the emitted test passes: \(run)", sourceLocation: sourceLocation)
        #expect((run.stdout + run.stderr).contains(message), "\(run)", sourceLocation: sourceLocation)
    }

    /// Compiles `ReducedTest.swift`, copied from `directory` without `history.jsonl`, into an
    /// executable with Swift Testing's entry point, against the modules and objects of this build
    /// (no package resolution, no rebuild: about a second), and runs it.
    private static func compileAndRunReducedTest(in directory: URL, scratch: TemporaryDirectory) async throws
        -> ToolRunner.Result
    {
        let products = ToolRunner.binary.deletingLastPathComponent()
        let source = scratch.url.appendingPathComponent("ReducedTest.swift")
        try FileManager.default.copyItem(at: directory.appendingPathComponent("ReducedTest.swift"), to: source)
        let main = try scratch.write(
            "main.swift",
            """
            import Foundation
            import Testing

            @main struct Runner {
                static func main() async {
                    let status: CInt = await Testing.__swiftPMEntryPoint(passing: nil)
                    exit(status)
                }
            }
            """)
        // The objects of the libraries the reduced test uses, as SwiftPM linked them into `replay`
        // (the list quotes a path with spaces): the current ones, never a stale object of a
        // deleted file, and none of the tool's own, which hold its `main`.
        let linked = try String(
            contentsOf: products.appendingPathComponent("replay.product/Objects.LinkFileList"), encoding: .utf8)
        let libraries = ["ChangeLog", "ListAdapter", "ListFormat", "CFileWriteback", "SystemPackage", "CSystem"]
        let objects = linked.split(separator: "\n").map {
            $0.hasPrefix("'") && $0.hasSuffix("'") ? String($0.dropFirst().dropLast()) : String($0)
        }.filter { path in libraries.contains { path.contains("/\($0).build/") } }
        let sources = packageRoot.appendingPathComponent("Sources")
        let executable = scratch.path("reduced-test")
        let compile = try await run(
            "/usr/bin/env",
            [
                "swiftc", "-parse-as-library", source.path, main, "-o", executable,
                "-I", products.appendingPathComponent("Modules").path,
                "-I", sources.appendingPathComponent("CLMDB").path,
                "-I", sources.appendingPathComponent("CXXHash").path,
                "-I", sources.appendingPathComponent("CZstd").path,
                "-Xcc",
                "-fmodule-map-file=" + products.appendingPathComponent("CFileWriteback.build/module.modulemap").path,
                "-Xcc",
                "-fmodule-map-file="
                    + products.resolvingSymlinksInPath().deletingLastPathComponent()  // <scratch>/<triple>/debug
                    .deletingLastPathComponent()
                    .appendingPathComponent("checkouts/swift-system/Sources/CSystem/include/module.modulemap").path,
            ] + objects + ["-llmdb", "-lxxhash", "-lzstd"], in: scratch.url)
        try #require(compile.status == 0, "ReducedTest.swift does not compile: \(compile)")
        #expect(!(compile.stdout + compile.stderr).contains("warning:"), "ReducedTest.swift warns: \(compile)")
        return try await run(executable, [], in: scratch.url)
    }

    private static func run(_ executable: String, _ arguments: [String], in directory: URL) async throws
        -> ToolRunner.Result
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let (output, error) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let errors = ReadAll(error.fileHandleForReading)
        let out = await output.fileHandleForReading.readToEndOffThePool()
        let err = await errors.wait()
        await process.exited()
        return ToolRunner.Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// The built `ChangeLogWorker`, whose `drifting-renderer` command is a predicate.
    static var worker: String {
        ToolRunner.binary.deletingLastPathComponent().appendingPathComponent("ChangeLogWorker").path
    }
}
