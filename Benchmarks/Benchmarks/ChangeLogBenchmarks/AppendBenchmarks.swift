import Benchmark
import ChangeLog
import ListAdapter

// Durable and relaxed appends of the churn workload, by one appender and by 8 concurrent ones
// (group commit), and the two side by side in pairs of samples.

/// The ratio of the 8-appender rate to the 1-appender rate, in hundredths.
let groupCommitSpeedup = BenchmarkMetric.custom(
    "8 appenders / 1 appender (x100)", polarity: .prefersLarger, useScalingFactor: false)
/// The paired case's single appender, per revision.
let pairedSingleMicroseconds = BenchmarkMetric.custom(
    "1 appender (μs/revision)", polarity: .prefersSmaller, useScalingFactor: false)
/// The paired case's 8 appenders, per revision.
let pairedConcurrentMicroseconds = BenchmarkMetric.custom(
    "8 appenders (μs/revision)", polarity: .prefersSmaller, useScalingFactor: false)
/// How many revisions the single appender appends in each sample of the paired case.
let pairedSingleRevisions = 16

/// Two logs for the paired case: one appended to by 1 appender, one by 8. Each follows a
/// workload of its own, so that every revision of either log differs from the one before by 1%:
/// drawn from one sequence, each sample's first revision would follow a snapshot the other log
/// took 16 or 64 revisions of churn ago.
struct PairedState: Sendable {
    var directory: TemporaryDirectory
    var single: ChangeLog
    var concurrent: ChangeLog
    var singleWorkload: ChurnWorkload
    var concurrentWorkload: ChurnWorkload
}

let pairing = Fixture<PairedState>()

/// Appends `snapshots` to `log` from 8 tasks at once, each taking the next snapshot of the
/// sequence; returns the nanoseconds it took.
func appendFromEightTasks(_ snapshots: [LogSnapshot], to log: ChangeLog) async throws -> Int {
    let next = Counter()
    return try await nanoseconds {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    while true {
                        let index = next.take()
                        guard index < snapshots.count else { return }
                        _ = try await log.append(snapshots[index])
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

func registerAppendBenchmarks() {
    let appendMetrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, revisionsPerSecond]

    // MARK: Durable appends, 1% churn

    /// Appends the next revision of the churn workload.
    func appendOne(_ benchmark: Benchmark) async throws {
        let (log, snapshot) = appending.update { state in (state.log, state.workload.next()) }
        benchmark.startMeasurement()
        let elapsed = try await nanoseconds { _ = try await log.append(snapshot) }
        benchmark.stopMeasurement()
        benchmark.measurement(revisionsPerSecond, rate(1, elapsed))
    }

    Benchmark(
        "append durable: 1 appender (1,000 items, 1% churn)",
        configuration: .init(metrics: appendMetrics, maxIterations: 300)
    ) { benchmark in
        try await appendOne(benchmark)
    } setup: {
        appending.set(try await makeAppendState("append1"))
    } teardown: {
        tearDownAppending()
    }

    /// Appends `concurrentRevisionsPerSample` revisions from 8 tasks at once, each taking the
    /// next snapshot of the sequence, so consecutive revisions differ by about 1% (2% when two
    /// appends reach the writer out of order).
    func appendConcurrently(_ benchmark: Benchmark) async throws {
        let (log, snapshots) = appending.update { state in
            (state.log, state.workload.next(concurrentRevisionsPerSample))
        }
        benchmark.startMeasurement()
        let elapsed = try await appendFromEightTasks(snapshots, to: log)
        benchmark.stopMeasurement()
        benchmark.measurement(revisionsPerSecond, rate(snapshots.count, elapsed))
    }

    Benchmark(
        "append durable: 8 concurrent appenders, \(concurrentRevisionsPerSample) revisions per sample",
        configuration: .init(metrics: [.wallClock, revisionsPerSecond], timeUnits: .milliseconds, maxIterations: 60)
    ) { benchmark in
        try await appendConcurrently(benchmark)
    } setup: {
        appending.set(try await makeAppendState("append8"))
    } teardown: {
        tearDownAppending()
    }

    // The same appends without flushes: what appends cost in CPU alone. The writer is one
    // serial queue, so 8 appenders without flushes are the most group commit can reach.
    Benchmark(
        "append noSync (no flush): 8 concurrent appenders, \(concurrentRevisionsPerSample) revisions per sample",
        configuration: .init(metrics: [.wallClock, revisionsPerSecond], timeUnits: .milliseconds, maxIterations: 60)
    ) { benchmark in
        try await appendConcurrently(benchmark)
    } setup: {
        appending.set(try await makeAppendState("append8nosync", durability: .noSync))
    } teardown: {
        tearDownAppending()
    }

    Benchmark(
        "append noSync (no flush): 1 appender (1,000 items, 1% churn)",
        configuration: .init(metrics: appendMetrics, maxIterations: 1_000)
    ) { benchmark in
        try await appendOne(benchmark)
    } setup: {
        appending.set(try await makeAppendState("appendnosync", durability: .noSync))
    } teardown: {
        tearDownAppending()
    }

    // Disks and shared machines drift by tens of percent within seconds, which moves the two
    // cases above apart. Here each sample measures both, one right after the other, so the
    // ratio of each pair compares like with like.
    Benchmark(
        "append durable: 1 appender then 8 concurrent appenders, paired",
        configuration: .init(
            metrics: [.wallClock, groupCommitSpeedup, pairedSingleMicroseconds, pairedConcurrentMicroseconds],
            timeUnits: .milliseconds, maxDuration: .seconds(5),
            maxIterations: 60)
    ) { benchmark in
        let (single, concurrent, singleSnapshots, concurrentSnapshots) = pairing.update { state in
            (
                state.single, state.concurrent, state.singleWorkload.next(pairedSingleRevisions),
                state.concurrentWorkload.next(concurrentRevisionsPerSample)
            )
        }
        benchmark.startMeasurement()
        let alone = try await nanoseconds {
            for snapshot in singleSnapshots {
                _ = try await single.append(snapshot)
            }
        }
        let together = try await appendFromEightTasks(concurrentSnapshots, to: concurrent)
        benchmark.stopMeasurement()
        let speedup = Double(rate(concurrentRevisionsPerSample, together)) / Double(rate(pairedSingleRevisions, alone))
        benchmark.measurement(groupCommitSpeedup, Int((speedup * 100).rounded()))
        benchmark.measurement(pairedSingleMicroseconds, alone / pairedSingleRevisions / 1_000)
        benchmark.measurement(pairedConcurrentMicroseconds, together / concurrentRevisionsPerSample / 1_000)
    } setup: {
        let directory = TemporaryDirectory("paired")
        let workload = ChurnWorkload()
        let single = try ChangeLog(path: directory.appending("single"))
        let concurrent = try ChangeLog(path: directory.appending("concurrent"))
        _ = try await single.append(workload.snapshot)
        _ = try await concurrent.append(workload.snapshot)
        pairing.set(
            PairedState(
                directory: directory, single: single, concurrent: concurrent, singleWorkload: workload,
                concurrentWorkload: workload))
    } teardown: {
        pairing.value.directory.remove()
        pairing.set(nil)
    }
}
