import ChangeLogTestSupport
import Foundation
import Synchronization
import Testing

/// A running `ChangeLogWorker` (Tests/ChangeLogWorker), whose output lines are collected as they
/// arrive, each with the time it arrived.
final class WorkerProcess: Sendable {
    /// One line the worker printed.
    struct Line: Sendable {
        var text: String
        var time: ContinuousClock.Instant
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private struct Output {
        var lines: [Line] = []
        var pending = Data()
        var errors = Data()
        var openStreams = 2
    }

    private let process: Process
    private let output = Mutex(Output())

    /// The built worker, in the build products directory beside the test runner.
    static func binary() throws -> URL {
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

    /// Starts the worker with `arguments`.
    init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = try Self.binary()
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
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

    /// The complete lines printed so far.
    var lines: [Line] { output.withLock { $0.lines } }
    /// What the worker wrote to standard error so far.
    var errors: String { output.withLock { String(decoding: $0.errors, as: UTF8.self) } }
    /// The worker's process identifier.
    var processIdentifier: Int32 { process.processIdentifier }

    /// The first line (from the `after`th on) that satisfies `predicate`, waiting for it. The
    /// timeout is a hang guard, generous enough for a sanitizer build on a loaded machine.
    func waitForLine(
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
    func kill() {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits until the worker exited and its output was read to the end; returns its
    /// termination status (the signal number when it was killed). Kills it after `timeout`, a
    /// hang guard generous enough for a sanitizer build on a loaded machine.
    @discardableResult
    func waitForExit(timeout: Duration = .seconds(300)) async throws -> Int32 {
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
