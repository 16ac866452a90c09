import Benchmark
import BenchmarkSupport
import ChangeLog
import Foundation
import ListAdapter

// An item's history on a long log: through the history index beside a scan of every revision
// (the same answer, read without the index), and what the index costs in size and append time.

/// The index's bytes per 1,000 bytes of the log's pages in use.
let indexSharePerMille = BenchmarkMetric.custom(
    "index / log size (‰)", polarity: .prefersSmaller, useScalingFactor: false)
/// Appending with the index beside appending without it, in thousandths.
let appendWithIndexPerMille = BenchmarkMetric.custom(
    "append with index / without (‰)", polarity: .prefersSmaller, useScalingFactor: false)
/// The scan's time per 1 of the index's, for one item's history.
let scanOverIndex = BenchmarkMetric.custom("scan / index (x)", polarity: .prefersLarger, useScalingFactor: false)

/// A list of 1,000 items, always the same identifiers, in 10 sections: each revision gives 4
/// items a new summary, moves 2 (across sections or within one), and takes 2 out and puts 2
/// taken out earlier back, so items leave and come back.
struct ItemLifeWorkload {
    private var sections: [[LogSnapshot.Item]]
    private var out: [LogSnapshot.Item] = []
    private var rng = SplitMix64(seed: 11)
    private var version = 0

    init() {
        sections = (0..<10).map { section in
            (0..<100).map { LogSnapshot.Item(id: "item-\(section * 100 + $0)", summary: "v0") }
        }
    }

    var snapshot: LogSnapshot {
        try! LogSnapshot(
            sections: sections.enumerated().map { .init(title: "Section \($0.offset)", items: $0.element) })
    }

    private mutating func random(_ bound: Int) -> Int { Int(rng.next() % UInt64(bound)) }

    private mutating func randomPlace() -> (Int, Int) {
        var section = random(10)
        while sections[section].isEmpty { section = random(10) }
        return (section, random(sections[section].count))
    }

    mutating func next() -> LogSnapshot {
        version += 1
        for _ in 0..<4 {
            let (section, item) = randomPlace()
            sections[section][item].summary = "v\(version)"
        }
        for _ in 0..<2 {
            let (section, item) = randomPlace()
            let moved = sections[section].remove(at: item)
            let target = random(10)
            sections[target].insert(moved, at: random(sections[target].count + 1))
        }
        for _ in 0..<2 {
            let (section, item) = randomPlace()
            out.append(sections[section].remove(at: item))
        }
        for _ in 0..<2 where out.count > 2 {
            let back = out.remove(at: 0)
            let target = random(10)
            sections[target].insert(back, at: random(sections[target].count + 1))
        }
        return snapshot
    }
}

struct HistoryState: Sendable {
    var directory: TemporaryDirectory
    var indexed: ChangeLog
    var scanned: ChangeLog
    var next: Int = 0
}

let histories = Fixture<HistoryState>()

/// The number of revisions of the history benchmarks' log.
let historyRevisions = 100_000

/// A log of `historyRevisions` revisions of ``ItemLifeWorkload``, opened twice: keeping its
/// index, and without it (answering by scan).
func makeHistoryState() async throws -> HistoryState {
    let directory = TemporaryDirectory("history")
    let path = directory.appending("log")
    let log = try ChangeLog(path: path, options: .init(durability: .noSync, initialMapSize: 1 << 30))
    var workload = ItemLifeWorkload()
    var appended = 0
    while appended < historyRevisions {
        let batch = (0..<min(1_000, historyRevisions - appended)).map { _ in ChangeLog.AppendEntry(workload.next()) }
        _ = try await log.append(contentsOf: batch)
        appended += batch.count
    }
    // The scan reads a copy: one process opens a log with one set of options only.
    try log.flush()
    let copy = directory.appending("scanned")
    try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: path + "/data.mdb", toPath: copy + "/data.mdb")
    var options = ChangeLog.Options(durability: .noSync)
    options.keepsHistoryIndex = false
    let scanned = try ChangeLog(path: copy, options: options)
    return HistoryState(directory: directory, indexed: log, scanned: scanned)
}

