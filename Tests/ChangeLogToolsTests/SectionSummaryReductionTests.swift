import ChangeLog
import ListAdapter
import Testing

@testable import ChangeLogTools

/// The reducer keeps section summaries only where the failure needs them.
@Suite("Reduction: section summaries")
struct SectionSummaryReductionTests {
    /// 30 revisions of three sections whose summaries count their items; revision 20 stores a
    /// wrong summary for its update of section "B".
    static func records() throws -> [RevisionRecord] {
        var records: [RevisionRecord] = []
        var previous = LogSnapshot()
        for revision in 1...30 {
            let sections = ["A", "B", "C"].enumerated().map { offset, title in
                let count = (revision + offset) % 4 + 1
                return LogSnapshot.Section(
                    title: title, summary: "\(count) in \(title)",
                    items: (0..<count).map { .init(id: "\(title)\($0)", summary: "s\(revision % 3)") })
            }
            let snapshot = try LogSnapshot(sections: sections)
            var changes = previous.changes(to: snapshot)
            if revision == 20, let index = changes.updatedSections.firstIndex(where: { $0.to == 1 }) {
                changes.updatedSections[index].summary = "wrong"
            }
            records.append(
                RevisionRecord(
                    revision: UInt64(revision), millisecondsSince1970: Int64(revision), meta: [:], snapshot: snapshot,
                    changes: changes))
            previous = snapshot
        }
        return records
    }

    @Test("a wrong stored section update reduces to its pair, the one section, and its summary alone")
    func wrongSectionUpdate() async throws {
        let history = ReducibleHistory(records: try Self.records())
        let result = try await HistoryReducer(history: history, oracle: .verify, jobs: 2).reduce()
        #expect(result.reduced.revisions.map(\.originalRevision) == [19, 20])
        guard case .fails(let signature, _, _) = result.verdict else {
            Issue.record("the reduced history verifies")
            return
        }
        #expect(signature == "verify snapshotMismatch, section update")
        #expect(result.reduced.distinctSectionCount == 1)
        #expect(result.reduced.distinctItemCount == 0)
        #expect(result.reduced.revisions.allSatisfy { $0.snapshot.sections.allSatisfy { $0.summary != nil } })
        #expect(result.reduced.revisions.last?.changes.updatedSections.map(\.summary) == ["wrong"])
        try await expectOneMinimal(result, .verify)
    }
}
