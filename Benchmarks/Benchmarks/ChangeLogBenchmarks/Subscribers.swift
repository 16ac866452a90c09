import ChangeLog
import ChangeLogPostgres
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The annotation that carries the time an append started (``monotonicNanoseconds()``), so a
/// subscriber, in this process or another, can tell how long the revision took to reach it.
let appendStartKey = "bench.appendStart"

/// Latencies, in nanoseconds, handed from a subscriber to the benchmark that waits for them.
/// `-1` says that the subscriber has caught up and waits for live revisions.
final class LatencyInbox: Sendable {
    private struct State {
        var values: [Int] = []
        var waiter: (id: Int, continuation: CheckedContinuation<Int?, Never>)?
        var nextWaiterID = 0
    }

    private let state = Mutex(State())

    func push(_ value: Int) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.values.append(value)
                return CheckedContinuation<Int?, Never>?.none
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: value)
    }

    /// The next latency, or `nil` when none arrives within `timeout`. One waiter at a time.
    func next(timeout: Duration = .seconds(10)) async -> Int? {
        await withCheckedContinuation { continuation in
            let (ready, id) = state.withLock { state -> (Int?, Int) in
                if !state.values.isEmpty { return (state.values.removeFirst(), -1) }
                state.nextWaiterID += 1
                state.waiter = (state.nextWaiterID, continuation)
                return (nil, state.nextWaiterID)
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = self.state.withLock { state in
                    guard let waiter = state.waiter, waiter.id == id else {
                        return CheckedContinuation<Int?, Never>?.none
                    }
                    state.waiter = nil
                    return waiter.continuation
                }
                expired?.resume(returning: nil)
            }
        }
    }
}

/// Subscribes to `log` from `revision` in this process and pushes each revision's latency.
func subscribeInProcess(_ log: ChangeLog, from revision: UInt64, into inbox: LatencyInbox) -> Task<Void, Never> {
    Task.detached {
        do {
            for try await event in log.subscribe(from: revision) {
                switch event {
                case .caughtUp:
                    inbox.push(-1)
                case .revision(let record):
                    if let start = record.meta[appendStartKey].flatMap(Int.init) {
                        inbox.push(monotonicNanoseconds() - start)
                    }
                }
            }
        } catch {
            FileHandle.standardError.write(Data("in-process subscriber failed: \(error)\n".utf8))
        }
    }
}

/// The environment variables that turn the benchmark executable into a subscriber process.
enum SubscriberProcess {
    static let logVariable = "LISTCHANGELOG_BENCH_SUBSCRIBER_LOG"
    static let fromVariable = "LISTCHANGELOG_BENCH_SUBSCRIBER_FROM"

    /// A subscriber in another process: this benchmark executable, started again with
    /// ``logVariable`` set to the log's path or PostgreSQL URL. It prints `ready` once caught up, then one latency per revision, in
    /// nanoseconds, one per line; it exits when its standard input closes.
    final class Child: Sendable {
        private let process: Process
        private let input: Pipe

        init(log path: String, from revision: UInt64, into inbox: LatencyInbox) throws {
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = []
            var environment = ProcessInfo.processInfo.environment
            environment[logVariable] = path
            environment[fromVariable] = String(revision)
            process.environment = environment
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            self.process = process
            self.input = input
            let descriptor = output.fileHandleForReading.fileDescriptor
            Thread.detachNewThread {
                var pending: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count <= 0 { return }
                    pending += buffer[0..<count]
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: pending[..<newline], as: UTF8.self)
                        pending.removeSubrange(...newline)
                        if line == "ready" {
                            inbox.push(-1)
                        } else if let latency = Int(line) {
                            inbox.push(latency)
                        }
                    }
                }
            }
        }

        func stop() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    /// When this process was started as a subscriber, runs it and never returns.
    static func runIfRequested() {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment[logVariable] else { return }
        let from = environment[fromVariable].flatMap(UInt64.init) ?? 1
        // The parent closes our standard input when it is done (or dies): then exit.
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(0, &byte, 1) > 0 {}
            exit(0)
        }
        let log: ChangeLog
        do {
            // A PostgreSQL log's URL may hold its password: the error names the log without it.
            if PostgresLogAddress.isPostgresURL(path) {
                log = try ChangeLog(url: path, options: .init(createIfMissing: false))
            } else {
                log = try ChangeLog(path: path, options: .init(createIfMissing: false))
            }
        } catch {
            FileHandle.standardError.write(Data("subscriber cannot open its log: \(error)\n".utf8))
            exit(1)
        }
        Task.detached {
            do {
                for try await event in log.subscribe(from: from) {
                    switch event {
                    case .caughtUp:
                        FileHandle.standardOutput.write(Data("ready\n".utf8))
                    case .revision(let record):
                        if let start = record.meta[appendStartKey].flatMap(Int.init) {
                            FileHandle.standardOutput.write(Data("\(monotonicNanoseconds() - start)\n".utf8))
                        }
                    }
                }
            } catch {
                FileHandle.standardError.write(Data("subscriber failed: \(error)\n".utf8))
                exit(1)
            }
        }
        while true {
            sleep(60)
        }
    }
}
