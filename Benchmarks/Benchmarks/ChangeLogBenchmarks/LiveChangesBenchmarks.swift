import Benchmark
import ChangeLog
import Foundation

// Live delivery without snapshots: a subscriber of `subscribeChanges(from:)` (what `tail
// --follow` as text or `--json --changes-only`, and the server's changes-only streams follow)
// beside one of `subscribe(from:)`, full records, on the same churn revisions, one after the
// other in the same sample. Each waits live on its log's feed; a batch of revisions is appended
// in one transaction, and the time runs from the subscriber receiving the first of them to it
// receiving the last: the feed's reading, decoding and handing over of the others, without the
// append (which the feed's first read overlaps).

/// The full subscriber's delivery time over the changes subscriber's (× 100).
let liveChangesSpeedup = BenchmarkMetric.custom(
    "subscribe / subscribeChanges delivery time (×100)", polarity: .prefersLarger, useScalingFactor: false)

/// The changes subscriber's part of a paired sample.
let liveChangesMicroseconds = BenchmarkMetric.custom(
    "subscribeChanges delivery (μs)", polarity: .prefersSmaller, useScalingFactor: false)
/// The full subscriber's part of a paired sample.
let liveRecordsMicroseconds = BenchmarkMetric.custom(
    "subscribe delivery (μs)", polarity: .prefersSmaller, useScalingFactor: false)

/// The revisions appended per subscriber per sample.
let liveRevisionsPerSample = 512

let liveDelivery = Fixture<AppendState>()

/// Subscribes, through `subscribe`, from after `log`'s latest revision, appends the next
/// ``liveRevisionsPerSample`` revisions of `workload` once the subscriber waits live, and
/// returns the nanoseconds from the delivery of the first of them to the delivery of the last.
func liveDeliveryNanoseconds<Events: AsyncSequence & Sendable>(
    _ log: ChangeLog, _ workload: inout ChurnWorkload, subscribe: (UInt64) -> Events,
    revision: @escaping @Sendable (Events.Element) -> UInt64?
) async throws -> Int where Events.Element: Sendable {
    let entries = (0..<liveRevisionsPerSample).map { _ in ChangeLog.AppendEntry(workload.next()) }
    let last = try log.latestRevision + UInt64(liveRevisionsPerSample)
    let events = subscribe(try log.latestRevision + 1)
    let (waiting, waits) = AsyncStream.makeStream(of: Void.self)
    let subscriber = Task.detached { () -> Int in
        var first: Int?
        for try await event in events {
            guard let revision = revision(event) else {
                // Caught up: live from here.
                waits.yield()
                continue
            }
            if first == nil { first = monotonicNanoseconds() }
            if revision == last { break }
        }
        return monotonicNanoseconds() - (first ?? 0)
    }
    var iterator = waiting.makeAsyncIterator()
    await iterator.next()
    // The subscriber joins its feed on its next call after the marker.
    try await Task.sleep(for: .milliseconds(20))
    _ = try await log.append(contentsOf: entries)
    return try await subscriber.value
}

func registerLiveChangesBenchmarks() {
    Benchmark(
        "live delivery paired: subscribeChanges \(liveRevisionsPerSample) revisions, then subscribe (full records) "
            + "of as many",
        configuration: .init(
            metrics: [.wallClock, liveChangesSpeedup, liveChangesMicroseconds, liveRecordsMicroseconds],
            timeUnits: .milliseconds, maxDuration: .seconds(30), maxIterations: 30)
    ) { benchmark in
        var state = liveDelivery.value
        let log = state.log
        let changes = try await liveDeliveryNanoseconds(
            log, &state.workload, subscribe: { log.subscribeChanges(from: $0, batchSize: 1_024) },
            revision: { event in
                if case .revision(let revision) = event { revision.revision } else { nil }
            })
        let full = try await liveDeliveryNanoseconds(
            log, &state.workload, subscribe: { log.subscribe(from: $0, batchSize: 1_024) },
            revision: { event in
                if case .revision(let record) = event { record.revision } else { nil }
            })
        liveDelivery.set(state)
        benchmark.measurement(liveChangesSpeedup, Int((100 * Double(full) / Double(max(1, changes))).rounded()))
        benchmark.measurement(liveChangesMicroseconds, changes / 1_000)
        benchmark.measurement(liveRecordsMicroseconds, full / 1_000)
    } setup: {
        liveDelivery.set(try await makeAppendState("live", durability: .noSync))
    } teardown: {
        liveDelivery.value.directory.remove()
        liveDelivery.set(nil)
    }
}
