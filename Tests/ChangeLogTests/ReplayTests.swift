import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// A renderer that remembers every call, in order, and checks batches as `StrictListView` does in
/// `.format` mode.
private struct RecordingRenderer: ListRenderer {
    typealias ItemID = String
    typealias Summary = String

    enum Event: Equatable {
        case reload(LogSnapshot)
        case batch(LogChanges, LogSnapshot)
    }

    var events: [Event] = []
    var view = StrictListView<String, String, String>(strictness: .format)

    mutating func reloadData(_ snapshot: LogSnapshot) {
        events.append(.reload(snapshot))
        view.reloadData(snapshot)
    }

    mutating func performBatchUpdates(_ changes: LogChanges, resultingIn snapshot: LogSnapshot) throws {
        try view.performBatchUpdates(changes, resultingIn: snapshot)
        events.append(.batch(changes, snapshot))
    }
}

@Suite("Replay into renderers")
struct ChangeLogReplayTests {
    @Test("a good history replays into the strict validator, every batch accepted", arguments: [11, 12] as [UInt64])
    func goodHistory(seed: UInt64) async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let snapshots = RandomHistory.snapshots(seed: seed, count: 50)
            try await appendAll(snapshots, to: log)

            var view = StrictListView<String, String, String>(strictness: .format)
            var applying: [UInt64] = []
            var progress: [UInt64] = []
            let report = try await log.replay(
                into: &view, willApply: { applying.append($0) }, progress: { progress.append($0) })
            #expect(report.isComplete, "\(report)")
            #expect(report.range == 1...50)
            #expect(report.batchesApplied == 50)
            #expect(report.description == "replayed revisions 1 to 50: 50 batches applied")
            #expect(view.snapshot == snapshots[49])
            #expect(view.reloadCount == 1)
            #expect(view.batchCount == 50)
            #expect(applying == Array(0...50))
            #expect(progress == Array(1...50))
        }
    }

    @Test("each batch is the revision's stored changes and snapshot, after a reload of the empty snapshot")
    func batchesAreTheStoredRevisions() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            try await appendAll(RandomHistory.snapshots(seed: 13, count: 8), to: log)
            var renderer = RecordingRenderer()
            let report = try await log.replay(into: &renderer)
            #expect(report.batchesApplied == 8)
            var expected: [RecordingRenderer.Event] = [.reload(LogSnapshot())]
            for try await record in log.records(in: 1...8) {
                expected.append(.batch(record.changes, record.snapshot))
            }
            #expect(renderer.events == expected)
        }
    }

    @Test("replay from the middle starts with a reload of the revision before it")
    func fromTheMiddle() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let snapshots = RandomHistory.snapshots(seed: 14, count: 20)
            try await appendAll(snapshots, to: log)

            var renderer = RecordingRenderer()
            var applying: [UInt64] = []
            let report = try await log.replay(5...8, into: &renderer, willApply: { applying.append($0) })
            #expect(report.range == 5...8)
            #expect(report.batchesApplied == 4)
            #expect(applying == [4, 5, 6, 7, 8])
            #expect(renderer.events.first == .reload(snapshots[3]))
            #expect(renderer.events.count == 5)
            #expect(renderer.view.snapshot == snapshots[7])
        }
    }

    @Test("after retention, a replay starts with a reload of the first revision kept")
    func afterRetention() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let snapshots = RandomHistory.snapshots(seed: 15, count: 12)
            try await appendAll(snapshots, to: log)
            _ = try await log.dropRevisions(before: 5)

            var renderer = RecordingRenderer()
            var applying: [UInt64] = []
            var progress: [UInt64] = []
            let report = try await log.replay(
                into: &renderer, willApply: { applying.append($0) }, progress: { progress.append($0) })
            #expect(report.isComplete)
            #expect(report.range == 5...12)
            #expect(report.batchesApplied == 7)
            #expect(applying == Array(5...12))
            #expect(progress == Array(5...12))
            #expect(renderer.events.first == .reload(snapshots[4]))
            #expect(renderer.view.snapshot == snapshots[11])

            let dropped = await #expect(throws: ChangeLogError.self) {
                _ = try await log.replay(3...6, into: &renderer)
            }
            #expect(dropped?.code == .revisionDropped)
        }
    }

    /// The diff reports an item that moves and changes in one revision as a move and an update;
    /// UIKit refuses that in one batch, and code that drives it delivers the update afterwards.
    @Test("a revision that moves and updates one item replays into UIKitStrictRenderer, not into a bare view")
    func moveAndUpdate() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            _ = try await log.append(
                try LogSnapshot(sections: [
                    .init(title: "A", items: [.init(id: "a", summary: "x"), .init(id: "b"), .init(id: "c")])
                ]))
            let appended = try await log.append(
                try LogSnapshot(sections: [
                    .init(title: "A", items: [.init(id: "b"), .init(id: "c"), .init(id: "a", summary: "y")])
                ]))
            #expect(!appended.changes.movedItems.isEmpty && !appended.changes.updatedItems.isEmpty)
            var renderer = UIKitStrictRenderer<String, String, String>()
            let report = try await log.replay(into: &renderer)
            #expect(report.refusal == nil)
            #expect(report.batchesApplied == 2)
            #expect(renderer.view.snapshot == (try log.snapshot(at: 2)))
            var bare = StrictListView<String, String, String>()
            let refused = try await log.replay(into: &bare)
            #expect(refused.refusal?.revision == 2)
        }
    }

    @Test("a batch the validator refuses stops the replay, naming its revision and the validator's message")
    func refusedBatch() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let snapshots = RandomHistory.snapshots(seed: 16, count: 5)
            try await appendAll(snapshots, to: log)
            let previous = try snapshot([("A", ["a", "b"]), ("B", ["c:1", "d", "e"])])
            _ = try await log.append(previous)
            let next = try snapshot([("A", ["a", "b"]), ("B", ["c:1", "e"])])
            let broken = LogChanges(deletedItems: [ItemPath(section: 1, item: 9)])
            _ = try await log.append(next, changes: broken)
            try await appendAll(RandomHistory.snapshots(seed: 17, count: 3), to: log)

            // What the validator says about that batch on its own.
            var witness = StrictListView<String, String, String>(strictness: .format, showing: previous)
            let expected = #expect(throws: BatchUpdateError.self) {
                try witness.performBatchUpdates(broken, resultingIn: next)
            }

            var view = StrictListView<String, String, String>(strictness: .format)
            var applying: [UInt64] = []
            var progress: [UInt64] = []
            let report = try await log.replay(
                into: &view, willApply: { applying.append($0) }, progress: { progress.append($0) })
            let refusal = try #require(report.refusal)
            #expect(!report.isComplete)
            #expect(refusal.revision == 7)
            #expect(refusal.message == expected?.message)
            #expect(refusal.message.contains("attempt to delete row 9 from section 1"))
            #expect(refusal.changes == broken)
            #expect(refusal.description == "revision 7: the renderer refused its changes: \(refusal.message)")
            #expect(report.description == refusal.description)
            #expect(report.batchesApplied == 6)
            #expect(applying == Array(0...7))
            #expect(progress == Array(1...6))
            #expect(view.snapshot == previous)

            // The revisions after it replay from the stored snapshot of revision 7.
            #expect(try await log.replay(8...10, into: &view).isComplete)
        }
    }

    @Test("valid changes that lead elsewhere are refused too")
    func changesLeadingElsewhere() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            let first = try snapshot([("A", ["a", "b"])])
            _ = try await log.append(first)
            let stored = try snapshot([("A", ["a", "b", "c"])])
            _ = try await log.append(stored, changes: first.changes(to: try snapshot([("A", ["b", "a", "c"])])))
            var view = StrictListView<String, String, String>(strictness: .format)
            let report = try await log.replay(into: &view)
            #expect(report.refusal?.revision == 2)
            #expect(
                report.refusal?.message
                    == #"Invalid update: after the update, row 0 in section 0 is "b" in the table view but "a" in "#
                    + "the data source")
            #expect(report.batchesApplied == 1)
        }
    }

    @Test("an empty log replays nothing; a damaged record is thrown, naming its revision")
    func emptyAndDamaged() async throws {
        try await withTemporaryDirectory { path in
            let log = try ChangeLog(path: path)
            var renderer = RecordingRenderer()
            let empty = try await log.replay(into: &renderer)
            #expect(empty.range == nil)
            #expect(empty.batchesApplied == 0)
            #expect(renderer.events.isEmpty)
            #expect(empty.description == "the log is empty: nothing to replay")

            try await appendAll(RandomHistory.snapshots(seed: 18, count: 6), to: log)
            try tamperRecord(of: 4, in: log) { $0[2] ^= 0x20 }
            let error = await #expect(throws: ChangeLogError.self) { _ = try await log.replay(into: &renderer) }
            #expect(error?.code == .checksumMismatch)
            #expect(error?.revision == 4)
            #expect(renderer.view.snapshot == (try log.snapshot(at: 3)))
        }
    }
}
