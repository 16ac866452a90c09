import Benchmark
import ChangeLog
import Foundation
import ListAdapter
import ListFormat
import RawLMDB
import Synchronization

// The ChangeLog beside raw LMDB, in the same run. Every log and raw environment lives in a
// temporary directory made by the benchmark's setup and removed by its teardown. Logs use the
// default, durable mode unless a case says otherwise; raw LMDB uses LMDB's default flags, so its
// commits are durable too.
//
// Throughput cases report `revisions/s` (for raw LMDB: puts/s of a revision's bytes) and, for
// imports, kB/s. Setup work (making snapshots, counting bytes) is outside the measurement.

let revisionsPerSecond = BenchmarkMetric.custom("revisions/s", polarity: .prefersLarger, useScalingFactor: false)
let storedBytesPerSecond = BenchmarkMetric.custom("stored kB/s", polarity: .prefersLarger, useScalingFactor: false)
let jsonBytesPerSecond = BenchmarkMetric.custom(
    "interchange JSON kB/s", polarity: .prefersLarger, useScalingFactor: false)
let bytesPerRevision = BenchmarkMetric.custom("bytes/revision", polarity: .prefersSmaller, useScalingFactor: false)
let valueBytes = BenchmarkMetric.custom("bytes/put", polarity: .prefersSmaller, useScalingFactor: false)
let latencyMicroseconds = BenchmarkMetric.custom("latency (μs)", polarity: .prefersSmaller, useScalingFactor: false)
let appendMicroseconds = BenchmarkMetric.custom("append (μs)", polarity: .prefersSmaller, useScalingFactor: false)

/// Every custom metric, shown as plain numbers (not scaled to K or M, which rounds them).
let customMetrics = [
    revisionsPerSecond, storedBytesPerSecond, jsonBytesPerSecond, bytesPerRevision, valueBytes, latencyMicroseconds,
    appendMicroseconds, groupCommitSpeedup, pairedSingleMicroseconds, pairedConcurrentMicroseconds, importShareOfRaw,
    pairedImportMilliseconds, pairedRawMilliseconds, changesShareOfRaw, changesSpeedupOverRecords,
    pairedChangesMicroseconds, pairedBaselineMicroseconds, catchUpSpeedup, pairedCatchUpMilliseconds,
    pairedRehashingMilliseconds, indexSharePerMille, appendWithIndexPerMille, scanOverIndex,
]

/// Kilobytes (1,000 bytes) per second for `bytes` bytes in `nanoseconds`.
func kilobytesPerSecond(_ bytes: Int, _ nanoseconds: Int) -> Int {
    Int((Double(bytes) * 1e6 / Double(max(1, nanoseconds))).rounded())
}

/// Revisions per second for `count` revisions in `nanoseconds`.
func rate(_ count: Int, _ nanoseconds: Int) -> Int {
    Int((Double(count) * 1e9 / Double(max(1, nanoseconds))).rounded())
}

// MARK: - Fixtures

/// Hands out 0, 1, 2, ... to concurrent tasks.
final class Counter: Sendable {
    private let next = Atomic<Int>(0)

    func take() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }
}

struct SetupFailure: Error, CustomStringConvertible {
    let description: String
}

struct AppendState: Sendable {
    var directory: TemporaryDirectory
    var log: ChangeLog
    var workload: ChurnWorkload
}

struct RawState: Sendable {
    var directory: TemporaryDirectory
    var raw: RawLMDB
    var value: [UInt8]
}

struct ReadState: Sendable {
    var directory: TemporaryDirectory
    var log: ChangeLog
    var bytesPerRevision: Int
}

struct LatencyState: Sendable {
    var directory: TemporaryDirectory
    var log: ChangeLog
    var workload: ChurnWorkload
    var inbox: LatencyInbox
    var subscriber: Task<Void, Never>?
    var child: SubscriberProcess.Child?
}

let appending = Fixture<AppendState>()
let rawWriting = Fixture<RawState>()
let reading = Fixture<ReadState>()
let latency = Fixture<LatencyState>()

