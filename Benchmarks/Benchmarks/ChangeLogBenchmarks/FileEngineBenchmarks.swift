import Benchmark
import ChangeLog
import ChangeLogFile
import ChangeLogTools
import Foundation
import ListAdapter

// The file engine (ChangeLogFile) beside the LMDB engine in the same samples: append cost per
// revision of the churn workload, durable and without flush, and the bytes each stores per
// revision, on the churn workload and on a real history (FILE_ENGINE_HISTORY: a JSON Lines
// file of snapshot lines, e.g. from scripts/git-history.sh).

let fileMicroseconds = BenchmarkMetric.custom(
    "file engine (μs/revision)", polarity: .prefersSmaller, useScalingFactor: false)
let lmdbMicroseconds = BenchmarkMetric.custom(
    "LMDB engine (μs/revision)", polarity: .prefersSmaller, useScalingFactor: false)
let fileTimeShareOfLMDB = BenchmarkMetric.custom(
    "file / LMDB time (x100)", polarity: .prefersSmaller, useScalingFactor: false)
let fileBytesPerRevision = BenchmarkMetric.custom(
    "file engine (bytes/revision)", polarity: .prefersSmaller, useScalingFactor: false)
let lmdbBytesPerRevision = BenchmarkMetric.custom(
    "LMDB engine (bytes/revision)", polarity: .prefersSmaller, useScalingFactor: false)

/// The file engine's metrics, shown as plain numbers.
let fileEngineMetrics = [
    fileMicroseconds, lmdbMicroseconds, fileTimeShareOfLMDB, fileBytesPerRevision, lmdbBytesPerRevision,
]

/// A log of each engine, each following a churn workload of its own.
struct EnginePairState: Sendable {
    var directory: TemporaryDirectory
    var lmdb: ChangeLog
    var file: ChangeLog
    var lmdbWorkload: ChurnWorkload
    var fileWorkload: ChurnWorkload
    var samples = 0
}

let enginePair = Fixture<EnginePairState>()
/// Revisions each engine appends in a sample.
let revisionsPerEngine = 8

func makeEnginePair(_ label: String, durability: ChangeLog.Durability) async throws -> EnginePairState {
    let directory = TemporaryDirectory(label)
    var lmdbWorkload = ChurnWorkload()
    var fileWorkload = ChurnWorkload()
    let options = ChangeLog.Options(durability: durability)
    let lmdb = try ChangeLog(path: directory.appending("log"), options: options)
    let file = try ChangeLog(fileAt: directory.appending("log.changelog"), options: options)
    _ = try await lmdb.append(lmdbWorkload.snapshot)
    _ = try await file.append(fileWorkload.snapshot)
    _ = lmdbWorkload.next()
    _ = fileWorkload.next()
    return EnginePairState(
        directory: directory, lmdb: lmdb, file: file, lmdbWorkload: lmdbWorkload, fileWorkload: fileWorkload)
}

/// The bytes a log holds: LMDB's pages in use (free pages included; no revision is dropped
/// here), the file's committed bytes.
func bytesHeld(by log: ChangeLog) throws -> Int {
    log.bytesInUse
}

func registerFileEngineBenchmarks() {
    let metrics: [BenchmarkMetric] = [.wallClock] + fileEngineMetrics

    /// Appends `revisionsPerEngine` revisions to each engine's log, one per transaction, the
    /// engines in turn (which goes first alternating between samples).
    func appendPair(_ benchmark: Benchmark) async throws {
        let (state, lmdbSnapshots, fileSnapshots) = enginePair.update { state in
            state.samples += 1
            return (state, state.lmdbWorkload.next(revisionsPerEngine), state.fileWorkload.next(revisionsPerEngine))
        }
        func run(_ log: ChangeLog, _ snapshots: [LogSnapshot]) async throws -> (nanoseconds: Int, bytes: Int) {
            let before = try bytesHeld(by: log)
            let elapsed = try await nanoseconds {
                for snapshot in snapshots { _ = try await log.append(snapshot) }
            }
            return (elapsed, try bytesHeld(by: log) - before)
        }
        benchmark.startMeasurement()
        let lmdb: (nanoseconds: Int, bytes: Int)
        let file: (nanoseconds: Int, bytes: Int)
        if state.samples % 2 == 0 {
            lmdb = try await run(state.lmdb, lmdbSnapshots)
            file = try await run(state.file, fileSnapshots)
        } else {
            file = try await run(state.file, fileSnapshots)
            lmdb = try await run(state.lmdb, lmdbSnapshots)
        }
        benchmark.stopMeasurement()
        benchmark.measurement(lmdbMicroseconds, lmdb.nanoseconds / 1000 / revisionsPerEngine)
        benchmark.measurement(fileMicroseconds, file.nanoseconds / 1000 / revisionsPerEngine)
        benchmark.measurement(fileTimeShareOfLMDB, file.nanoseconds * 100 / max(1, lmdb.nanoseconds))
        benchmark.measurement(lmdbBytesPerRevision, lmdb.bytes / revisionsPerEngine)
        benchmark.measurement(fileBytesPerRevision, file.bytes / revisionsPerEngine)
    }

    for durability in [ChangeLog.Durability.durable, .noSync] {
        let name = durability == .durable ? "durable" : "noSync (no flush)"
        Benchmark(
            "file engine beside LMDB: append \(name), \(revisionsPerEngine) revisions each per sample (1% churn)",
            configuration: .init(metrics: metrics, maxIterations: 60)
        ) { benchmark in
            try await appendPair(benchmark)
        } setup: {
            enginePair.set(try await makeEnginePair("fileengine-\(durability)", durability: durability))
        } teardown: {
            enginePair.value.directory.remove()
            enginePair.set(nil)
        }
    }

    // A real history imported into each engine (commitEvery 500), once; bytes per revision.
    if let history = ProcessInfo.processInfo.environment["FILE_ENGINE_HISTORY"] {
        Benchmark(
            "file engine beside LMDB: bytes per revision of a real history (FILE_ENGINE_HISTORY)",
            configuration: .init(metrics: [.wallClock, fileBytesPerRevision, lmdbBytesPerRevision], maxIterations: 1)
        ) { benchmark in
            let input = try Data(contentsOf: URL(fileURLWithPath: history))
            let directory = TemporaryDirectory("fileengine-history")
            defer { directory.remove() }
            let options = ChangeLog.Options(durability: .noSync)
            let lmdb = try ChangeLog(path: directory.appending("log"), options: options)
            let file = try ChangeLog(fileAt: directory.appending("log.changelog"), options: options)
            var revisions = 0
            for log in [lmdb, file] {
                let report = try await SnapshotImporter(log: log, options: .init(commitEvery: 500)).run(input: input)
                try log.flush()
                revisions = report.revisions.count
            }
            benchmark.measurement(lmdbBytesPerRevision, try bytesHeld(by: lmdb) / max(1, revisions))
            benchmark.measurement(fileBytesPerRevision, try bytesHeld(by: file) / max(1, revisions))
        }
    }
}
