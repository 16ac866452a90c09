import Foundation
import Testing

/// Input that never ends, such as `/dev/zero`: JSON never holds a NUL byte, so the first one
/// refuses the input, and the tool stops reading there instead of reading until memory runs
/// out.
@Suite("Endless input")
struct EndlessInputTests {
    @Test(
        "a NUL byte in input that is still coming refuses it at once",
        arguments: [
            (["import", "-"], #"replay: standard input, line 2, column 1: not valid JSON: invalid value ("\u{0}"#),
            (
                ["diff", "-"],
                #"replay: standard input: line 2, column 1: not valid JSON: text after the value ("\u{0}"#
            ),
        ])
    func nulInEndlessInput(command: [String], message: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        let other = try directory.write("other.json", #"{"sections": []}"#)
        let arguments = command + (command[0] == "import" ? ["--log", log] : [other])
        let running = try ToolRunner.start(arguments)
        let errors = ReadAll(running.stderr.fileHandleForReading)
        let process = running.process
        // A hang guard, not a time limit: the input is never closed, so a tool that reads on
        // never ends, and the expectations below then fail.
        DispatchQueue.global().asyncAfter(deadline: .now() + 300) {
            if process.isRunning { process.terminate() }
        }
        // Less than a pipe holds: the write never waits for the tool to read.
        let input = running.stdin.fileHandleForWriting
        try input.write(contentsOf: Data(#"{"sections": []}"#.utf8) + Data([0x0A]) + Data(count: 60_000))
        await process.exited()
        try? input.close()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 2)
        #expect(String(decoding: await errors.wait(), as: UTF8.self).hasPrefix(message))
        #expect(!FileManager.default.fileExists(atPath: log))
    }
}