/// The number of revisions the import and catch-up read cases handle per sample.
let revisionsPerBatch = 1_000
/// The number of revisions verified per sample (verification reads and applies each one).
let revisionsPerVerify = 250
/// The number of revisions the 8 concurrent appenders append per sample, between them.
let concurrentRevisionsPerSample = 64

/// A log with the churn workload's first snapshot as revision 1.
func makeAppendState(_ label: String, durability: ChangeLog.Durability = .durable) async throws -> AppendState {
    let directory = TemporaryDirectory(label)
    var workload = ChurnWorkload()
    let log = try ChangeLog(path: directory.appending("log"), options: .init(durability: durability))
    _ = try await log.append(workload.snapshot)
    _ = workload.next()
    return AppendState(directory: directory, log: log, workload: workload)
}

func makeRawState(_ label: String, valueSize: Int) throws -> RawState {
    let directory = TemporaryDirectory(label)
    return RawState(directory: directory, raw: try RawLMDB(directory: directory.path), value: payload(valueSize))
}

/// A log of 1,000 churn revisions appended one per transaction (relaxed mode, then flushed:
/// the same pages as durable appends), and the growth of its pages in use per revision.
func makeReadState() async throws -> ReadState {
    var state = try await makeAppendState("read", durability: .noSync)
    try state.log.flush()
    let before = state.log.bytesInUse
    for _ in 1..<revisionsPerBatch {
        _ = try await state.log.append(state.workload.next())
    }
    try state.log.flush()
    let growth = (state.log.bytesInUse - before) / (revisionsPerBatch - 1)
    return ReadState(directory: state.directory, log: state.log, bytesPerRevision: growth)
}

func tearDownAppending() {
    appending.value.directory.remove()
    appending.set(nil)
}

func tearDownRaw() {
    rawWriting.value.directory.remove()
    rawWriting.set(nil)
}

