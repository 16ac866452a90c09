import Benchmark
import ChangeLog
import ChangeLogTools
import Foundation
import ListAdapter
import ListFormat
import RawLMDB

// `replay import` end to end, from JSON lines in memory to a durable commit, beside raw LMDB
// putting the same lines' bytes: alone, and paired in each sample.

/// The import's rate as a percentage of raw LMDB's, on the same bytes.
let importShareOfRaw = BenchmarkMetric.custom(
    "import / raw LMDB, same bytes (%)", polarity: .prefersLarger, useScalingFactor: false)
/// The import's part of a paired sample.
let pairedImportMilliseconds = BenchmarkMetric.custom(
    "import (ms)", polarity: .prefersSmaller, useScalingFactor: false)
/// Raw LMDB's part of a paired sample.
let pairedRawMilliseconds = BenchmarkMetric.custom(
    "raw LMDB puts (ms)", polarity: .prefersSmaller, useScalingFactor: false)

/// A log for the importer, and a raw LMDB environment beside it.
struct ImportState: Sendable {
    var directory: TemporaryDirectory
    var log: ChangeLog
    var workload: ChurnWorkload
    var raw: RawLMDB
}

let importing = Fixture<ImportState>()

/// The next `revisionsPerBatch` snapshots of `workload` as interchange-format JSON lines (as
/// `replay export` writes snapshots), each as its bytes.
func jsonLines(_ workload: inout ChurnWorkload) -> [[UInt8]] {
    workload.next(revisionsPerBatch).map { Array($0.formatJSON().utf8) }
}

/// `lines` as one input, each line ended by a line feed.
func importInput(_ lines: [[UInt8]]) -> Data {
    var input = Data(capacity: lines.reduce(0) { $0 + $1.count + 1 })
    for line in lines {
        input.append(contentsOf: line)
        input.append(UInt8(ascii: "\n"))
    }
    return input
}

/// Imports `input` into `log` as `replay import` does (one transaction), returning the
/// nanoseconds it took; throws unless every line was appended.
func importLines(_ input: Data, into log: ChangeLog) async throws -> Int {
    let importer = SnapshotImporter(log: log)
    return try await nanoseconds {
        let report = try await importer.run(input: input)
        guard report.revisions.count == revisionsPerBatch else {
            throw SetupFailure(description: "the import appended \(report.revisions.count) revisions")
        }
    }
}

func makeImportState(_ label: String) async throws -> ImportState {
    let directory = TemporaryDirectory(label)
    let workload = ChurnWorkload()
    let log = try ChangeLog(path: directory.appending("log"))
    _ = try await log.append(workload.snapshot)
    let rawDirectory = directory.appending("raw")
    try FileManager.default.createDirectory(atPath: rawDirectory, withIntermediateDirectories: true)
    return ImportState(directory: directory, log: log, workload: workload, raw: try RawLMDB(directory: rawDirectory))
}

func tearDownImporting() {
    importing.value.directory.remove()
    importing.set(nil)
}

func registerImportBenchmarks() {
    Benchmark(
        "import: replay import's SnapshotImporter.run of \(revisionsPerBatch) JSON lines, one durable transaction",
        configuration: .init(
            metrics: [.wallClock, revisionsPerSecond, jsonBytesPerSecond],
            // Making each sample's 1,000 lines is not measured but takes time: allow 10 samples.
            timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 10)
    ) { benchmark in
        let (log, lines) = importing.update { state in (state.log, jsonLines(&state.workload)) }
        let input = importInput(lines)
        benchmark.startMeasurement()
        let elapsed = try await importLines(input, into: log)
        benchmark.stopMeasurement()
        benchmark.measurement(revisionsPerSecond, rate(revisionsPerBatch, elapsed))
        benchmark.measurement(jsonBytesPerSecond, kilobytesPerSecond(input.count, elapsed))
    } setup: {
        importing.set(try await makeImportState("jsonimport"))
    } teardown: {
        tearDownImporting()
    }

    // The raw rate swings with the disk's flushes of its 50 MB from run to run: measured in the
    // same sample as the import, the share is the number to trust.
    Benchmark(
        "import paired: SnapshotImporter.run of \(revisionsPerBatch) JSON lines, then raw LMDB puts of the same lines, "
            + "one durable transaction each",
        configuration: .init(
            metrics: [.wallClock, importShareOfRaw, pairedImportMilliseconds, pairedRawMilliseconds],
            timeUnits: .milliseconds, maxDuration: .seconds(20), maxIterations: 20)
    ) { benchmark in
        let (log, raw, lines) = importing.update { state in (state.log, state.raw, jsonLines(&state.workload)) }
        let input = importInput(lines)
        benchmark.startMeasurement()
        let imported = try await importLines(input, into: log)
        let put = try await nanoseconds { try raw.putInOneTransaction(values: lines) }
        benchmark.stopMeasurement()
        // The same lines, so the ratio of the rates is that of the times (the import also
        // reads the line feeds, which the raw puts do not store).
        benchmark.measurement(importShareOfRaw, Int((100 * Double(put) / Double(imported)).rounded()))
        benchmark.measurement(pairedImportMilliseconds, imported / 1_000_000)
        benchmark.measurement(pairedRawMilliseconds, put / 1_000_000)
    } setup: {
        importing.set(try await makeImportState("pairedimport"))
    } teardown: {
        tearDownImporting()
    }
}
