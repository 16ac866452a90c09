import Benchmark
import ListAdapter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CPU time this thread spends in `body`, in seconds.
func threadCPUTime(_ body: () throws -> Void) rethrows -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    let start = now()
    try body()
    return now() - start
}

// The flat workloads of the comparison with other diff libraries: built on first use, each in
// the process of the benchmark that measures it.
let strings100k = FlatWorkload<String>(count: 100_000, shape: .mixed)
let ints100k = FlatWorkload<Int>(count: 100_000, shape: .mixed)
let strings1M = FlatWorkload<String>(count: 1_000_000, shape: .mixed)
let ints1M = FlatWorkload<Int>(count: 1_000_000, shape: .mixed)
let stringsReversed10k = FlatWorkload<String>(count: 10_000, shape: .reversed)
let stringsShuffled10k = FlatWorkload<String>(count: 10_000, shape: .shuffled)
let intsReversed10k = FlatWorkload<Int>(count: 10_000, shape: .reversed)
let intsShuffled10k = FlatWorkload<Int>(count: 10_000, shape: .shuffled)

/// What a caller that holds two flat arrays pays, as other diff libraries are called: building
/// both snapshots, then the diff (with its moves beside the fewest possible); and building one
/// snapshot beside its floor, a `[ID: Int]` of the same identifiers, timed in the same sample.
func peerBenchmarks() {
    let movesMetric = BenchmarkMetric.custom("moves", polarity: .prefersSmaller, useScalingFactor: false)
    let minimumMovesMetric = BenchmarkMetric.custom(
        "minimum moves", polarity: .prefersSmaller, useScalingFactor: false)
    let floorRatioMetric = BenchmarkMetric.custom(
        "build / floor (%)", polarity: .prefersSmaller, useScalingFactor: false)

    func cases<ID: FlatWorkloadID>(_ name: String, _ workload: @autoclosure @escaping @Sendable () -> FlatWorkload<ID>)
    {
        Benchmark(
            "peer \(name): both snapshots built + diff",
            configuration: .init(
                metrics: [.wallClock, .cpuTotal, .mallocCountTotal, movesMetric, minimumMovesMetric],
                timeUnits: .milliseconds, maxDuration: .seconds(5), maxIterations: 100)
        ) { benchmark in
            let workload = workload()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let old = try ListSnapshot<ID, String, String>(sections: workload.oldSections)
                let new = try ListSnapshot<ID, String, String>(sections: workload.newSections)
                let changes = old.changes(to: new)
                blackHole(changes)
                benchmark.measurement(movesMetric, changes.movedItems.count)
                benchmark.measurement(minimumMovesMetric, workload.minimumMoves)
            }
        }
        // Each sample builds the snapshot and the floor's dictionary, one right after the other
        // (the median of 3 each), timed in this thread's CPU time: the ratio compares like with
        // like on a busy machine, where wall-clock time counts the other processes' turns.
        Benchmark(
            "peer \(name): snapshot built vs [ID: Int] floor, paired",
            configuration: .init(
                metrics: [.wallClock, floorRatioMetric], timeUnits: .milliseconds, maxDuration: .seconds(5),
                maxIterations: 60)
        ) { benchmark in
            let workload = workload()
            func median(_ runs: [Double]) -> Double { runs.sorted()[runs.count / 2] }
            benchmark.startMeasurement()
            let built = try median(
                (0..<3).map { _ in
                    try threadCPUTime {
                        blackHole(try ListSnapshot<ID, String, String>(sections: workload.newSections))
                    }
                })
            let floor = median(
                (0..<3).map { _ in
                    threadCPUTime {
                        var positions = [ID: Int](minimumCapacity: workload.newIDs.count)
                        for (offset, id) in workload.newIDs.enumerated() { positions[id] = offset }
                        blackHole(positions)
                    }
                })
            benchmark.measurement(floorRatioMetric, Int((built / floor * 100).rounded()))
        }
    }

    cases("flat 100k string ids", strings100k)
    cases("flat 100k Int ids", ints100k)
    cases("flat 1M string ids", strings1M)
    cases("flat 1M Int ids", ints1M)
    cases("reversed 10k string ids", stringsReversed10k)
    cases("shuffled 10k string ids", stringsShuffled10k)
    cases("reversed 10k Int ids", intsReversed10k)
    cases("shuffled 10k Int ids", intsShuffled10k)
}
