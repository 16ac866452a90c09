import Foundation
import Testing

/// The runner itself: feeding input to a child must not harm the test process, and waiting for
/// one must not hold a thread the other tests and the servers under test need.
@Suite("Tool runner")
struct ToolRunnerTests {
    /// `--version` reads no input and exits; the input, far more than a pipe holds, then meets a
    /// pipe without a reader (SIGPIPE, which by default ends the test process).
    @Test("a child that exits without reading its input leaves the runner running")
    func childExitsBeforeReadingInput() async throws {
        let input = String(repeating: "{\"sections\": []}\n", count: 1 << 18)
        for _ in 0..<3 {
            let result = try await ToolRunner.run(["--version"], input: input)
            #expect(result.status == 0, "\(result)")
            #expect(!result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        }
    }

    /// More children than the cooperative pool has threads each wait until this test, a task on
    /// that pool, tells them to end. A runner that waited on a thread of the pool would take
    /// every thread before the test could run again: the children would end only when their
    /// own bound ran out, with status 124.
    @Test("children waited for hold no thread of the cooperative pool")
    func waitsOffThePool() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let count = ProcessInfo.processInfo.activeProcessorCount + 1
        let release = directory.path("release")
        try await withThrowingTaskGroup(of: ToolRunner.Result.self) { group in
            for child in 0..<count {
                let script =
                    "touch '\(directory.path("started-\(child)"))'; "
                    + "timeout 120 sh -c 'while [ ! -e \"$0\" ]; do sleep 0.01; done' '\(release)'"
                group.addTask { try await ToolRunner.run([], launcher: ["/bin/sh", "-c", script]) }
            }
            while (0..<count).contains(where: {
                !FileManager.default.fileExists(atPath: directory.path("started-\($0)"))
            }) {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(FileManager.default.createFile(atPath: release, contents: nil))
            for try await result in group {
                #expect(result.status == 0, "\(result)")
            }
        }
    }
}
