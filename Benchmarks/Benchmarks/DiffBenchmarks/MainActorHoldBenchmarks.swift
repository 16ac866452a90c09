import Benchmark
import ListAdapter

/// One row of the benchmark's model.
struct BenchmarkRow: Sendable {
    var id: Int
    var section: Int
    var summary: String
}

/// A model kept as apps keep one: main-actor state in a plain array.
@MainActor
final class MainActorRows: ListSource {
    var rows: [BenchmarkRow]
    /// How long the last `contents()` call held the main actor.
    private(set) var lastContentsDuration: Duration = .zero
    private var edits = 0

    init(count: Int) {
        rows = (0..<count).map { BenchmarkRow(id: $0, section: $0 / 10_000, summary: "v0") }
    }

    /// Updates every 100th row's summary, so that each invalidation has 1% of the rows to update.
    func edit() {
        edits += 1
        let summary = "v\(edits)"
        for index in stride(from: edits % 100, to: rows.count, by: 100) { rows[index].summary = summary }
    }

    func contents() -> ListContents<Int, String, Never> {
        let start = ContinuousClock.now
        defer { lastContentsDuration = .now - start }
        return ListContents(rows, id: \.id, sectionTitle: { "Section \($0.section)" }, summary: \.summary)
    }

    func item(for id: Int) -> BenchmarkRow { rows[id] }
}

/// Runs `body` while a heartbeat task on the main actor notes the longest gap between two of its
/// turns: the longest the main actor was kept from running other work meanwhile (including the
/// time the system ran other threads on the cores).
///
/// - Returns: `body`'s time and the longest gap.
@MainActor
func withHeartbeat(_ body: () async -> Void) async -> (total: Duration, longestGap: Duration) {
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
    let start = ContinuousClock.now
    await body()
    let total = ContinuousClock.now - start
    heartbeat.running = false
    await beating.value
    return (total, heartbeat.longest)
}

/// The model and its adapter, built (and loaded once) on first use.
@MainActor
enum MainActorWorkload {
    static let model = MainActorRows(count: 1_000_000)
    static let adapter = ListAdapter(dataSource: model)
    static var isLoaded = false

    static func loaded() async -> (MainActorRows, ListAdapter<MainActorRows>) {
        if !isLoaded {
            await adapter.invalidateAndWait()
            isLoaded = true
        }
        return (model, adapter)
    }
}

/// The main-actor model benchmark: one invalidation of 1,000,000 identifiers in 100 sections,
/// 1% of them updated (the edit itself not timed). Reported: the full invalidation time, the
/// longest the main actor was held during it, and the model's `contents()` time; beside them two
/// references measured the same way: the longest main-actor gap while the process idles as long
/// as the invalidation took (what the system's scheduling alone causes on a loaded machine), and
/// while the same snapshot build and diff run in a detached task on the cooperative pool instead
/// of the adapter's own queue.
func mainActorHoldBenchmarks() {
    let invalidationMetric = BenchmarkMetric.custom(
        "full invalidation (us)", polarity: .prefersSmaller, useScalingFactor: false)
    let holdMetric = BenchmarkMetric.custom(
        "longest main-actor hold (us)", polarity: .prefersSmaller, useScalingFactor: false)
    let contentsMetric = BenchmarkMetric.custom(
        "contents() on the main actor (us)", polarity: .prefersSmaller, useScalingFactor: false)
    let idleMetric = BenchmarkMetric.custom(
        "reference: longest main-actor gap, idle (us)", polarity: .prefersSmaller, useScalingFactor: false)
    let poolMetric = BenchmarkMetric.custom(
        "reference: longest main-actor gap, same work on the pool (us)", polarity: .prefersSmaller,
        useScalingFactor: false)
    Benchmark(
        "main-actor model: one invalidation of 1M identifiers",
        configuration: .init(
            metrics: [invalidationMetric, holdMetric, contentsMetric, idleMetric, poolMetric], timeUnits: .microseconds,
            maxDuration: .seconds(60), maxIterations: 10)
    ) { benchmark in
        let times = await measureOnMainActor()
        benchmark.measurement(invalidationMetric, microseconds(times.invalidation.total))
        benchmark.measurement(holdMetric, microseconds(times.invalidation.longestGap))
        benchmark.measurement(contentsMetric, microseconds(times.contents))
        benchmark.measurement(idleMetric, microseconds(times.idle))
        benchmark.measurement(poolMetric, microseconds(times.pool))
    }
}

@MainActor
private func measureOnMainActor() async -> (
    invalidation: (total: Duration, longestGap: Duration), contents: Duration, idle: Duration, pool: Duration
) {
    let (model, adapter) = await MainActorWorkload.loaded()
    model.edit()
    let invalidation = await withHeartbeat { await adapter.invalidateAndWait() }
    let contents = model.lastContentsDuration
    let idle = await withHeartbeat { try? await Task.sleep(for: invalidation.total) }
    // The same work, not through the adapter: on the cooperative pool.
    let rows = model.rows
    let base = adapter.snapshot
    let pool = await withHeartbeat {
        await Task.detached {
            let contents = ListContents<Int, String, Never>(
                rows, id: \.id, sectionTitle: { "Section \($0.section)" }, summary: \.summary)
            blackHole(base.changes(to: try! contents.snapshot()))
        }.value
    }
    return (invalidation, contents, idle.longestGap, pool.longestGap)
}

private func microseconds(_ duration: Duration) -> Int {
    Int(duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000)
}
