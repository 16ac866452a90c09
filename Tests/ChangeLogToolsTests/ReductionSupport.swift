import ChangeLog
import ChangeLogTestSupport
import ListAdapter
import Testing

@testable import ChangeLogTools

/// Seeded failures in chat histories, and the checks every reduction test makes.
enum Seeded {
    /// 300 chat revisions whose revision `near` or the first after it with an updated item stores
    /// a wrong summary for that item; returns the records and the tampered revision.
    static func wrongUpdate(near start: Int = 150) -> ([RevisionRecord], UInt64) {
        var records = ChatHistory.records(count: 300)
        let index = records.indices.first { $0 >= start - 1 && !records[$0].changes.updatedItems.isEmpty }!
        records[index].changes.updatedItems[0].summary = "wrong"
        return (records, records[index].revision)
    }

    /// 300 chat revisions whose revision `near` or the first after it with a deleted item lists
    /// the deletion twice, which UIKit refuses.
    static func doubleDeletion(near start: Int = 180) -> ([RevisionRecord], UInt64) {
        var records = ChatHistory.records(count: 300)
        let index = records.indices.first { $0 >= start - 1 && !records[$0].changes.deletedItems.isEmpty }!
        records[index].changes.deletedItems.append(records[index].changes.deletedItems[0])
        return (records, records[index].revision)
    }

    /// An oracle that fails while the drifting renderer corrupts its state.
    static let drifting = ReductionOracle.custom(name: "drifting") { DriftingRenderer.corruption(in: $0) != nil }

    /// An oracle that fails while both `first` and `second` appear somewhere in the history.
    static func bothPresent(_ first: String, _ second: String) -> ReductionOracle {
        .custom(name: "both present") { history in
            let ids = Set(history.revisions.flatMap { $0.snapshot.identifiers })
            return ids.contains(first) && ids.contains(second)
        }
    }
}

/// Checks that `result.reduced` is 1-minimal for `oracle`: removing any one of its revisions, any
/// one section or any one item from every snapshot makes it pass (or fail differently).
func expectOneMinimal(_ result: ReductionResult, _ oracle: ReductionOracle) async throws {
    guard case .fails(let signature, _, _) = result.verdict else {
        Issue.record("the reduced history does not fail: \(result.verdict)")
        return
    }
    let reduced = result.reduced
    let materializer = HistoryMaterializer(original: reduced)
    let whole = HistoryShape(kept: Array(reduced.revisions.indices))
    var candidates: [(String, HistoryShape)] = []
    for offset in reduced.revisions.indices {
        var shape = whole
        shape.kept.remove(at: offset)
        candidates.append(("revision \(offset + 1)", shape))
    }
    for title in Set(reduced.revisions.flatMap { $0.snapshot.sections.map(\.title) }).sorted() {
        var shape = whole
        shape.removedSections = [title]
        candidates.append(("section \(title)", shape))
    }
    for id in Set(reduced.revisions.flatMap { $0.snapshot.identifiers }).sorted() {
        var shape = whole
        shape.removedItems = [id]
        candidates.append(("item \(id)", shape))
    }
    #expect(try await oracle.verdict(on: materializer.history(whole, changes: oracle.changeSource)).isFailure)
    for (name, shape) in candidates {
        let verdict = try await oracle.verdict(on: materializer.history(shape, changes: oracle.changeSource))
        if case .fails(signature, _, _) = verdict {
            Issue.record("without \(name) the reduced history still fails: not 1-minimal")
        }
    }
}
