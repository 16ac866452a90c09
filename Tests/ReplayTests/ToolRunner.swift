import ChangeLogTestSupport
import Foundation
import SystemPackage
import Testing

/// Runs the built `replay` binary as a subprocess and captures what it prints. Every wait for a
/// child runs off Swift concurrency's cooperative threads (``offThePool(_:)``), which the tests
/// and the servers under test share.
enum ToolRunner {
    struct Result: CustomStringConvertible, Sendable {
        var status: Int32
        var stdout: String
        var stderr: String

        var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
    }

    /// The `replay` executable in the same build products directory as the test bundle.
    static let binary: URL = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        for directory in candidates {
            var current = directory
            for _ in 0..<4 {
                let candidate = current.appendingPathComponent("replay")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue, FileManager.default.isExecutableFile(atPath: candidate.path)
                {
                    return candidate
                }
                current = current.deletingLastPathComponent()
            }
        }
        return URL(fileURLWithPath: ".build/debug/replay")
    }()

    /// Copies the binary to `path`, through `cp`: a file this process held open for writing
    /// would be inherited by every child another test forks meanwhile, and running the copy
    /// would then fail with "Text file busy" for as long as that child lives.
    static func copyBinary(to path: String) async throws {
        let source = binary.path
        let status = try await offThePool {
            let cp = Process()
            cp.executableURL = URL(fileURLWithPath: "/bin/cp")
            cp.arguments = [source, path]
            try cp.run()
            cp.waitUntilExit()
            return cp.terminationStatus
        }
        try #require(status == 0, "cp \(source) \(path) failed")
    }

    /// Runs `replay` with `arguments`, feeding `input` on standard input, and waits for it.
    ///
    /// - Parameter launcher: when not empty, a command and its arguments that run `replay`
    ///   (`setpriv … /path/to/replay`): `arguments` are appended to it.
    static func run(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
        directory: URL? = nil, launcher: [String] = []
    ) async throws -> Result {
        try await offThePool {
            try runBlocking(arguments, input: input, environment: environment, directory: directory, launcher: launcher)
        }
    }

    /// ``run(_:input:environment:directory:launcher:)``, blocking the calling thread: only for
    /// what cannot await (a trait's condition), never in a test's body.
    static func runBlocking(
        _ arguments: [String], input: String? = nil, environment: [String: String] = [:], directory: URL? = nil,
        launcher: [String] = []
    ) throws -> Result {
        let process = try start(arguments, environment: environment, directory: directory, launcher: launcher)
        // Write the input and read both outputs concurrently, so that no full pipe blocks either
        // side, whatever order the child reads and writes in.
        let written = WriteAll(Array((input ?? "").utf8), to: process.stdin.fileHandleForWriting)
        let errorData = ReadAll(process.stderr.fileHandleForReading)
        let out = process.stdout.fileHandleForReading.readToEndRetryingInterruptions()
        let err = errorData.waitBlocking()
        try written.waitBlocking()
        process.process.waitUntilExit()
        return Result(
            status: process.process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// Runs the tool with `arguments` under a file-size limit of `bytes` (`RLIMIT_FSIZE`, set by
    /// util-linux's `prlimit`, which Debian always installs): writes past it fail, as on a
    /// full disk.
    static func run(_ arguments: [String], input: String? = nil, fileSizeLimit bytes: Int) async throws -> Result {
        let prlimit = "/usr/bin/prlimit"
        try #require(FileManager.default.isExecutableFile(atPath: prlimit), "prlimit (util-linux) sets the limit")
        return try await run(arguments, input: input, launcher: [prlimit, "--fsize=\(bytes)", binary.path])
    }

    /// Whether ``runOnTerminal(_:)`` can run here: util-linux's `script` gives the tool a
    /// terminal. Under CI (`CI=true`) the tests that need it always run, and fail without it.
    static let canRunOnTerminal =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
        || ProcessInfo.processInfo.environment["CI"] == "true"

    /// Why a test that needs a terminal is skipped where ``canRunOnTerminal`` is false.
    static let terminalRequirement: Comment = "needs util-linux's /usr/bin/script to give the tool a terminal"

    /// Runs `replay` with `arguments` (joined by spaces into one shell command) on a terminal that
    /// util-linux's `script` gives it, and returns what the terminal showed.
    static func runOnTerminal(_ arguments: [String]) async throws -> String {
        let command = ([binary.path] + arguments).joined(separator: " ")
        return try await offThePool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", command, "/dev/null"]
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let shown = String(decoding: output.fileHandleForReading.readToEndRetryingInterruptions(), as: UTF8.self)
            process.waitUntilExit()
            return shown
        }
    }

    /// A started `replay` process with its pipes.
    struct Running {
        let process: Process
        let stdin: Pipe
        let stdout: Pipe
        let stderr: Pipe
    }

    /// Starts `replay` with `arguments` without waiting for it.
    static func start(
        _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil, launcher: [String] = []
    ) throws -> Running {
        let process = Process()
        process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? binary
        process.arguments = launcher.dropFirst() + arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "REPLAY_LOG")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let running = Running(process: process, stdin: Pipe(), stdout: Pipe(), stderr: Pipe())
        process.standardInput = running.stdin
        process.standardOutput = running.stdout
        process.standardError = running.stderr
        try process.run()
        return running
    }
}

/// Reads a file handle to its end on a background thread.
final class ReadAll: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readToEndRetryingInterruptions()
            done.signal()
        }
    }

    /// Waits, blocking the calling thread, until the handle was read to its end.
    func waitBlocking() -> Data {
        done.wait()
        return data
    }

    /// Waits, off the cooperative pool, until the handle was read to its end.
    func wait() async -> Data {
        await offThePool {
            self.done.wait()
            return self.data
        }
    }
}

/// Writes bytes to a pipe on a background thread, then closes it (unless `closing` is false). A
/// child that exits, or closes its standard input, before reading everything is not a failure:
/// the rest of the input is dropped, as a shell pipeline drops it.
final class WriteAll: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var failure: (any Error)?

    init(_ bytes: [UInt8], to handle: FileHandle, closing: Bool = true) {
        Thread.detachNewThread { [self] in
            // A write to a pipe without a reader raises SIGPIPE in the writing thread, whose
            // default action ends the whole test process. Blocked in this thread only (children
            // and other threads keep their own masks), it leaves the write failing with EPIPE;
            // the pending signal is discarded when the thread ends.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            do {
                _ = try FileDescriptor(rawValue: handle.fileDescriptor).writeAll(bytes)
            } catch Errno.brokenPipe {
                // The child stopped reading.
            } catch {
                failure = error
            }
            if closing {
                do { try handle.close() } catch { failure = failure ?? error }
            }
            done.signal()
        }
    }

    /// Waits, blocking the calling thread, until the bytes were written (or refused by a child
    /// that stopped reading) and the pipe closed; rethrows any other failure to write.
    func waitBlocking() throws {
        done.wait()
        if let failure { throw failure }
    }

    /// ``waitBlocking()``, off the cooperative pool.
    func wait() async throws {
        await offThePool { self.done.wait() }
        if let failure { throw failure }
    }
}

/// A temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("replay-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ name: String, _ contents: String) throws -> String {
        let path = path(name)
        try contents.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Replaces every FORMAT.md time (`2026-11-20T10:00:00.000Z`) with `<time>`, so output with
/// append times can be compared exactly.
func maskingTimes(_ text: String) -> String {
    text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/, with: "<time>")
}
