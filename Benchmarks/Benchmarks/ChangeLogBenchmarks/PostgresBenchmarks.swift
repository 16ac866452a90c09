import Benchmark
import ChangeLog
import ChangeLogPostgres
import Foundation
import ListAdapter
import PostgresNIO

// The log on PostgreSQL (ChangeLogPostgres), each case beside its baseline in the same samples:
// durable appends beside raw single-row INSERT commits of the same bytes (RawPostgres), 8
// concurrent appenders beside 1, a subscriber in another process, and a catch-up read beside a
// raw SELECT of the same rows. The server is the one CHANGELOG_TEST_POSTGRES_URL names (a URL
// without `log=`: scripts/with-postgres.sh starts a throwaway one and exports it); without it
// the cases are left out. Each case appends to logs of its own, named `bench-CASE-PID`, which
// stay in the database.

/// The variable naming the server: a PostgreSQL URL without `log=`.
let postgresURLVariable = "CHANGELOG_TEST_POSTGRES_URL"

let postgresAppendMicroseconds = BenchmarkMetric.custom(
    "log append (μs/revision)", polarity: .prefersSmaller, useScalingFactor: false)
let rawInsertMicroseconds = BenchmarkMetric.custom(
    "raw INSERT commit (μs/row)", polarity: .prefersSmaller, useScalingFactor: false)
let appendShareOfRawInsert = BenchmarkMetric.custom(
    "log append / raw INSERT time (x100)", polarity: .prefersSmaller, useScalingFactor: false)
let postgresCatchUpRate = BenchmarkMetric.custom(
    "records(in:) (revisions/s)", polarity: .prefersLarger, useScalingFactor: false)
let rawSelectRate = BenchmarkMetric.custom(
    "raw SELECT (revisions/s)", polarity: .prefersLarger, useScalingFactor: false)
let catchUpShareOfRawSelect = BenchmarkMetric.custom(
    "records(in:) / raw SELECT rate (x100)", polarity: .prefersLarger, useScalingFactor: false)
let lmdbCatchUpRate = BenchmarkMetric.custom(
    "records(in:) on LMDB (revisions/s)", polarity: .prefersLarger, useScalingFactor: false)
let catchUpShareOfLMDB = BenchmarkMetric.custom(
    "PostgreSQL / LMDB records(in:) rate (x100)", polarity: .prefersLarger, useScalingFactor: false)
let postgresChangesRate = BenchmarkMetric.custom(
    "changes(in:) (revisions/s)", polarity: .prefersLarger, useScalingFactor: false)
let changesShareOfRawSelect = BenchmarkMetric.custom(
    "changes(in:) / raw SELECT rate (x100)", polarity: .prefersLarger, useScalingFactor: false)

/// The PostgreSQL cases' metrics, shown as plain numbers.
let postgresMetrics = [
    postgresAppendMicroseconds, rawInsertMicroseconds, appendShareOfRawInsert, postgresCatchUpRate, rawSelectRate,
    catchUpShareOfRawSelect, lmdbCatchUpRate, catchUpShareOfLMDB, postgresChangesRate, changesShareOfRawSelect,
]

/// The URL of the log `name` on the server of `base` (a URL without `log=`).
func postgresLogURL(_ base: String, name: String) -> String {
    base + (base.contains("?") ? "&" : "?") + "log=\(name)-\(ProcessInfo.processInfo.processIdentifier)"
}

/// A log on PostgreSQL with the churn workload's first snapshot as revision 1.
func makePostgresLog(_ base: String, name: String, durability: ChangeLog.Durability = .durable) async throws -> (
    url: String, log: ChangeLog, workload: ChurnWorkload
) {
    let url = postgresLogURL(base, name: name)
    var workload = ChurnWorkload()
    let log = try ChangeLog(url: url, options: .init(durability: durability))
    _ = try await log.append(workload.snapshot)
    _ = workload.next()
    return (url, log, workload)
}

struct PostgresAppendState: Sendable {
    var log: ChangeLog
    var workload: ChurnWorkload
    var raw: RawPostgres
    var value: [UInt8]
    var nextRawRevision: Int64 = 1
    var samples = 0
}

