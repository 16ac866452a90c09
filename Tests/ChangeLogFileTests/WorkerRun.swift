import Foundation

/// A run of `ChangeLogWorker` (Tests/ChangeLogWorker) to its end: its status and output.
struct WorkerRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs the worker built beside the tests with `arguments`, its output into files of
    /// `directory`, and waits for it to exit without blocking a thread.
    static func run(_ arguments: [String], in directory: String) async throws -> WorkerRun {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        let name = UUID().uuidString
        let out = URL(fileURLWithPath: directory + "/\(name).out")
        let err = URL(fileURLWithPath: directory + "/\(name).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        let status = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return WorkerRun(
            status: status, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// The worker, in the build products directory beside the test runner.
    static func binary() throws -> URL {
        var directories = [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()]
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            directories.append(directory)
            directory = directory.deletingLastPathComponent()
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent("ChangeLogWorker")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "ChangeLogWorker"])
    }
}
