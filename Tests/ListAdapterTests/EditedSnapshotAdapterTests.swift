import Testing

@testable import ListAdapter

/// Snapshots edited in place from the adapter's current one take the recorded-edits path, and
/// deliver the same updates as the full diff.
@MainActor
@Suite("ListAdapter: snapshots edited in place")
struct EditedSnapshotAdapterTests {
    typealias Snapshot = ListSnapshot<String, String, String>
    typealias Source = SnapshotSource<String, String, String>

    @Test("each round of edits from the adapter's snapshot delivers what an equal rebuilt snapshot does")
    func sameUpdates() async throws {
        let first = try Snapshot(sections: [
            .init(title: "A", items: (0..<20).map { .init(id: "a\($0)", summary: "1") }),
            .init(title: "B", items: (0..<5).map { .init(id: "b\($0)") }),
        ])
        let edited = ListAdapter(dataSource: Source())
        let rebuilt = ListAdapter(dataSource: Source())
        let editedLog = UpdateLog<Source>()
        let rebuiltLog = UpdateLog<Source>()
        edited.addObserver(editedLog)
        rebuilt.addObserver(rebuiltLog)
        await edited.applyAndWait(first)
        await rebuilt.applyAndWait(first)
        let rounds: [(inout Snapshot) throws -> Void] = [
            { try $0.moveItem("a3", afterItem: "a15") },
            { try $0.insertItems([.init(id: "n1")], beforeItem: "b2") },
            { try $0.deleteItems(["a0", "b4"]) },
            { try $0.updateItem("a7", summary: "2") },
            { try $0.moveItem("b0", beforeItem: "a1") },
            { try $0.appendSections([.init(title: "C", items: [.init(id: "c1")])]) },
            {
                try $0.moveSection("C", beforeSection: "A")
                try $0.updateSection("B", summary: "x")
            },
        ]
        for round in rounds {
            var next = edited.snapshot
            try round(&next)
            #expect(next.changes(editedFrom: edited.snapshot) != nil)
            await edited.applyAndWait(next)
            await rebuilt.applyAndWait(try Snapshot(sections: next.sections))
        }
        #expect(editedLog.updates.count == rounds.count + 1)
        #expect(editedLog.updates.map(\.changes) == rebuiltLog.updates.map(\.changes))
        #expect(editedLog.updates.map(\.newSnapshot) == rebuiltLog.updates.map(\.newSnapshot))
    }

    @Test("the adapter reads the edits, not the items: an untouched item whose summary is not equal to itself stays")
    func takesTheEditsPath() async throws {
        // The full diff compares the summaries of the items it reads; NaN is not equal to itself,
        // so it reports the untouched item as updated. The edits never read it.
        typealias Numbers = ListSnapshot<Int, Double, Never>
        let first = try Numbers(sections: [.init(title: "", items: [.init(id: 1, summary: .nan)])])
        let adapter = ListAdapter(dataSource: SnapshotSource<Int, Double, Never>())
        let log = UpdateLog<SnapshotSource<Int, Double, Never>>()
        adapter.addObserver(log)
        await adapter.applyAndWait(first)
        var next = adapter.snapshot
        try next.appendItems([.init(id: 2, summary: 1)])
        #expect(adapter.snapshot.changes(to: next).updatedItems.count == 1)
        await adapter.applyAndWait(next)
        let changes = try #require(log.updates.last?.changes)
        #expect(changes.insertedItems.map(\.id) == [2])
        #expect(changes.updatedItems.isEmpty)
    }
}