struct PostgresPairState: Sendable {
    var single: ChangeLog
    var concurrent: ChangeLog
    var singleWorkload: ChurnWorkload
    var concurrentWorkload: ChurnWorkload
}

struct PostgresLatencyState: Sendable {
    var log: ChangeLog
    var workload: ChurnWorkload
    var inbox: LatencyInbox
    var child: SubscriberProcess.Child
}

struct PostgresReadState: Sendable {
    var log: ChangeLog
    /// The same revisions on LMDB.
    var lmdb: ChangeLog
    var directory: TemporaryDirectory
    var raw: RawPostgres
    var logID: Int64
    var samples = 0
}

let postgresAppending = Fixture<PostgresAppendState>()
let postgresPairing = Fixture<PostgresPairState>()
let postgresLatency = Fixture<PostgresLatencyState>()
let postgresReading = Fixture<PostgresReadState>()

/// Revisions each side of the append pair appends per sample.
let postgresPairRevisions = 8

func registerPostgresBenchmarks() {
    guard let base = ProcessInfo.processInfo.environment[postgresURLVariable], !base.isEmpty else {
        print("postgres benchmarks left out: \(postgresURLVariable) is not set (run under scripts/with-postgres.sh)")
        return
    }

    // MARK: 1 appender beside raw INSERT commits

    Benchmark(
        "postgres: append durable, 1 appender beside raw single-row INSERT commits of the same bytes, "
            + "\(postgresPairRevisions) each per sample",
        configuration: .init(
            metrics: [
                .wallClock, postgresAppendMicroseconds, rawInsertMicroseconds, appendShareOfRawInsert, valueBytes,
            ],
            timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 100)
    ) { benchmark in
        let (state, snapshots, firstRaw) = postgresAppending.update { state in
            state.samples += 1
            defer { state.nextRawRevision += Int64(postgresPairRevisions) }
            return (state, state.workload.next(postgresPairRevisions), state.nextRawRevision)
        }
        let bytes = ByteBuffer(bytes: state.value)
        func appendLog() async throws -> Int {
            try await nanoseconds {
                for snapshot in snapshots { _ = try await state.log.append(snapshot) }
            }
        }
        func insertRaw() async throws -> Int {
            try await nanoseconds {
                for offset in 0..<Int64(postgresPairRevisions) {
                    try state.raw.insert(revision: firstRaw + offset, bytes: bytes)
                }
            }
        }
        benchmark.startMeasurement()
        let log: Int
        let raw: Int
        if state.samples % 2 == 0 {
            log = try await appendLog()
            raw = try await insertRaw()
        } else {
            raw = try await insertRaw()
            log = try await appendLog()
        }
        benchmark.stopMeasurement()
        benchmark.measurement(postgresAppendMicroseconds, log / 1000 / postgresPairRevisions)
        benchmark.measurement(rawInsertMicroseconds, raw / 1000 / postgresPairRevisions)
        benchmark.measurement(appendShareOfRawInsert, log * 100 / max(1, raw))
        benchmark.measurement(valueBytes, state.value.count)
    } setup: {
        let made = try await makePostgresLog(base, name: "bench-append1")
        let (url, log) = (made.url, made.log)
        var workload = made.workload
        let address = try PostgresLogAddress(url: url)
        let raw = try RawPostgres(address: address)
        try raw.createTable()
        // The bytes a revision stores (its record and its new chunks), over 50 durable appends.
        let logID = try raw.logID(named: address.logName)
        let before = try raw.storedBytes(logID: logID)
        for snapshot in workload.next(50) { _ = try await log.append(snapshot) }
        let size = (try raw.storedBytes(logID: logID) - before) / 50
        postgresAppending.set(
            PostgresAppendState(log: log, workload: workload, raw: raw, value: payload(size)))
    } teardown: {
        postgresAppending.set(nil)
    }

    // MARK: 8 concurrent appenders beside 1 (group commit)

    Benchmark(
        "postgres: append durable, 1 appender then 8 concurrent appenders, paired",
        configuration: .init(
            metrics: [.wallClock, groupCommitSpeedup, pairedSingleMicroseconds, pairedConcurrentMicroseconds],
            timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 60)
    ) { benchmark in
        let (single, concurrent, singleSnapshots, concurrentSnapshots) = postgresPairing.update { state in
            (
                state.single, state.concurrent, state.singleWorkload.next(pairedSingleRevisions),
                state.concurrentWorkload.next(concurrentRevisionsPerSample)
            )
        }
        benchmark.startMeasurement()
        let alone = try await nanoseconds {
            for snapshot in singleSnapshots { _ = try await single.append(snapshot) }
        }
        let together = try await appendFromEightTasks(concurrentSnapshots, to: concurrent)
        benchmark.stopMeasurement()
        let speedup = Double(rate(concurrentRevisionsPerSample, together)) / Double(rate(pairedSingleRevisions, alone))
        benchmark.measurement(groupCommitSpeedup, Int((speedup * 100).rounded()))
        benchmark.measurement(pairedSingleMicroseconds, alone / pairedSingleRevisions / 1_000)
        benchmark.measurement(pairedConcurrentMicroseconds, together / concurrentRevisionsPerSample / 1_000)
    } setup: {
        let single = try await makePostgresLog(base, name: "bench-single")
        let concurrent = try await makePostgresLog(base, name: "bench-concurrent")
        postgresPairing.set(
            PostgresPairState(
                single: single.log, concurrent: concurrent.log, singleWorkload: single.workload,
                concurrentWorkload: concurrent.workload))
    } teardown: {
        postgresPairing.set(nil)
    }

    // MARK: Append to receipt in another process

    Benchmark(
        "postgres: live subscriber latency, across processes (durable append start to delivery)",
        configuration: .init(
            metrics: [.wallClock, latencyMicroseconds, appendMicroseconds], maxDuration: .seconds(10),
            maxIterations: 300)
    ) { benchmark in
        let (log, inbox, snapshot) = postgresLatency.update { state in (state.log, state.inbox, state.workload.next()) }
        benchmark.startMeasurement()
        let start = monotonicNanoseconds()
        _ = try await log.append(snapshot, meta: [appendStartKey: String(start)])
        let appended = monotonicNanoseconds() - start
        guard let delivered = await inbox.next() else {
            benchmark.error("no revision reached the other process's subscriber within 10 s")
            return
        }
        benchmark.stopMeasurement()
        benchmark.measurement(latencyMicroseconds, delivered / 1_000)
        benchmark.measurement(appendMicroseconds, appended / 1_000)
    } setup: {
        let (url, log, workload) = try await makePostgresLog(base, name: "bench-latency")
        let inbox = LatencyInbox()
        let child = try SubscriberProcess.Child(log: url, from: 2, into: inbox)
        guard await inbox.next(timeout: .seconds(30)) == -1 else {
            child.stop()
            throw SetupFailure(description: "the other process's subscriber never caught up")
        }
        postgresLatency.set(PostgresLatencyState(log: log, workload: workload, inbox: inbox, child: child))
    } teardown: {
        postgresLatency.value.child.stop()
        postgresLatency.set(nil)
    }

    // MARK: Catch-up beside a raw SELECT

    /// Runs `first` and `second`, in turn first by sample; returns their times in that order.
    func alternate(_ sample: Int, _ first: () async throws -> Int, _ second: () async throws -> Int) async throws
        -> (Int, Int)
    {
        if sample % 2 == 0 {
            let a = try await first()
            return (a, try await second())
        }
        let b = try await second()
        return (try await first(), b)
    }

    let range = 1...UInt64(revisionsPerBatch)
    let rawRange = 1...Int64(revisionsPerBatch)

    /// Reads every record of `range` from `log`, returning the nanoseconds it took.
    func readAllRecords(of log: ChangeLog) async throws -> Int {
        var count = 0
        let elapsed = try await nanoseconds {
            for try await record in log.records(in: range) {
                blackHole(record)
                count += 1
            }
        }
        precondition(count == revisionsPerBatch)
        return elapsed
    }

    /// Reads the rows of `range` with one `SELECT` (and, `chunks`, every chunk with another).
    func selectRaw(_ state: PostgresReadState, chunks: Bool) throws -> Int {
        let start = monotonicNanoseconds()
        let count = try state.raw.readLog(logID: state.logID, revisions: rawRange, chunks: chunks)
        precondition(count == revisionsPerBatch)
        return monotonicNanoseconds() - start
    }

    func nextReadSample() -> PostgresReadState {
        postgresReading.update { state in
            state.samples += 1
            return state
        }
    }

    Benchmark(
        "postgres: catch-up records(in:) \(revisionsPerBatch) revisions from revision 0 beside a raw SELECT of the "
            + "same rows and records(in:) on LMDB, paired",
        configuration: .init(
            metrics: [
                .wallClock, postgresCatchUpRate, rawSelectRate, catchUpShareOfRawSelect, lmdbCatchUpRate,
                catchUpShareOfLMDB,
            ],
            timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 40)
    ) { benchmark in
        let state = nextReadSample()
        benchmark.startMeasurement()
        let (log, raw) = try await alternate(
            state.samples, { try await readAllRecords(of: state.log) }, { try selectRaw(state, chunks: true) })
        let lmdb = try await readAllRecords(of: state.lmdb)
        benchmark.stopMeasurement()
        benchmark.measurement(postgresCatchUpRate, rate(revisionsPerBatch, log))
        benchmark.measurement(rawSelectRate, rate(revisionsPerBatch, raw))
        benchmark.measurement(catchUpShareOfRawSelect, raw * 100 / max(1, log))
        benchmark.measurement(lmdbCatchUpRate, rate(revisionsPerBatch, lmdb))
        benchmark.measurement(catchUpShareOfLMDB, lmdb * 100 / max(1, log))
    } setup: {
        postgresReading.set(try await makePostgresReadState(base, name: "bench-catchup"))
    } teardown: {
        postgresReading.value.directory.remove()
        postgresReading.set(nil)
    }

    Benchmark(
        "postgres: catch-up changes(in:) \(revisionsPerBatch) revisions from revision 0 beside a raw SELECT of the "
            + "same records, paired",
        configuration: .init(
            metrics: [.wallClock, postgresChangesRate, rawSelectRate, changesShareOfRawSelect],
            timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 100)
    ) { benchmark in
        let state = nextReadSample()
        benchmark.startMeasurement()
        let (log, raw) = try await alternate(
            state.samples,
            {
                var count = 0
                let elapsed = try await nanoseconds {
                    for try await changes in state.log.changes(in: range) {
                        blackHole(changes)
                        count += 1
                    }
                }
                precondition(count == revisionsPerBatch)
                return elapsed
            }, { try selectRaw(state, chunks: false) })
        benchmark.stopMeasurement()
        benchmark.measurement(postgresChangesRate, rate(revisionsPerBatch, log))
        benchmark.measurement(rawSelectRate, rate(revisionsPerBatch, raw))
        benchmark.measurement(changesShareOfRawSelect, raw * 100 / max(1, log))
    } setup: {
        postgresReading.set(try await makePostgresReadState(base, name: "bench-changes"))
    } teardown: {
        postgresReading.value.directory.remove()
        postgresReading.set(nil)
    }
}

