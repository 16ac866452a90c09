import Benchmark
import ChangeLog
import ChangeLogFile
import Foundation
import ListAdapter

// The main actor while a ChangeLogRecorder records a main-actor model's updates into a log of
// each engine (durable appends): the longest gap between two turns of a heartbeat task on the
// main actor, for the file engine and the LMDB engine in the same sample.

/// A row of ``RecordedRows``.
struct RecordedRow: Sendable {
    var id: Int
    var summary: String
}

/// A main-actor model of 1,000 rows in 10 sections; each edit updates 1% of the summaries.
@MainActor
final class RecordedRows: ListSource {
    private var summaries = [String](repeating: "v0", count: 1_000)
    private var edits = 0
    private var invalidator: ListInvalidator?

    func edit() {
        edits += 1
        for index in stride(from: edits % 100, to: summaries.count, by: 100) { summaries[index] = "v\(edits)" }
        invalidator?.invalidate()
    }

    func contents() -> ListContents<Int, String, Never> {
        ListContents(
            summaries.enumerated().map { RecordedRow(id: $0.offset, summary: $0.element) }, id: \.id,
            sectionTitle: { "Section \($0.id / 100)" }, summary: \.summary)
    }

    func item(for id: Int) -> String { summaries[id] }

    func attach(_ invalidator: ListInvalidator) { self.invalidator = invalidator }
}

/// Runs `body` while a heartbeat task on the main actor notes the longest gap between two of
/// its turns; returns that gap.
@MainActor
func longestMainActorGap(_ body: () async throws -> Void) async rethrows -> Duration {
    final class Heartbeat {
        var running = true
        var longest: Duration = .zero
    }
    let heartbeat = Heartbeat()
    let beating = Task { @MainActor in
        var last = ContinuousClock.now
        while heartbeat.running {
            await Task.yield()
            let now = ContinuousClock.now
            heartbeat.longest = max(heartbeat.longest, now - last)
            last = now
        }
    }
    await Task.yield()
    defer { heartbeat.running = false }
    try await body()
    heartbeat.running = false
    await beating.value
    return heartbeat.longest
}

/// Records `edits` edits of a fresh model into `log`; the main actor's longest gap meanwhile.
@MainActor
func recordEdits(_ edits: Int, into log: ChangeLog) async throws -> Duration {
    let model = RecordedRows()
    let adapter = ListAdapter(dataSource: model)
    let recorder = ChangeLogRecorder(adapter: adapter, log: log)
    await adapter.invalidateAndWait()
    try await recorder.waitUntilRecorded()
    return try await longestMainActorGap {
        for _ in 0..<edits {
            model.edit()
            await adapter.invalidateAndWait()
        }
        try await recorder.waitUntilRecorded()
    }
}

func registerRecordingHoldBenchmarks() {
    let fileHold = BenchmarkMetric.custom(
        "file engine: longest main-actor hold (μs)", polarity: .prefersSmaller, useScalingFactor: false)
    let lmdbHold = BenchmarkMetric.custom(
        "LMDB engine: longest main-actor hold (μs)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark(
        "file engine beside LMDB: main actor's longest hold while a recorder records 50 edits (1,000 rows, durable)",
        configuration: .init(metrics: [.wallClock, fileHold, lmdbHold], maxIterations: 20)
    ) { benchmark in
        let directory = TemporaryDirectory("recording-hold")
        defer { directory.remove() }
        let file = try ChangeLog(fileAt: directory.appending("log.changelog"))
        let lmdb = try ChangeLog(path: directory.appending("log"))
        let fileGap = try await recordEdits(50, into: file)
        let lmdbGap = try await recordEdits(50, into: lmdb)
        benchmark.measurement(fileHold, Int(fileGap / .microseconds(1)))
        benchmark.measurement(lmdbHold, Int(lmdbGap / .microseconds(1)))
    }
}
