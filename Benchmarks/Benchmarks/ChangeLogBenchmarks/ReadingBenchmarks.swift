import Benchmark
import ChangeLog
import Foundation
import RawLMDB

// Reads that skip what they do not need: the changes alone (`changes(in:)`, what `replay log`,
// `replay stats`, `tail --json --changes-only` and the server's changes-only streams read)
// beside raw LMDB reading the very same revision records from the log's own file, and beside
// the full records (`records(in:)`, snapshots included), each pair in the same sample.

/// The changes-only read's rate as a percentage of raw LMDB's, on the same records.
let changesShareOfRaw = BenchmarkMetric.custom(
    "changes(in:) / raw LMDB, same records (%)", polarity: .prefersLarger, useScalingFactor: false)
/// The changes-only read's rate as a multiple of the full records' (× 100).
let changesSpeedupOverRecords = BenchmarkMetric.custom(
    "changes(in:) / records(in:) rate (×100)", polarity: .prefersLarger, useScalingFactor: false)
/// The changes-only read's part of a paired sample.
let pairedChangesMicroseconds = BenchmarkMetric.custom(
    "changes(in:) (μs)", polarity: .prefersSmaller, useScalingFactor: false)
/// The other part of a paired sample.
let pairedBaselineMicroseconds = BenchmarkMetric.custom(
    "baseline (μs)", polarity: .prefersSmaller, useScalingFactor: false)

/// Raw LMDB's handle on the reading log's `revisions` database.
let rawRevisions = Fixture<RawLMDBReader>()

/// Reads the changes of revisions 1 to `revisionsPerBatch` of `log`, returning the nanoseconds it took.
func readChanges(of log: ChangeLog) async throws -> Int {
    var count = 0
    let elapsed = try await nanoseconds {
        for try await revision in log.changes(in: 1...UInt64(revisionsPerBatch)) {
            blackHole(revision)
            count += 1
        }
    }
    precondition(count == revisionsPerBatch)
    return elapsed
}

func registerReadingBenchmarks() {
    Benchmark(
        "changes-only read: changes(in:) \(revisionsPerBatch) revisions",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, revisionsPerSecond], timeUnits: .milliseconds,
            maxIterations: 100)
    ) { benchmark in
        let log = reading.value.log
        benchmark.startMeasurement()
        let elapsed = try await readChanges(of: log)
        benchmark.stopMeasurement()
        benchmark.measurement(revisionsPerSecond, rate(revisionsPerBatch, elapsed))
    } setup: {
        reading.set(try await makeReadState())
    } teardown: {
        reading.value.directory.remove()
        reading.set(nil)
    }

    Benchmark(
        "changes-only read paired: changes(in:) \(revisionsPerBatch) revisions, then raw LMDB reading the same "
            + "revision records from the log's file",
        configuration: .init(
            metrics: [.wallClock, changesShareOfRaw, pairedChangesMicroseconds, pairedBaselineMicroseconds],
            timeUnits: .milliseconds, maxIterations: 100)
    ) { benchmark in
        let (log, raw) = (reading.value.log, rawRevisions.value)
        benchmark.startMeasurement()
        let changes = try await readChanges(of: log)
        var bytes = 0
        let rawElapsed = try await nanoseconds { bytes = try raw.read(first: 1, count: revisionsPerBatch) }
        benchmark.stopMeasurement()
        precondition(bytes > 0)
        // The same records, so the ratio of the rates is that of the times.
        benchmark.measurement(changesShareOfRaw, Int((100 * Double(rawElapsed) / Double(changes)).rounded()))
        benchmark.measurement(pairedChangesMicroseconds, changes / 1_000)
        benchmark.measurement(pairedBaselineMicroseconds, rawElapsed / 1_000)
    } setup: {
        let state = try await makeReadState()
        reading.set(state)
        rawRevisions.set(try RawLMDBReader(directory: state.directory.appending("log"), database: "revisions"))
    } teardown: {
        rawRevisions.set(nil)
        reading.value.directory.remove()
        reading.set(nil)
    }

    Benchmark(
        "changes-only read paired: changes(in:) \(revisionsPerBatch) revisions, then records(in:) of the same "
            + "revisions with their snapshots",
        configuration: .init(
            metrics: [.wallClock, changesSpeedupOverRecords, pairedChangesMicroseconds, pairedBaselineMicroseconds],
            timeUnits: .milliseconds, maxIterations: 40)
    ) { benchmark in
        let log = reading.value.log
        benchmark.startMeasurement()
        let changes = try await readChanges(of: log)
        var count = 0
        let records = try await nanoseconds {
            for try await record in log.records(in: 1...UInt64(revisionsPerBatch)) {
                blackHole(record)
                count += 1
            }
        }
        benchmark.stopMeasurement()
        precondition(count == revisionsPerBatch)
        benchmark.measurement(changesSpeedupOverRecords, Int((100 * Double(records) / Double(changes)).rounded()))
        benchmark.measurement(pairedChangesMicroseconds, changes / 1_000)
        benchmark.measurement(pairedBaselineMicroseconds, records / 1_000)
    } setup: {
        reading.set(try await makeReadState())
    } teardown: {
        reading.value.directory.remove()
        reading.set(nil)
    }
}
