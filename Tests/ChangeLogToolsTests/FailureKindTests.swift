import ChangeLog
import ChangeLogTestSupport
import ListAdapter
import Testing

@testable import ChangeLogTools

/// The kind of a failure, which a reduction keeps: the check that failed and the kind of
/// operation the two snapshots contradict.
@Suite("Failure kinds")
struct FailureKindTests {
    static let old = try! LogSnapshot(sections: [.init(title: "Inbox", items: ["a", "b", "c"].map { .init(id: $0) })])
    static let new = try! LogSnapshot(sections: [.init(title: "Inbox", items: ["a", "c", "b"].map { .init(id: $0) })])

    @Test("the first operation the snapshots contradict names the kind, else a missing one")
    func blame() {
        let move = { (to: Int) in
            LogChanges(movedItems: [.init(from: ItemPath(section: 0, item: 1), to: ItemPath(section: 0, item: to))])
        }
        #expect(OperationBlame.kind(of: move(2), from: Self.old, to: Self.new) == "unattributed")
        #expect(OperationBlame.kind(of: move(1), from: Self.old, to: Self.new) == "item move")
        #expect(OperationBlame.kind(of: move(3), from: Self.old, to: Self.new) == "item move")
        let delete = LogChanges(deletedItems: [ItemPath(section: 0, item: 0)])
        #expect(OperationBlame.kind(of: delete, from: Self.old, to: Self.new) == "item delete")
        let insert = LogChanges(insertedItems: [.init(at: ItemPath(section: 0, item: 0), id: "z", summary: nil)])
        #expect(OperationBlame.kind(of: insert, from: Self.old, to: Self.new) == "item insert")
        let more = try! LogSnapshot(sections: [
            .init(title: "Inbox", items: ["a", "b", "c", "d"].map { .init(id: $0) })
        ])
        #expect(OperationBlame.kind(of: LogChanges(), from: Self.old, to: more) == "missing item insert")
        #expect(OperationBlame.kind(of: LogChanges(), from: more, to: Self.old) == "missing item delete")
        let update = LogChanges(
            updatedItems: [.init(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 0), summary: "x")])
        #expect(OperationBlame.kind(of: update, from: Self.old, to: Self.old) == "item update")
        let sectionMove = LogChanges(movedSections: [.init(from: 0, to: 0)])
        let renamed = try! LogSnapshot(sections: [.init(title: "Other", items: ["a", "b", "c"].map { .init(id: $0) })])
        #expect(OperationBlame.kind(of: sectionMove, from: Self.old, to: renamed) == "section move")
    }

    @Test("the broken export's revision 7 fails verify and strict on its item move")
    func brokenMove() async throws {
        let history = ReducibleHistory(records: BrokenMoveHistory.records)
        let verify = try await ReductionOracle.verify.verdict(on: history)
        guard case .fails(let signature, let description, let revision) = verify else {
            Issue.record("the broken history verifies")
            return
        }
        #expect(signature == "verify snapshotMismatch, item move")
        #expect(description.hasPrefix("revision 7: applying its changes to revision 6"), "\(description)")
        #expect(revision == 6)
        let strict = try await ReductionOracle.strict.verdict(on: history)
        guard case .fails(let strictSignature, _, _) = strict else {
            Issue.record("the strict renderer takes the broken history")
            return
        }
        #expect(strictSignature.hasSuffix(", item move"), "\(strictSignature)")
    }

    @Test("a reduction of the broken export keeps the move, and its test names both failures")
    func reductionKeepsTheMove() async throws {
        let history = ReducibleHistory(records: BrokenMoveHistory.records)
        let result = try await HistoryReducer(history: history, oracle: .verify, jobs: 2).reduce()
        #expect(result.originalVerdict.isFailure)
        guard case .fails(let signature, _, _) = result.verdict else {
            Issue.record("the reduced history verifies")
            return
        }
        #expect(signature == "verify snapshotMismatch, item move")
        #expect(result.reduced.records.contains { !$0.changes.movedItems.isEmpty })
        let source = try #require(result.reducedTestSource())
        let message = try #require(result.reducedTestFailure)
        #expect(source.contains("// Original failure (verify snapshotMismatch, item move): revision 7"))
        #expect(source.contains("private let reducedHistory = #\"\"\""))
        #expect(message.hasPrefix("revision "), "\(message)")
    }
}
