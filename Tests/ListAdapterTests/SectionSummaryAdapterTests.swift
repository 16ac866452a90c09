import Testing

@testable import ListAdapter

/// Section summaries through the adapter: a data source states them per title, and the adapter
/// delivers their changes as section updates; a source that states none never updates a section.
@MainActor
@Suite("ListAdapter: section summaries")
struct SectionSummaryAdapterTests {
    @Test("a data source's section summaries reach the snapshot, and their changes are section updates")
    func sectionUpdates() async throws {
        let first = SectionSummaryTests.snapshot([("Today", "1 unread", ["a", "b"]), ("Later", nil, ["c"])])
        let source = MutableDataSource(first)
        let adapter = ListAdapter(dataSource: source)
        let observer = RecordingObserver<MutableDataSource>()
        adapter.addObserver(observer)
        await adapter.invalidateAndWait()
        #expect(adapter.snapshot == first)
        #expect(observer.updates.first?.changes.insertedSections.map(\.section.summary) == ["1 unread", nil])

        let second = SectionSummaryTests.snapshot([("Later", "soon", ["c"]), ("Today", "2 unread", ["a", "b"])])
        source.set(second)
        await adapter.invalidateAndWait()
        let update = try #require(observer.updates.last)
        #expect(update.newSnapshot == second)
        #expect(try update.oldSnapshot.applying(update.changes) == second)
        #expect(update.changes.updatedSections.count == 2)
        #expect(update.changes.movedSections.count == 1)

        var view = UIKitStrictRenderer<String, String, String>(showing: first)
        try view.performBatchUpdates(update.changes, resultingIn: second)
        #expect(view.view.snapshot == second)
    }

    /// A data source that states no section summary: its `SectionSummary` is `Never`.
    final class PlainSource: ListDataSource {
        func identifiers() async throws -> [Int] { [1, 2] }
        func sectionTitle(for id: Int) -> String? { id == 1 ? "A" : "B" }
        func summary(for id: Int) -> String? { nil }
        func item(for id: Int) async throws -> Int { id }
    }

    @Test("a source without section summaries compiles unchanged, with Never, and never updates a section")
    func defaultNever() async throws {
        let adapter = ListAdapter(dataSource: PlainSource())
        await adapter.invalidateAndWait()
        #expect(PlainSource.SectionSummary.self == Never.self)
        #expect(adapter.snapshot.sections.map(\.summary) == [nil, nil])
        await adapter.invalidateAndWait()
        #expect(adapter.snapshot.changes(to: adapter.snapshot).updatedSections.isEmpty)
    }
}
