import BenchmarkSupport
import ChangeLog
import ChangeLogServer
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `CLOCK_MONOTONIC` in nanoseconds.
func monotonicNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

struct SetupFailure: Error, CustomStringConvertible {
    let description: String
}

/// The server benchmarks' data: a list of 1,000 items in 10 sections, from a fixed seed; each
/// revision gives 4 items a new summary and moves 1 to a random place.
struct ServerWorkload {
    private var sections: [LogSnapshot.Section]
    private var rng = SplitMix64(seed: 7)

    init() {
        sections = (0..<10).map { section in
            LogSnapshot.Section(
                title: "Section \(section)",
                items: (0..<100).map { LogSnapshot.Item(id: "item-\(section * 100 + $0)", summary: "v0") })
        }
    }

    var snapshot: LogSnapshot { try! LogSnapshot(sections: sections) }

    mutating func next() -> LogSnapshot {
        for _ in 0..<4 {
            let section = Int.random(in: 0..<sections.count, using: &rng)
            let item = Int.random(in: 0..<sections[section].items.count, using: &rng)
            sections[section].items[item].summary = String(rng.next(), radix: 16)
        }
        let from = Int.random(in: 0..<sections.count, using: &rng)
        guard !sections[from].items.isEmpty else { return snapshot }
        let moved = sections[from].items.remove(at: Int.random(in: 0..<sections[from].items.count, using: &rng))
        let to = Int.random(in: 0..<sections.count, using: &rng)
        sections[to].items.insert(moved, at: Int.random(in: 0...sections[to].items.count, using: &rng))
        return snapshot
    }
}

/// A log in a temporary directory, a `LogServer` on it listening on a loopback port, and
/// whatever a benchmark keeps between its setup, samples and teardown.
struct ServedLog: Sendable {
    let directory: String
    let log: ChangeLog
    let port: Int
    let server: Task<Void, any Error>
    var workload: ServerWorkload
    var clients: EventStreamClients?
    /// The in-process subscription of the baseline case, and when its revisions reached it.
    var inProcess: Task<Void, any Error>?
    var inProcessReceipts: Receipts?

    /// A log holding the workload's first `revisions` snapshots, served on a free port.
    static func start(_ label: String, revisions: Int, durability: ChangeLog.Durability) async throws -> ServedLog {
        raiseDescriptorLimit()
        let directory = NSTemporaryDirectory() + "/listchangelog-bench-\(label)-\(UUID().uuidString)"
        var workload = ServerWorkload()
        let log = try ChangeLog(path: directory, options: .init(durability: durability))
        var snapshots = [workload.snapshot]
        while snapshots.count < revisions { snapshots.append(workload.next()) }
        _ = try await log.append(contentsOf: snapshots.map { ChangeLog.AppendEntry($0) })
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let server = LogServer(log: log, configuration: ServerConfiguration(port: 0))
        let task = Task {
            try await server.run { url in
                listening.yield(Int(url.split(separator: ":").last!.dropLast()) ?? 0)
                listening.finish()
            }
        }
        var port = 0
        for await value in ports { port = value }
        guard port > 0 else { throw SetupFailure(description: "the server did not start") }
        return ServedLog(directory: directory, log: log, port: port, server: task, workload: workload)
    }

    /// Stops the clients and the server, and removes the log.
    func stop() async {
        clients?.stop()
        inProcess?.cancel()
        server.cancel()
        _ = await server.result
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The server and the clients of 1,000 subscribers share this process: two descriptors each.
    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 8192 {
            limit.rlim_cur = min(limit.rlim_max, 8192)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }
}

/// State shared between a benchmark's setup, samples and teardown, which run one after another.
final class Fixture: Sendable {
    private let state = Mutex<ServedLog?>(nil)

    func set(_ value: ServedLog?) { state.withLock { $0 = value } }

    var value: ServedLog { state.withLock { $0! } }

    func update<Result>(_ body: (inout ServedLog) -> Result) -> Result { state.withLock { body(&$0!) } }
}
