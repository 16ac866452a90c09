import Benchmark
import ChangeLog
import ChangeLogTools
import Foundation

// `replay reduce`'s engine on 1,000 revisions of about 10,000 items each (about 18,000 distinct
// items over the history), each seeded failure reduced in full beside plain ddmin over revisions alone. Each
// case reports its wall-clock time (one reduction per iteration) and, as plain numbers, the oracle
// calls it made and the revisions and distinct items left.

let oracleCalls = BenchmarkMetric.custom("oracle calls", polarity: .prefersSmaller, useScalingFactor: false)
let revisionsLeft = BenchmarkMetric.custom("revisions left", polarity: .prefersSmaller, useScalingFactor: false)
let itemsLeft = BenchmarkMetric.custom("items left", polarity: .prefersSmaller, useScalingFactor: false)

// Built on first use: package-benchmark runs each benchmark in a process of its own.
let twoBatch = ReduceWorkload(failure: .twoBatchRenderer(at: 600))
let wrongUpdate = ReduceWorkload(failure: .wrongUpdate(at: 700))
let doubleDeletion = ReduceWorkload(failure: .doubleDeletion(at: 800))

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, oracleCalls, revisionsLeft, itemsLeft],
        timeUnits: .milliseconds,
        warmupIterations: 0,
        maxDuration: .seconds(120),
        maxIterations: 1
    )

    func reduce(
        _ benchmark: Benchmark, _ workload: @autoclosure () -> ReduceWorkload, _ oracle: ReductionOracle,
        steps: HistoryReducer.Steps
    ) async throws {
        let history = workload().history
        benchmark.startMeasurement()
        let result = try await HistoryReducer(history: history, oracle: oracle, steps: steps).reduce()
        benchmark.stopMeasurement()
        benchmark.measurement(oracleCalls, result.oracleCalls)
        benchmark.measurement(revisionsLeft, result.reduced.revisionCount)
        benchmark.measurement(itemsLeft, result.reduced.distinctItemCount)
    }

    let cases: [(String, () -> ReduceWorkload, ReductionOracle)] = [
        ("two-batch renderer bug (in-process predicate)", { twoBatch }, ReduceWorkload.driftingRenderer),
        ("wrong stored update (verify)", { wrongUpdate }, .verify),
        ("double deletion (strict)", { doubleDeletion }, .strict),
    ]
    for (name, workload, oracle) in cases {
        Benchmark("reduce \(name)", configuration: .init(setup: { _ = workload() })) { benchmark in
            try await reduce(benchmark, workload(), oracle, steps: .all)
        }
        Benchmark("ddmin over revisions alone, \(name)", configuration: .init(setup: { _ = workload() })) {
            benchmark in
            try await reduce(benchmark, workload(), oracle, steps: .revisions)
        }
    }
}
