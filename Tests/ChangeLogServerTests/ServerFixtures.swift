import ChangeLog
import Foundation
import Hummingbird
import ServiceLifecycle
import Synchronization

@testable import ChangeLogServer

/// Logs in temporary directories and servers running on them, for the server's tests.
enum ServerFixtures {
    /// A new empty log in a temporary directory, removed after `body`.
    static func withLog<T>(_ body: (ChangeLog) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "changelog-server-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try ChangeLog(path: directory.path, options: .init(durability: .noSync))
        return try await body(log)
    }

    /// The snapshot of revision `n` of the test histories: two sections whose items change with `n`.
    static func snapshot(_ n: Int, itemsPerSection: Int = 3) throws -> LogSnapshot {
        try LogSnapshot(sections: [
            .init(title: "Inbox", items: (0..<itemsPerSection).map { .init(id: "in-\($0)", summary: "v\(n)") }),
            .init(title: "Done", items: (0..<n).map { .init(id: "done-\($0)") }),
        ])
    }

    /// Appends revisions `from...to` of the test history (`to` must be the next ones).
    static func append(_ range: ClosedRange<Int>, to log: ChangeLog, itemsPerSection: Int = 3) async throws {
        for n in range {
            _ = try await log.append(snapshot(n, itemsPerSection: itemsPerSection), meta: ["n": "\(n)", "path": "a/b"])
        }
    }

    /// Runs `server` on 127.0.0.1 with a system-chosen port (whatever its configuration says) while `body` runs with that port,
    /// then shuts it down gracefully, as SIGTERM would.
    static func withRunningServer<T: Sendable>(
        _ server: LogServer, _ body: @Sendable (Int) async throws -> T
    ) async throws -> T {
        var configuration = server.configuration
        configuration.port = 0
        let port = PortBox()
        let application = try LogServer(log: server.log, configuration: configuration).application { url in
            port.set(Int(url.split(separator: ":").last!.dropLast())!)
        }
        let group = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: application.logger))
        return try await withThrowingTaskGroup { tasks in
            tasks.addTask {
                // A server that cannot start (or stops) releases a test waiting for its port.
                defer { port.set(0) }
                try await group.run()
            }
            do {
                let listening = await port.value()
                guard listening > 0 else {
                    try await tasks.waitForAll()
                    throw LogServerError("the server stopped before it listened")
                }
                let value = try await body(listening)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return value
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
        }
    }
}

/// The port a server reports once it listens, awaited by the test.
final class PortBox: Sendable {
    private let state = Mutex<(Int?, [CheckedContinuation<Int, Never>])>((nil, []))

    /// Sets the port once (0: the server stopped without listening); later calls do nothing.
    func set(_ port: Int) {
        let waiting = state.withLock { state in
            if state.0 != nil { return [CheckedContinuation<Int, Never>]() }
            state.0 = port
            defer { state.1 = [] }
            return state.1
        }
        for continuation in waiting { continuation.resume(returning: port) }
    }

    func value() async -> Int {
        await withCheckedContinuation { continuation in
            let port = state.withLock { state in
                if state.0 == nil { state.1.append(continuation) }
                return state.0
            }
            if let port { continuation.resume(returning: port) }
        }
    }
}
