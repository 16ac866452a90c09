import Testing

/// The runner itself: feeding input to a child must not harm the test process.
@Suite("Tool runner")
struct ToolRunnerTests {
    /// `--version` reads no input and exits; the input, far more than a pipe holds, then meets a
    /// pipe without a reader (SIGPIPE, which by default ends the test process).
    @Test("a child that exits without reading its input leaves the runner running")
    func childExitsBeforeReadingInput() throws {
        let input = String(repeating: "{\"sections\": []}\n", count: 1 << 18)
        for _ in 0..<3 {
            let result = try ToolRunner.run(["--version"], input: input)
            #expect(result.status == 0, "\(result)")
            #expect(!result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        }
    }

}
