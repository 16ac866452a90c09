import BenchmarkSupport
import ChangeLog
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory: Sendable {
    let path: String

    init(_ label: String) {
        var template = Array((NSTemporaryDirectory() + "/listchangelog-bench-\(label)-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "cannot create a temporary directory under \(NSTemporaryDirectory())")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A subdirectory path (not created).
    func appending(_ name: String) -> String { path + "/" + name }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// `CLOCK_MONOTONIC` in nanoseconds: one clock for every process of the machine, so a time taken
/// in one process can be compared with a time taken in another.
func monotonicNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

/// Nanoseconds elapsed while `body` ran.
func nanoseconds(_ body: () async throws -> Void) async rethrows -> Int {
    let start = monotonicNanoseconds()
    try await body()
    return monotonicNanoseconds() - start
}

/// Mutable state shared between a benchmark's setup, its samples and its teardown, which run
/// one after the other.
final class Fixture<State: Sendable>: Sendable {
    private let state = Mutex<State?>(nil)

    func set(_ value: State?) {
        state.withLock { $0 = value }
    }

    /// The state; a benchmark's samples run only after its setup stored it.
    var value: State {
        state.withLock { $0! }
    }

    /// Runs `body` on the state, under the lock.
    func update<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLock { body(&$0!) }
    }
}

/// How many bytes a revision adds to the log, for the churn workload: the growth of the pages in
/// use in `data.mdb` (not of the file, which keeps zeros ahead of them) over `revisions`
/// revisions appended one per transaction, divided by `revisions`, measured in a scratch log
/// (relaxed durability: the pages written are the same, only the flushes differ).
func measureBytesPerRevision(revisions: Int = 500, batched: Bool = false) async throws -> Int {
    let directory = TemporaryDirectory("size")
    defer { directory.remove() }
    var workload = ChurnWorkload()
    let log = try ChangeLog(path: directory.appending("log"), options: .init(durability: .noSync))
    _ = try await log.append(workload.snapshot)
    let snapshots = workload.next(revisions)
    try log.flush()
    let before = log.bytesInUse
    if batched {
        _ = try await log.append(contentsOf: snapshots.map { ChangeLog.AppendEntry($0) })
    } else {
        for snapshot in snapshots {
            _ = try await log.append(snapshot)
        }
    }
    try log.flush()
    return (log.bytesInUse - before) / revisions
}

/// A value of `count` bytes that does not compress trivially.
func payload(_ count: Int) -> [UInt8] {
    var rng = SplitMix64(seed: 7)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
}
