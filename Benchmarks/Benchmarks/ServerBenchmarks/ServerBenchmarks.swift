import Benchmark
import ChangeLog
import ChangeLogServer
import Foundation

// `replay serve`'s server (`LogServer`) on loopback, beside the in-process `ChangeLog` API in the
// same run: the latency from a durable append call to the receipt of its Server-Sent Event by
// 1, 100 and 1,000 subscribers (`changes-only=1`, as a renderer that follows a list reads),
// beside an in-process subscription's; and catch-up over HTTP (`/api/revisions`, and
// `/api/subscribe` with `changes-only=1`) paired in each sample with `records(in:)` over the
// same revisions. The clients are plain sockets read by one thread with `poll`, in this process.

let latencyMicroseconds = BenchmarkMetric.custom("latency (μs)", polarity: .prefersSmaller, useScalingFactor: false)
let revisionsPerSecond = BenchmarkMetric.custom("revisions/s", polarity: .prefersLarger, useScalingFactor: false)
let inProcessRevisionsPerSecond = BenchmarkMetric.custom(
    "in-process revisions/s", polarity: .prefersLarger, useScalingFactor: false)
let shareOfInProcess = BenchmarkMetric.custom(
    "% of in-process rate", polarity: .prefersLarger, useScalingFactor: false)

/// The revisions each catch-up sample reads.
let catchUpRevisions = 1_000

let fixture = Fixture()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock],
        timeUnits: .microseconds,
        units: Dictionary(
            uniqueKeysWithValues: [
                latencyMicroseconds, revisionsPerSecond, inProcessRevisionsPerSecond, shareOfInProcess,
            ]
            .map { ($0, .count) }),
        maxDuration: .seconds(10),
        maxIterations: 300
    )

    /// Appends one revision and waits until it reached every receiver; records each receipt's
    /// latency from the append call.
    func measureLatency(_ benchmark: Benchmark) async throws {
        let (log, snapshot, receipts) = fixture.update { state in
            (state.log, state.workload.next(), state.clients?.receipts ?? state.inProcessReceipts!)
        }
        let revision = try log.latestRevision + 1
        benchmark.startMeasurement()
        let start = monotonicNanoseconds()
        _ = try await log.append(snapshot)
        let times = await receipts.all(of: revision)
        benchmark.stopMeasurement()
        for time in times { benchmark.measurement(latencyMicroseconds, (time - start) / 1_000) }
    }

    Benchmark(
        "live subscriber latency, in process (durable append call to delivery)",
        configuration: .init(metrics: [.wallClock, latencyMicroseconds])
    ) { benchmark in
        try await measureLatency(benchmark)
    } setup: {
        var state = try await ServedLog.start("inprocess", revisions: 1, durability: .durable)
        let receipts = Receipts(expected: 1)
        let log = state.log
        state.inProcessReceipts = receipts
        state.inProcess = Task.detached {
            for try await event in log.subscribe(from: 2) {
                if case .revision(let record) = event { receipts.received(record.revision, at: monotonicNanoseconds()) }
            }
        }
        fixture.set(state)
        // The first live revision tells that the subscription waits for appends.
        _ = try await state.log.append(fixture.update { $0.workload.next() })
        _ = await receipts.all(of: 2)
    } teardown: {
        await fixture.value.stop()
        fixture.set(nil)
    }

    for subscribers in [1, 100, 1_000] {
        Benchmark(
            "live SSE latency, \(subscribers) subscribers (durable append call to receipt)",
            configuration: .init(
                metrics: [.wallClock, latencyMicroseconds], maxIterations: subscribers == 1_000 ? 40 : 300)
        ) { benchmark in
            try await measureLatency(benchmark)
        } setup: {
            var state = try await ServedLog.start("sse\(subscribers)", revisions: 1, durability: .durable)
            let clients = try EventStreamClients(
                port: state.port, target: "/api/subscribe?from=2&changes-only=1", count: subscribers)
            state.clients = clients
            fixture.set(state)
            // Once the first live revision reached every client, all of them are live.
            _ = try await state.log.append(fixture.update { $0.workload.next() })
            _ = await clients.receipts.all(of: 2)
        } teardown: {
            await fixture.value.stop()
            fixture.set(nil)
        }
    }

    /// Reads the catch-up revisions in process, then over HTTP at `target`, and records both
    /// rates and the HTTP rate's share of the in-process one.
    func measureCatchUp(_ benchmark: Benchmark, target: String, until marker: String?) async throws {
        let state = fixture.value
        benchmark.startMeasurement()
        var count = 0
        let inProcessStart = monotonicNanoseconds()
        for try await record in state.log.records(in: 1...UInt64(catchUpRevisions)) {
            blackHole(record)
            count += 1
        }
        let inProcess = monotonicNanoseconds() - inProcessStart
        let httpStart = monotonicNanoseconds()
        let bytes = try await EventStreamClients.read(port: state.port, target: target, until: marker)
        let http = monotonicNanoseconds() - httpStart
        benchmark.stopMeasurement()
        precondition(count == catchUpRevisions && bytes > catchUpRevisions)
        benchmark.measurement(inProcessRevisionsPerSecond, catchUpRevisions * 1_000_000_000 / max(1, inProcess))
        benchmark.measurement(revisionsPerSecond, catchUpRevisions * 1_000_000_000 / max(1, http))
        benchmark.measurement(shareOfInProcess, inProcess * 100 / max(1, http))
    }

    let catchUpMetrics: [BenchmarkMetric] = [
        .wallClock, revisionsPerSecond, inProcessRevisionsPerSecond, shareOfInProcess,
    ]

    Benchmark(
        "catch-up over HTTP: /api/revisions, \(catchUpRevisions) revisions, paired with records(in:)",
        configuration: .init(metrics: catchUpMetrics, timeUnits: .milliseconds, maxIterations: 40)
    ) { benchmark in
        try await measureCatchUp(benchmark, target: "/api/revisions?from=1&to=\(catchUpRevisions)", until: nil)
    } setup: {
        fixture.set(try await ServedLog.start("catchup", revisions: catchUpRevisions, durability: .noSync))
    } teardown: {
        await fixture.value.stop()
        fixture.set(nil)
    }

    Benchmark(
        "catch-up over HTTP: /api/subscribe changes-only, \(catchUpRevisions) revisions, paired with records(in:)",
        configuration: .init(metrics: catchUpMetrics, timeUnits: .milliseconds, maxIterations: 40)
    ) { benchmark in
        try await measureCatchUp(
            benchmark, target: "/api/subscribe?from=1&changes-only=1", until: "id: \(catchUpRevisions)\n")
    } setup: {
        fixture.set(try await ServedLog.start("catchupsse", revisions: catchUpRevisions, durability: .noSync))
    } teardown: {
        await fixture.value.stop()
        fixture.set(nil)
    }
}
