import ChangeLog
import ChangeLogTestSupport
import ListAdapter
import Testing

@testable import ChangeLogTools

@Suite("Changes projection")
struct ChangesProjectionTests {
    /// Consecutive chat snapshots, with every third section title and every fifth identifier (from
    /// an offset that varies with the revision) removed, summaries dropped for some items and
    /// names shortened.
    @Test(
        "projected consistent changes take the rewritten old snapshot to the rewritten new one",
        arguments: [0, 1, 2, 3])
    func consistency(variant: Int) {
        let records = ChatHistory.records(count: 300, forced: DriftingRenderer.seed(at: 100))
        for offset in records.indices.dropFirst() {
            let (old, new) = (records[offset - 1].snapshot, records[offset].snapshot)
            let titles = Set((old.sections + new.sections).map(\.title)).sorted()
            let ids = Set(old.identifiers + new.identifiers).sorted()
            var shape = HistoryShape(kept: [offset - 1, offset])
            shape.removedSections = Set(titles.enumerated().filter { ($0.offset + variant) % 3 == 0 }.map(\.element))
            shape.removedItems = Set(ids.enumerated().filter { ($0.offset + offset) % 5 == 0 }.map(\.element))
            if variant >= 1 { shape.summariesKept = Set(ids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)) }
            if variant >= 2 { shape.shortSummaries = true }
            if variant >= 3 {
                shape.renamedIDs = true
                shape.renamedTitles = true
            }
            let transform = SnapshotTransform(shape: shape, snapshots: [old, new])
            let (rewrittenOld, rewrittenNew) = (transform.snapshot(old), transform.snapshot(new))
            let projected = ChangesProjection(
                old: old, new: new, rewrittenOld: rewrittenOld, rewrittenNew: rewrittenNew, transform: transform
            ).project(records[offset].changes)
            #expect(
                (try? rewrittenOld.applying(projected)) == rewrittenNew,
                "revision \(offset + 1): \(projected)")
            #expect(
                projected.violation(
                    oldItemCounts: rewrittenOld.itemCounts, newItemCounts: rewrittenNew.itemCounts,
                    refusingUpdatesOfMovedItems: false) == nil)
        }
    }

    @Test("an item update keeps its kind when other items are removed and names rewritten")
    func updateKinds() throws {
        func snapshot(_ summary: String) throws -> LogSnapshot {
            try LogSnapshot(sections: [
                LogSnapshot.Section(
                    title: "inbox", items: ["x", "y", "z"].map { LogSnapshot.Item(id: $0, summary: summary) })
            ])
        }
        let (old, new) = (try snapshot("v0"), try snapshot("v1"))
        var changes = old.changes(to: new)
        #expect(changes.updatedItems.count == 3)
        changes.updatedItems[1].kind = .reload
        var shape = HistoryShape(kept: [0, 1])
        shape.removedItems = ["x"]
        shape.renamedIDs = true
        let transform = SnapshotTransform(shape: shape, snapshots: [old, new])
        let projected = ChangesProjection(
            old: old, new: new, rewrittenOld: transform.snapshot(old), rewrittenNew: transform.snapshot(new),
            transform: transform
        ).project(changes)
        #expect(projected.updatedItems.map(\.kind) == [.reload, .reconfigure])
        #expect(projected.updatedItems.map(\.from) == [ItemPath(section: 0, item: 0), ItemPath(section: 0, item: 1)])
    }

    @Test("canonical names run a to z, then aa, ab")
    func names() {
        #expect((0..<3).map(SnapshotTransform.letterName) == ["a", "b", "c"])
        #expect(SnapshotTransform.letterName(25) == "z")
        #expect(SnapshotTransform.letterName(26) == "aa")
        #expect(SnapshotTransform.letterName(27) == "ab")
        #expect(SnapshotTransform.letterName(26 + 26 * 26) == "aaa")
    }

    @Test("revision lines written and read back give the same history")
    func roundTrip() throws {
        let history = ReducibleHistory(records: ChatHistory.records(count: 40))
        let readBack = try ReducibleHistory(jsonLines: history.jsonLines())
        #expect(readBack == history)
        #expect(throws: ReductionError.self) { try ReducibleHistory(jsonLines: "{\"revision\": 1}\n") }
    }

    @Test("ddmin's parts differ in length by at most one and keep the order")
    func split() {
        let parts = DeltaDebugging.split(Array(0..<10), into: 4)
        #expect(parts == [[0, 1], [2, 3], [4, 5, 6], [7, 8, 9]])
    }
}