/// A log of `revisionsPerBatch` churn revisions on PostgreSQL, and the same revisions on LMDB,
/// appended 100 per transaction without waiting for flushes (the same records and chunks as
/// appends one by one would store, made faster), then flushed.
func makePostgresReadState(_ base: String, name: String) async throws -> PostgresReadState {
    let made = try await makePostgresLog(base, name: name, durability: .noSync)
    let (url, log) = (made.url, made.log)
    var workload = made.workload
    let directory = TemporaryDirectory("postgres-catchup")
    let lmdb = try ChangeLog(path: directory.appending("log"), options: .init(durability: .noSync))
    _ = try await lmdb.append(ChurnWorkload().snapshot)
    var remaining = revisionsPerBatch - 1
    while remaining > 0 {
        let entries = workload.next(min(100, remaining)).map { ChangeLog.AppendEntry($0) }
        _ = try await log.append(contentsOf: entries)
        _ = try await lmdb.append(contentsOf: entries)
        remaining -= entries.count
    }
    try log.flush()
    try lmdb.flush()
    let address = try PostgresLogAddress(url: url)
    let raw = try RawPostgres(address: address)
    return PostgresReadState(
        log: log, lmdb: lmdb, directory: directory, raw: raw, logID: try raw.logID(named: address.logName))
}