let benchmarks: @Sendable () -> Void = {
    // The cross-process latency case runs this executable again as its subscriber.
    SubscriberProcess.runIfRequested()

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput],
        timeUnits: .microseconds,
        units: Dictionary(
            uniqueKeysWithValues: (customMetrics + fileEngineMetrics + postgresMetrics).map { ($0, .count) }),
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )
    registerAppendBenchmarks()
    registerImportBenchmarks()
    registerEditAppendBenchmarks()
    registerReadingBenchmarks()
    registerLiveChangesBenchmarks()
    registerCatchUpBenchmarks()
    registerHistoryBenchmarks()
    registerFileEngineBenchmarks()
    registerRecordingHoldBenchmarks()
    registerPostgresBenchmarks()

    Benchmark(
        "raw LMDB: 1 put per durable transaction, bytes of a churn revision",
        configuration: .init(metrics: [.wallClock, revisionsPerSecond, valueBytes], maxIterations: 300)
    ) { benchmark in
        let state = rawWriting.value
        benchmark.startMeasurement()
        let elapsed = try await nanoseconds { try state.raw.putEachInOwnTransaction(count: 1, value: state.value) }
        benchmark.stopMeasurement()
        benchmark.measurement(revisionsPerSecond, rate(1, elapsed))
        benchmark.measurement(valueBytes, state.value.count)
    } setup: {
        rawWriting.set(try makeRawState("raw1", valueSize: try await measureBytesPerRevision()))
    } teardown: {
        tearDownRaw()
    }

    // MARK: Import: many revisions in one transaction

    /// Puts `revisionsPerBatch` copies of the raw state's value in one durable transaction,
    /// reporting puts/s and the value bytes/s under `bytesMetric`.
    func putBatch(_ benchmark: Benchmark, bytesMetric: BenchmarkMetric) async throws {
        let state = rawWriting.value
        benchmark.startMeasurement()
        let elapsed = try await nanoseconds {
            try state.raw.putInOneTransaction(count: revisionsPerBatch, value: state.value)
        }
        benchmark.stopMeasurement()
        benchmark.measurement(revisionsPerSecond, rate(revisionsPerBatch, elapsed))
        benchmark.measurement(bytesMetric, kilobytesPerSecond(revisionsPerBatch * state.value.count, elapsed))
        benchmark.measurement(valueBytes, state.value.count)
    }

    Benchmark(
        "import: append(contentsOf:) \(revisionsPerBatch) revisions in one durable transaction",
        configuration: .init(
            metrics: [.wallClock, revisionsPerSecond, storedBytesPerSecond, jsonBytesPerSecond, bytesPerRevision],
            // Making each sample's 1,000 snapshots is not measured but takes time: allow 10 samples.
            timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 10)
    ) { benchmark in
        let (log, snapshots) = appending.update { state in (state.log, state.workload.next(revisionsPerBatch)) }
        let entries = snapshots.map { ChangeLog.AppendEntry($0) }
        let jsonBytes = snapshots.reduce(0) { $0 + $1.formatJSON().utf8.count }
        let before = log.bytesInUse
        benchmark.startMeasurement()
        let elapsed = try await nanoseconds { _ = try await log.append(contentsOf: entries) }
        benchmark.stopMeasurement()
        let stored = log.bytesInUse - before
        benchmark.measurement(revisionsPerSecond, rate(revisionsPerBatch, elapsed))
        benchmark.measurement(storedBytesPerSecond, kilobytesPerSecond(stored, elapsed))
        benchmark.measurement(jsonBytesPerSecond, kilobytesPerSecond(jsonBytes, elapsed))
        benchmark.measurement(bytesPerRevision, stored / revisionsPerBatch)
    } setup: {
        appending.set(try await makeAppendState("import"))
    } teardown: {
        tearDownAppending()
    }

    Benchmark(
        "raw LMDB: \(revisionsPerBatch) puts in one durable transaction, stored bytes of an imported revision",
        configuration: .init(
            metrics: [.wallClock, revisionsPerSecond, storedBytesPerSecond, valueBytes], timeUnits: .milliseconds,
            maxIterations: 40)
    ) { benchmark in
        try await putBatch(benchmark, bytesMetric: storedBytesPerSecond)
    } setup: {
        let size = try await measureBytesPerRevision(revisions: revisionsPerBatch, batched: true)
        rawWriting.set(try makeRawState("rawimport", valueSize: size))
    } teardown: {
        tearDownRaw()
    }

    Benchmark(
        "raw LMDB: \(revisionsPerBatch) puts in one durable transaction, interchange-format JSON bytes of a revision",
        configuration: .init(
            metrics: [.wallClock, revisionsPerSecond, jsonBytesPerSecond, valueBytes], timeUnits: .milliseconds,
            maxIterations: 20)
    ) { benchmark in
        try await putBatch(benchmark, bytesMetric: jsonBytesPerSecond)
    } setup: {
        var workload = ChurnWorkload()
        let snapshots = workload.next(revisionsPerBatch)
        let jsonBytes = snapshots.reduce(0) { $0 + $1.formatJSON().utf8.count }
        rawWriting.set(try makeRawState("rawjson", valueSize: jsonBytes / revisionsPerBatch))
    } teardown: {
        tearDownRaw()
    }

    // MARK: Catch-up reads, verification, size

    Benchmark(
        "catch-up read: records(in:) \(revisionsPerBatch) revisions",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, revisionsPerSecond, bytesPerRevision], timeUnits: .milliseconds,
            maxIterations: 40)
    ) { benchmark in
        let state = reading.value
        benchmark.startMeasurement()
        var count = 0
        let elapsed = try await nanoseconds {
            for try await record in state.log.records(in: 1...UInt64(revisionsPerBatch)) {
                blackHole(record)
                count += 1
            }
        }
        benchmark.stopMeasurement()
        precondition(count == revisionsPerBatch)
        benchmark.measurement(revisionsPerSecond, rate(count, elapsed))
        benchmark.measurement(bytesPerRevision, state.bytesPerRevision)
    } setup: {
        reading.set(try await makeReadState())
    } teardown: {
        reading.value.directory.remove()
        reading.set(nil)
    }

    Benchmark(
        "verify: \(revisionsPerVerify) revisions",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, revisionsPerSecond], timeUnits: .milliseconds, maxIterations: 40)
    ) { benchmark in
        let state = reading.value
        benchmark.startMeasurement()
        var report: VerificationReport?
        let elapsed = try await nanoseconds { report = try await state.log.verify(1...UInt64(revisionsPerVerify)) }
        benchmark.stopMeasurement()
        precondition(report?.isValid == true && report?.revisionsChecked == revisionsPerVerify, "\(report!)")
        benchmark.measurement(revisionsPerSecond, rate(revisionsPerVerify, elapsed))
    } setup: {
        reading.set(try await makeReadState())
    } teardown: {
        reading.value.directory.remove()
        reading.set(nil)
    }

    Benchmark(
        "raw LMDB: read \(revisionsPerBatch) values of a churn revision's bytes in one read transaction",
        configuration: .init(
            metrics: [.wallClock, revisionsPerSecond, valueBytes], timeUnits: .milliseconds, maxIterations: 200)
    ) { benchmark in
        let state = rawWriting.value
        benchmark.startMeasurement()
        var bytes = 0
        let elapsed = try await nanoseconds { bytes = try state.raw.read(first: 1, count: revisionsPerBatch) }
        benchmark.stopMeasurement()
        precondition(bytes == revisionsPerBatch * state.value.count)
        benchmark.measurement(revisionsPerSecond, rate(revisionsPerBatch, elapsed))
        benchmark.measurement(valueBytes, state.value.count)
    } setup: {
        let state = try makeRawState("rawread", valueSize: try await measureBytesPerRevision())
        try state.raw.putInOneTransaction(count: revisionsPerBatch, value: state.value)
        rawWriting.set(state)
    } teardown: {
        tearDownRaw()
    }

    // MARK: Live subscribers

    /// A durable log with one revision, a subscriber from revision 2, and the subscriber caught up.
    func makeLatencyState(_ label: String, crossProcess: Bool) async throws -> LatencyState {
        let base = try await makeAppendState(label)
        let inbox = LatencyInbox()
        var state = LatencyState(
            directory: base.directory, log: base.log, workload: base.workload, inbox: inbox, subscriber: nil,
            child: nil)
        if crossProcess {
            state.child = try SubscriberProcess.Child(log: base.log.path, from: 2, into: inbox)
        } else {
            state.subscriber = subscribeInProcess(base.log, from: 2, into: inbox)
        }
        guard await inbox.next(timeout: .seconds(30)) == -1 else {
            throw SetupFailure(description: "the \(crossProcess ? "other process's" : "") subscriber never caught up")
        }
        return state
    }

    func measureLatency(_ benchmark: Benchmark) async throws {
        let (log, inbox, snapshot) = latency.update { state in (state.log, state.inbox, state.workload.next()) }
        benchmark.startMeasurement()
        let start = monotonicNanoseconds()
        _ = try await log.append(snapshot, meta: [appendStartKey: String(start)])
        let appended = monotonicNanoseconds() - start
        guard let delivered = await inbox.next() else {
            benchmark.error("no revision reached the subscriber within 10 s")
            return
        }
        benchmark.stopMeasurement()
        benchmark.measurement(latencyMicroseconds, delivered / 1_000)
        benchmark.measurement(appendMicroseconds, appended / 1_000)
    }

    func tearDownLatency() {
        let state = latency.value
        state.subscriber?.cancel()
        state.child?.stop()
        state.directory.remove()
        latency.set(nil)
    }

    let latencyMetrics: [BenchmarkMetric] = [.wallClock, latencyMicroseconds, appendMicroseconds]

    Benchmark(
        "live subscriber latency, in process (durable append start to delivery)",
        configuration: .init(metrics: latencyMetrics, maxIterations: 300)
    ) { benchmark in
        try await measureLatency(benchmark)
    } setup: {
        latency.set(try await makeLatencyState("latency", crossProcess: false))
    } teardown: {
        tearDownLatency()
    }

    Benchmark(
        "live subscriber latency, across processes (durable append start to delivery)",
        configuration: .init(metrics: latencyMetrics, maxIterations: 300)
    ) { benchmark in
        try await measureLatency(benchmark)
    } setup: {
        latency.set(try await makeLatencyState("latencyxp", crossProcess: true))
    } teardown: {
        tearDownLatency()
    }
}
