import Benchmark
import ListAdapter

/// A flat list of 100,000 items with 36-character identifiers, and five edits of it: two items
/// inserted, one deleted, one updated, one moved across the list.
struct EditWorkload {
    typealias Snapshot = ListSnapshot<String, String, String>

    let base: Snapshot
    /// The base after the five edits, made in place.
    let edited: Snapshot
    /// The edited list's sections as plain values, to time today's path: build and diff.
    let editedSections: [Snapshot.Section]

    init(count: Int = 100_000) {
        func id(_ number: Int) -> String {
            let digits = String(number)
            return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
        }
        base = try! Snapshot(sections: [.init(title: "", items: (0..<count).map { .init(id: id($0), summary: "v1") })])
        edited = Self.edit(base, count: count, id: id)
        editedSections = edited.sections
    }

    /// `base` with the five edits made in place.
    static func edit(_ base: Snapshot, count: Int, id: (Int) -> String) -> Snapshot {
        var snapshot = base
        try! snapshot.insertItems([.init(id: id(count), summary: "v1")], afterItem: id(count / 3))
        try! snapshot.insertItems([.init(id: id(count + 1), summary: "v1")], beforeItem: id(2 * count / 3))
        try! snapshot.deleteItems([id(count / 2)])
        try! snapshot.updateItem(id(count / 4), summary: "v2")
        try! snapshot.moveItem(id(count / 10), afterItem: id(9 * count / 10))
        return snapshot
    }
}

let editWorkload = EditWorkload()

/// Five edits of a 100,000-item list: today's path (build the new snapshot from its sections,
/// then diff) beside the edits in place and the changes they record, in the same run.
func editBenchmarks() {
    let count = 100_000
    func id(_ number: Int) -> String {
        let digits = String(number)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }
    Benchmark("edit flat 100k x5: new snapshot built + diff (today)") { benchmark in
        for _ in benchmark.scaledIterations {
            let new = try ListSnapshot(sections: editWorkload.editedSections)
            blackHole(editWorkload.base.changes(to: new))
        }
    }
    Benchmark("edit flat 100k x5: edits in place + recorded changes") { benchmark in
        for _ in benchmark.scaledIterations {
            let edited = EditWorkload.edit(editWorkload.base, count: count, id: id)
            blackHole(edited.changes(editedFrom: editWorkload.base))
        }
    }
    Benchmark("edit flat 100k x5: recorded changes only") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(editWorkload.edited.changes(editedFrom: editWorkload.base))
        }
    }
    Benchmark("edit flat 100k x5: full diff of the edited snapshot") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(editWorkload.base.changes(to: editWorkload.edited))
        }
    }

    // Each sample times today's path and the new ones on the same data one right after the
    // other, so each ratio compares like with like: medians of 5 runs each.
    let toDiff = BenchmarkMetric.custom("today / recorded changes", polarity: .prefersLarger, useScalingFactor: false)
    let toEdit = BenchmarkMetric.custom(
        "today / edits + recorded changes", polarity: .prefersLarger, useScalingFactor: false)
    Benchmark(
        "edit flat 100k x5 vs today, paired",
        configuration: .init(
            metrics: [.wallClock, toDiff, toEdit], timeUnits: .microseconds, maxDuration: .seconds(10),
            maxIterations: 40)
    ) { benchmark in
        let clock = ContinuousClock()
        func median(_ work: () throws -> Void) rethrows -> Duration {
            let runs = try (0..<5).map { _ in try clock.measure(work) }
            return runs.sorted()[2]
        }
        let today = try median {
            let new = try ListSnapshot(sections: editWorkload.editedSections)
            blackHole(editWorkload.base.changes(to: new))
        }
        let edits = median {
            let edited = EditWorkload.edit(editWorkload.base, count: count, id: id)
            blackHole(edited.changes(editedFrom: editWorkload.base))
        }
        let recorded = median { blackHole(editWorkload.edited.changes(editedFrom: editWorkload.base)) }
        benchmark.measurement(toDiff, Int((today / recorded).rounded()))
        benchmark.measurement(toEdit, Int((today / edits).rounded()))
    }
}
