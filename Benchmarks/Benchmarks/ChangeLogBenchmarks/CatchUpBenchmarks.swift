import Benchmark
@_spi(Benchmarks) import ChangeLog

// Catch-up with snapshots: `records(in:)`, which keeps its work from one snapshot to the next
// (each identifier hashed once, when its chunk is first decoded; each dictionary checked and
// digested once), beside the same read redoing that work for every snapshot (how every
// snapshot was read before: `baselineRecords(in:)`), in the same sample.

/// The catch-up read's rate as a multiple of the baseline's (× 100).
let catchUpSpeedup = BenchmarkMetric.custom(
    "records(in:) / rehashing baseline rate (×100)", polarity: .prefersLarger, useScalingFactor: false)
/// The catch-up read's part of a paired sample.
let pairedCatchUpMilliseconds = BenchmarkMetric.custom(
    "records(in:) (ms)", polarity: .prefersSmaller, useScalingFactor: false)
/// The baseline's part of a paired sample.
let pairedRehashingMilliseconds = BenchmarkMetric.custom(
    "rehashing baseline (ms)", polarity: .prefersSmaller, useScalingFactor: false)

/// Reads every record of `records`, checking that there are `revisionsPerBatch` of them,
/// returning the nanoseconds it took.
func readRecords(_ records: RevisionRecords) async throws -> Int {
    var count = 0
    let elapsed = try await nanoseconds {
        for try await record in records {
            blackHole(record)
            count += 1
        }
    }
    precondition(count == revisionsPerBatch)
    return elapsed
}

func registerCatchUpBenchmarks() {
    Benchmark(
        "catch-up read paired: records(in:) \(revisionsPerBatch) revisions, then the same records read as before "
            + "(every identifier hashed, every dictionary digested, for each snapshot)",
        configuration: .init(
            metrics: [.wallClock, catchUpSpeedup, pairedCatchUpMilliseconds, pairedRehashingMilliseconds],
            timeUnits: .milliseconds, maxIterations: 40)
    ) { benchmark in
        let log = reading.value.log
        let range = 1...UInt64(revisionsPerBatch)
        benchmark.startMeasurement()
        let records = try await readRecords(log.records(in: range))
        let baseline = try await readRecords(log.baselineRecords(in: range))
        benchmark.stopMeasurement()
        // The same revisions, so the ratio of the rates is that of the times.
        benchmark.measurement(catchUpSpeedup, Int((100 * Double(baseline) / Double(records)).rounded()))
        benchmark.measurement(pairedCatchUpMilliseconds, records / 1_000_000)
        benchmark.measurement(pairedRehashingMilliseconds, baseline / 1_000_000)
    } setup: {
        reading.set(try await makeReadState())
    } teardown: {
        reading.value.directory.remove()
        reading.set(nil)
    }
}
