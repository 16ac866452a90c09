import ChangeLog
import Foundation
import ListAdapter

/// One run of the demo: record, verify, replay, and the lines that tell the user what happened.
struct DemoRun {
    let path: String
    let revisions: Int
    let seed: UInt64

    /// Records `revisions` changes of the demo feed into the log at `path`, verifies the whole
    /// log and replays it into the UIKit-strict renderer.
    /// - Returns: the summary to print.
    @MainActor
    func run() async throws -> [String] {
        let started = Date()
        let log: ChangeLog
        if LogOptions.isPostgresURL(path) {
            // A URL is a log on PostgreSQL, never a directory.
            log = try LogOptions.openPostgres(path, passwordFile: nil, options: .init(createIfMissing: true))
        } else {
            try NewLogPlace.check(path)
            log = try ChangeLog(path: path, options: .init(createIfMissing: true))
        }
        let before = try log.latestRevision
        try Self.checkRecordedByDemo(log, latest: before)
        let feed = DemoFeed(seed: seed)
        let adapter = ListAdapter(dataSource: feed)
        let recorder = ChangeLogRecorder(adapter: adapter, log: log)
        // This run's revisions: another writer may append to the same log meanwhile.
        let recorded = RecordedRevisions()
        recorder.onRecord = { recorded.revisions.append($0.revision) }
        var totals = LogChanges.Counts()
        var progress = Progress("recording changes", total: revisions)
        for step in 1...revisions {
            let event = feed.step()
            recorder.nextMeta = [Self.markerKey: String(seed), "event": event, "step": String(step)]
            await adapter.invalidateAndWait()
            progress.update(step)
        }
        try await recorder.waitUntilRecorded()
        progress.finish()
        let latest = try log.latestRevision
        let ours = Set(recorded.revisions)
        guard let first = recorded.revisions.first, let last = recorded.revisions.last else {
            throw DemoFailure("no revision was recorded")
        }
        for try await record in log.records(in: first...last) where ours.contains(record.revision) {
            totals += record.changes.counts
        }
        let others = last - first + 1 - UInt64(ours.count)

        let verification = try await log.verify(nil)
        if let failure = verification.failure {
            throw DemoFailure("the recorded log does not verify: \(failure)")
        }
        var view = UIKitStrictRenderer<String, String, String>()
        let replay = try await log.replay(nil, into: &view)
        if let refusal = replay.refusal {
            throw DemoFailure("the strict renderer refused a batch: \(refusal)")
        }
        let seconds = Date().timeIntervalSince(started)
        let final = adapter.snapshot
        return [
            "Recorded a simulated chat inbox: \(ours.count) revisions (\(first) to \(last)"
                + (others > 0 ? ", among \(others) that another writer appended meanwhile" : "")
                + ") in \(String(format: "%.1f", seconds)) s.",
            "  operations: \(NumberText.operations(totals))",
            "    (added up over these revisions: + inserted, - deleted, ~ moved, * updated)",
            "  final list: \(final.sectionCount) sections (\(final.sections.map(\.title).joined(separator: ", "))), "
                + "\(final.itemCount) items",
            "Verified revisions 1 to \(latest): every revision's changes take the previous snapshot to the stored one.",
            "Replayed \(replay.batchesApplied) batches into a simulated UITableView with UIKit's rules: all accepted.",
            "The log is at \(DemoNextSteps.location(path)). Next, try:",
        ] + DemoNextSteps(logPath: path).lines(latest: latest)
    }
}

extension DemoRun {
    /// The metadata key that marks the revisions the demo records; its value is the seed.
    static let markerKey = "demo"

    /// Throws unless the log is empty or its latest revision was recorded by the demo: the demo
    /// must not append a simulated inbox to a real history (`$REPLAY_LOG` or `./replay.lmdb`
    /// may name one), which could not be taken back. Revisions recorded before the marker
    /// existed carry exactly the metadata `event` and `step`.
    static func checkRecordedByDemo(_ log: ChangeLog, latest: UInt64) throws {
        guard latest > 0 else { return }
        let meta = try log.record(at: latest).meta
        guard meta[markerKey] == nil, Set(meta.keys) != ["event", "step"] else { return }
        throw DemoFailure(
            "the log at \(log.path) holds revisions the demo did not record (revision \(latest) is not one of "
                + "its own); the demo appends only to an empty log or to its own: give it another path with --log")
    }
}

/// A demo step that did not go as it must.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The revisions a demo run recorded, in order, collected on the main actor.
@MainActor
final class RecordedRevisions {
    /// The revisions so far.
    var revisions: [UInt64] = []
}
