import Benchmark
import BenchmarkSupport
import ChangeLog
import ListAdapter

// Five edits of a 100,000-item list appended to a log (relaxed durability, so that no flush is
// timed): today's path (build the new snapshot from its sections, the log diffs it) beside the
// edits in place (the log takes their recorded changes), each sample timing both in turn.

/// Two logs holding the same 100,000-item list: one appended to as today, one with edits.
struct EditAppendState: Sendable {
    var directory: TemporaryDirectory
    var today: ChangeLog
    var edited: ChangeLog
    /// The latest snapshot of each log, as its writer holds it.
    var todayLatest: LogSnapshot
    var editedLatest: LogSnapshot
    var round = 0
    var generator = SplitMix64(seed: 0xED17)
}

let editAppending = Fixture<EditAppendState>()

/// A 36-character identifier.
func editAppendID(_ number: Int) -> String {
    let digits = String(number)
    return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
}

/// Where the five edits of one round go: drawn before the round is timed.
struct FiveEdits {
    var round: Int
    var ids: [String]

    /// Six identifiers of `snapshot`'s items, distinct.
    init(of snapshot: LogSnapshot, round: Int, using generator: inout SplitMix64) {
        self.round = round
        var ids: [String] = []
        while ids.count < 6 {
            let id = editAppendID(Int.random(in: 0..<100_000, using: &generator))
            if snapshot.contains(id), !ids.contains(id) { ids.append(id) }
        }
        self.ids = ids
    }

    /// `snapshot` with the five edits made in place: two items inserted, one deleted, one
    /// updated, one moved.
    func applied(to snapshot: LogSnapshot) -> LogSnapshot {
        var edited = snapshot
        try! edited.insertItems([.init(id: "new-\(round)-a", summary: "v1")], afterItem: ids[0])
        try! edited.insertItems([.init(id: "new-\(round)-b", summary: "v1")], beforeItem: ids[1])
        try! edited.deleteItems([ids[2]])
        try! edited.updateItem(ids[3], summary: "v\(round)")
        try! edited.moveItem(ids[4], afterItem: ids[5])
        return edited
    }
}

func registerEditAppendBenchmarks() {
    let todayMicroseconds = BenchmarkMetric.custom(
        "today: build + append (μs)", polarity: .prefersSmaller, useScalingFactor: false)
    let editsMicroseconds = BenchmarkMetric.custom(
        "edits + append (μs)", polarity: .prefersSmaller, useScalingFactor: false)
    let speedup = BenchmarkMetric.custom("today / edits", polarity: .prefersLarger, useScalingFactor: false)
    Benchmark(
        "append 5 edits of 100k items, noSync: today vs edits in place, paired",
        configuration: .init(
            metrics: [.wallClock, todayMicroseconds, editsMicroseconds, speedup], maxDuration: .seconds(20),
            maxIterations: 60)
    ) { benchmark in
        var state = editAppending.value
        state.round += 1
        let edits = FiveEdits(of: state.editedLatest, round: state.round, using: &state.generator)
        // Today's path: the app keeps plain sections, edits them, and builds the snapshot.
        let sections = edits.applied(to: state.editedLatest).sections.map { section in
            LogSnapshot.Section(title: section.title, summary: section.summary, items: section.items.map { $0 })
        }
        let today = try await nanoseconds {
            let snapshot = try LogSnapshot(sections: sections)
            _ = try await state.today.append(snapshot)
            state.todayLatest = snapshot
        }
        let edited = try await nanoseconds {
            let snapshot = edits.applied(to: state.editedLatest)
            _ = try await state.edited.append(snapshot)
            state.editedLatest = snapshot
        }
        benchmark.measurement(todayMicroseconds, today / 1_000)
        benchmark.measurement(editsMicroseconds, edited / 1_000)
        benchmark.measurement(speedup, today / max(edited, 1))
        editAppending.set(state)
    } setup: {
        let directory = TemporaryDirectory("edit-append")
        let options = ChangeLog.Options(durability: .noSync)
        let today = try ChangeLog(path: directory.appending("today"), options: options)
        let edited = try ChangeLog(path: directory.appending("edited"), options: options)
        let first = try LogSnapshot(sections: [
            .init(title: "", items: (0..<100_000).map { .init(id: editAppendID($0), summary: "v1") })
        ])
        _ = try await today.append(first)
        _ = try await edited.append(first)
        editAppending.set(
            EditAppendState(
                directory: directory, today: today, edited: edited, todayLatest: first, editedLatest: first))
    } teardown: {
        editAppending.value.directory.remove()
        editAppending.set(nil)
    }
}
