import Foundation
import Synchronization

/// A running `ChangeLogWorker` (Tests/ChangeLogWorker), whose output lines are collected as they
/// arrive, each with the time it arrived; ``run(_:)`` runs one to its end. The worker is built
/// with the tests (`swift build --build-tests`) and found beside the test runner.
package final class WorkerProcess: Sendable {
    /// One line the worker printed.
    package struct Line: Sendable {
        /// The line, without its newline.
        package var text: String
        /// When the line arrived.
        package var time: ContinuousClock.Instant
    }

    /// The worker could not be found, did not print what was awaited, or did not exit.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// A worker's run to its end: its termination status and everything it printed.
    package struct Run: Sendable, CustomStringConvertible {
        /// The exit status, or the signal number when it was killed.
        package var status: Int32
        /// Its standard output.
        package var stdout: String
        /// Its standard error.
        package var stderr: String

        package var description: String {
            "status \(status), stdout \(stdout.debugDescription), stderr \(stderr.debugDescription)"
        }
    }

    private struct Output {
        var lines: [Line] = []
        var pending = Data()
        var errors = Data()
        var openStreams = 2
    }

    private let process: Process
    private let output = Mutex(Output())
    /// The worker's standard input, when it was started with one to write to.
    private let input: FileHandle?

    /// The built worker, in the build products directory beside the test runner.
    package static func binary() throws -> URL {
        var directories: [URL] = [
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        ]
        // On macOS the runner sits inside the .xctest bundle; walk up to the products directory.
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            directories.append(directory)
            directory = directory.deletingLastPathComponent()
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent("ChangeLogWorker")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failure(
            description: "ChangeLogWorker was not built next to the tests (looked in \(directories.map(\.path))); "
                + "build it with `swift build --build-tests`")
    }

    /// Starts the worker with `arguments`; with `writableInput`, its standard input is a pipe
    /// that ``send(_:)`` writes to, otherwise it reads nothing (`/dev/null`).
    package init(_ arguments: [String], writableInput: Bool = false) throws {
        process = Process()
        process.executableURL = try Self.binary()
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        if writableInput {
            let stdin = Pipe()
            process.standardInput = stdin
            input = stdin.fileHandleForWriting
        } else {
            process.standardInput = FileHandle.nullDevice
            input = nil
        }
        try process.run()
        startReading(stdout.fileHandleForReading, isStandardOutput: true)
        startReading(stderr.fileHandleForReading, isStandardOutput: false)
    }

    private func startReading(_ handle: FileHandle, isStandardOutput: Bool) {
        let thread = Thread { [self] in
            while true {
                let data = handle.nextChunk()
                let now = ContinuousClock.now
                self.output.withLock { output in
                    if data.isEmpty {
                        output.openStreams -= 1
                    } else if isStandardOutput {
                        output.pending.append(data)
                        while let newline = output.pending.firstIndex(of: UInt8(ascii: "\n")) {
                            let text = String(decoding: output.pending[..<newline], as: UTF8.self)
                            output.lines.append(Line(text: text, time: now))
                            output.pending.removeSubrange(...newline)
                        }
                    } else {
                        output.errors.append(data)
                    }
                }
                if data.isEmpty { return }
            }
        }
        thread.start()
    }

    /// Runs the worker with `arguments` to its end and returns its status and output.
    package static func run(_ arguments: [String]) async throws -> Run {
        let worker = try WorkerProcess(arguments)
        let status = try await worker.waitForExit()
        let stdout = worker.output.withLock { output in
            output.lines.map { $0.text + "\n" }.joined() + String(decoding: output.pending, as: UTF8.self)
        }
        return Run(status: status, stdout: stdout, stderr: worker.errors)
    }

    /// The complete lines printed so far.
    package var lines: [Line] { output.withLock { $0.lines } }
    /// What the worker wrote to standard error so far.
    package var errors: String { output.withLock { String(decoding: $0.errors, as: UTF8.self) } }
    /// The worker's process identifier.
    package var processIdentifier: Int32 { process.processIdentifier }

    /// Writes `line` and a newline to the worker's standard input (started with
    /// `writableInput`).
    package func send(_ line: String) throws {
        guard let input else { throw Failure(description: "the worker was started without writableInput") }
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The first line (from the `after`th on) that satisfies `predicate`, waiting for it. The
    /// timeout is a hang guard, generous enough for a sanitizer build on a loaded machine.
    package func waitForLine(
        after index: Int = 0, timeout: Duration = .seconds(300), _ predicate: (String) -> Bool
    ) async throws -> Line {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (lines, closed) = output.withLock { ($0.lines, $0.openStreams == 0) }
            if let line = lines.dropFirst(index).first(where: { predicate($0.text) }) { return line }
            guard !closed, ContinuousClock.now < deadline else {
                throw Failure(
                    description: "the worker did not print the expected line (exited: \(closed)); it printed "
                        + "\(lines.suffix(5).map(\.text)) and on stderr: \(errors)")
            }
            try await Task.sleep(for: .microseconds(200))
        }
    }

    /// Sends SIGKILL.
    package func kill() {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits until the worker exited and its output was read to the end; returns its
    /// termination status (the signal number when it was killed). Kills it after `timeout`, a
    /// hang guard generous enough for a sanitizer build on a loaded machine.
    @discardableResult
    package func waitForExit(timeout: Duration = .seconds(300)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning || output.withLock({ $0.openStreams > 0 }) {
            guard ContinuousClock.now < deadline else {
                kill()
                throw Failure(description: "the worker did not exit within \(timeout); stderr: \(errors)")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        return process.terminationStatus
    }
}
