import ChangeLogTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `ChangeLogWorker` (Tests/ChangeLogWorker) run to be killed: started with its output going
/// to a file of the test's directory, read back line by line while it runs.
final class KilledWorker {
    private let process: Process
    private let output: URL
    private let errors: URL
    private let exit = AsyncStream<Int32>.makeStream()

    /// Starts the worker with `arguments`, its output into files of `directory`.
    init(_ arguments: [String], in directory: String) throws {
        process = Process()
        process.executableURL = try WorkerProcess.binary()
        process.arguments = arguments
        let name = UUID().uuidString
        output = URL(fileURLWithPath: directory + "/\(name).out")
        errors = URL(fileURLWithPath: directory + "/\(name).err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        let continuation = exit.continuation
        process.terminationHandler = { process in
            continuation.yield(process.terminationStatus)
            continuation.finish()
        }
        try process.run()
    }

    /// The whole lines the worker printed so far.
    var lines: [String] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// What the worker printed to its standard error.
    var errorText: String {
        (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    }

    /// Waits until the worker printed a line `matching`, or ended; whether it printed one.
    /// It looks again every millisecond: how long that takes does not decide the outcome.
    func waitForLine(_ matching: (String) -> Bool) async throws -> Bool {
        while process.isRunning {
            if lines.contains(where: matching) { return true }
            try await Task.sleep(for: .milliseconds(1))
        }
        return lines.contains(where: matching)
    }

    /// Sends SIGKILL.
    func kill() {
        #if canImport(Glibc)
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
        #else
            _ = Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
    }

    /// Waits for the worker's end; its status (the signal's number when a signal ended it).
    func waitForExit() async -> Int32 {
        for await status in exit.stream { return status }
        return process.terminationStatus
    }
}
