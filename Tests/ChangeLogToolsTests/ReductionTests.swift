import ChangeLog
import ChangeLogTestSupport
import Foundation
import ListAdapter
import Testing

@testable import ChangeLogTools

@Suite("Reduction")
struct ReductionTests {
    @Test("a revision whose stored changes are wrong in one item reduces to its pair of snapshots")
    func wrongStoredChanges() async throws {
        let (records, tampered) = Seeded.wrongUpdate()
        let history = ReducibleHistory(records: records)
        #expect(ReductionSize(history).items >= 80)
        let result = try await HistoryReducer(history: history, oracle: .verify, jobs: 2).reduce()
        #expect(result.reduced.revisions.map(\.originalRevision) == [tampered - 1, tampered])
        #expect(result.reduced.distinctItemCount <= 3)
        #expect(result.reduced.revisions.last?.changesAreStored == true)
        guard case .fails(let signature, _, let revision) = result.verdict else {
            Issue.record("the reduced history verifies")
            return
        }
        #expect(signature == "verify snapshotMismatch, item update")
        #expect(revision == 1)
        #expect(!result.interrupted)
        try await expectOneMinimal(result, .verify)
    }

    @Test("a batch UIKit refuses reduces to two revisions under the strict oracle")
    func strictRefusal() async throws {
        let (records, tampered) = Seeded.doubleDeletion()
        let result = try await HistoryReducer(history: ReducibleHistory(records: records), oracle: .strict).reduce()
        #expect(result.reduced.revisions.map(\.originalRevision) == [tampered - 1, tampered])
        #expect(result.reduced.distinctItemCount <= 3)
        guard case .fails(let signature, let description, _) = result.verdict else {
            Issue.record("the strict renderer accepts the reduced history")
            return
        }
        #expect(signature == "strict itemListedTwice, unattributed")
        #expect(description.contains("attempt to delete the same index path twice"))
        try await expectOneMinimal(result, .strict)
    }

    @Test("a renderer bug that needs two batches in a row reduces to three revisions")
    func twoBatchBug() async throws {
        let records = ChatHistory.records(count: 300, forced: DriftingRenderer.seed(at: 200))
        let history = ReducibleHistory(records: records)
        #expect(DriftingRenderer.corruption(in: history) != nil)
        let result = try await HistoryReducer(history: history, oracle: Seeded.drifting).reduce()
        #expect(result.reduced.revisionCount == 3)
        // The batch that inserts "Pinned" and the one that moves a message into it, in a row.
        let originals = result.reduced.revisions.map(\.originalRevision)
        #expect(originals.count == 3 && originals[2] == originals[1] + 1 && (201...203).contains(originals[1]))
        #expect(result.reduced.distinctItemCount <= 2)
        #expect(result.reduced.distinctSectionCount == 2)
        // Names shortened: the bug does not depend on them.
        #expect(Set(result.reduced.revisions.flatMap { $0.snapshot.sections.map(\.title) }) == ["s0", "s1"])
        try await expectOneMinimal(result, Seeded.drifting)
    }

    @Test("a failure that needs two distant items keeps exactly those two, under their own names")
    func twoDistantItems() async throws {
        let history = ReducibleHistory(records: ChatHistory.records(count: 300))
        let oracle = Seeded.bothPresent("msg-4", "msg-150")
        let result = try await HistoryReducer(history: history, oracle: oracle).reduce()
        #expect(Set(result.reduced.revisions.flatMap { $0.snapshot.identifiers }) == ["msg-4", "msg-150"])
        #expect(result.reduced.revisionCount <= 2)
        #expect(
            result.reduced.revisions.allSatisfy {
                $0.snapshot.sections.allSatisfy { $0.items.allSatisfy { $0.summary == nil } }
            })
        try await expectOneMinimal(result, oracle)
    }

    @Test("the same input and oracle give the same result whatever the job count")
    func determinism() async throws {
        let history = ReducibleHistory(records: ChatHistory.records(count: 300, forced: DriftingRenderer.seed(at: 120)))
        var outputs: Set<String> = []
        for jobs in [1, 3, 8] {
            let result = try await HistoryReducer(history: history, oracle: Seeded.drifting, jobs: jobs).reduce()
            outputs.insert(result.reduced.jsonLines())
        }
        #expect(outputs.count == 1)
    }

    @Test("a history the oracle does not fail on, and an oracle that fails on nothing, are errors")
    func errors() async throws {
        let clean = ReducibleHistory(records: ChatHistory.records(count: 50))
        await #expect(throws: ReductionError.self) {
            try await HistoryReducer(history: clean, oracle: .verify).reduce()
        }
        do {
            _ = try await HistoryReducer(history: clean, oracle: .strict).reduce()
            Issue.record("a history the strict renderer accepts was reduced")
        } catch {
            #expect(error.code == .passesOnInput)
        }
        do {
            _ = try await HistoryReducer(history: clean, oracle: .custom(name: "always") { _ in true }).reduce()
            Issue.record("an oracle that fails on the empty history was accepted")
        } catch {
            #expect(error.code == .failsOnEmpty)
            #expect(error.message.contains("empty history"))
        }
    }

    @Test("a stop request returns the smallest failing history found so far")
    func stopping() async throws {
        let history = ReducibleHistory(records: ChatHistory.records(count: 300))
        let calls = Counter()
        let oracle = ReductionOracle.custom(name: "both present", allowsParallelCalls: false) { history in
            calls.increment()
            let ids = Set(history.revisions.flatMap { $0.snapshot.identifiers })
            return ids.contains("msg-4") && ids.contains("msg-150")
        }
        let result = try await HistoryReducer(history: history, oracle: oracle).reduce(stopRequested: {
            calls.value >= 12
        })
        #expect(result.interrupted)
        #expect(result.reduced.revisionCount < history.revisionCount)
        let ids = Set(result.reduced.revisions.flatMap { $0.snapshot.identifiers })
        #expect(ids.contains("msg-4") && ids.contains("msg-150"))
    }

    @Test("the emitted test names the original revisions and checks what the oracle checked")
    func emittedTest() async throws {
        let (records, tampered) = Seeded.wrongUpdate()
        let result = try await HistoryReducer(history: ReducibleHistory(records: records), oracle: .verify).reduce()
        let source = try #require(result.reducedTestSource())
        #expect(source.contains("original revision \(tampered) (meta: event="))
        #expect(source.contains("let originalRevisions: [UInt64] = [\(tampered - 1), \(tampered)]"))
        #expect(source.contains("@Test func reducedHistoryVerifies()"))
        // The history it reads back fails as the reduced one did.
        let readBack = try ReducibleHistory(jsonLines: result.reduced.jsonLines())
        #expect(try await ReductionOracle.verify.verdict(on: readBack) == result.verdict)
        let predicate = ReductionResult(
            oracleName: "predicate", isBuiltInOracle: false, original: result.original, reduced: result.reduced,
            verdict: result.verdict, oracleCalls: 0, elapsed: .zero, interrupted: false)
        #expect(predicate.reducedTestSource() == nil)
    }
}