/// Two new logs for the paired append case: one keeps the index, the other does not.
struct IndexCostState: Sendable {
    var directory: TemporaryDirectory
    var with: ChangeLog
    var without: ChangeLog
    var workload: ItemLifeWorkload
}

extension ItemLifeWorkload: @unchecked Sendable {}

let indexCost = Fixture<IndexCostState>()

func registerHistoryBenchmarks() {
    Benchmark(
        "history: one item through the index (100,000 revisions, 1,000 items)",
        configuration: .init(metrics: [.wallClock, indexSharePerMille], maxDuration: .seconds(10), maxIterations: 200)
    ) { benchmark in
        let (log, item) = histories.update { state in
            state.next += 1
            return (state.indexed, "item-\(state.next * 7919 % 1_000)")
        }
        benchmark.startMeasurement()
        let events = try log.history(of: .item(item)).events
        benchmark.stopMeasurement()
        blackHole(events)
        let status = try log.historyIndexStatus()
        benchmark.measurement(indexSharePerMille, status.bytes * 1_000 / log.bytesInUse)
    } setup: {
        histories.set(try await makeHistoryState())
    } teardown: {
        histories.value.directory.remove()
        histories.set(nil)
    }

    Benchmark(
        "history: one item, index paired with a scan of every revision (100,000 revisions, 1,000 items)",
        configuration: .init(metrics: [.wallClock, scanOverIndex], maxDuration: .seconds(120), maxIterations: 3)
    ) { benchmark in
        let (indexed, scanned, item) = histories.update { state in
            state.next += 1
            return (state.indexed, state.scanned, "item-\(state.next * 7919 % 1_000)")
        }
        var fromIndex: [HistoryEvent] = []
        var fromScan: [HistoryEvent] = []
        let index = try await nanoseconds { fromIndex = try indexed.history(of: .item(item)).events }
        let scan = try await nanoseconds { fromScan = try scanned.history(of: .item(item)).events }
        precondition(fromIndex == fromScan, "the index and the scan disagree on \(item)")
        benchmark.measurement(scanOverIndex, scan / max(1, index))
    } setup: {
        histories.set(try await makeHistoryState())
    } teardown: {
        histories.value.directory.remove()
        histories.set(nil)
    }

    Benchmark(
        "append: with the history index paired with without (1,000 items, 10 per revision)",
        configuration: .init(
            metrics: [.wallClock, appendWithIndexPerMille], maxDuration: .seconds(10), maxIterations: 100)
    ) { benchmark in
        let (with, without, snapshots) = indexCost.update { state in
            (state.with, state.without, (0..<32).map { _ in state.workload.next() })
        }
        var withTime = 0
        var withoutTime = 0
        for snapshot in snapshots {
            withoutTime += try await nanoseconds { _ = try await without.append(snapshot) }
            withTime += try await nanoseconds { _ = try await with.append(snapshot) }
        }
        benchmark.measurement(appendWithIndexPerMille, withTime * 1_000 / max(1, withoutTime))
    } setup: {
        let directory = TemporaryDirectory("history-append")
        var options = ChangeLog.Options()
        let with = try ChangeLog(path: directory.appending("with"), options: options)
        options.keepsHistoryIndex = false
        let without = try ChangeLog(path: directory.appending("without"), options: options)
        var workload = ItemLifeWorkload()
        _ = try await with.append(workload.snapshot)
        _ = try await without.append(workload.snapshot)
        _ = workload.next()
        indexCost.set(IndexCostState(directory: directory, with: with, without: without, workload: workload))
    } teardown: {
        indexCost.value.directory.remove()
        indexCost.set(nil)
    }
}
