import Testing

@testable import ListAdapter

/// A feed the way an app receives one: sections from a server, or a flat list of posts, either
/// of which may repeat a title or an identifier.
@MainActor
final class FeedModel: ListSource {
    /// One post of the flat form: its identifier, section title and summary.
    struct Post: Hashable, Sendable {
        var id: String
        var section: String
        var summary: String?
    }

    /// The feed as sections, used when `posts` is `nil`.
    var sections: [StringSnapshot.Section] = []
    /// The feed as a flat list, grouped by section title.
    var posts: [Post]?

    func contents() -> ListContents<String, String, String> {
        guard let posts else { return ListContents(sections: sections) }
        return ListContents(posts, id: \.id, sectionTitle: \.section, summary: \.summary)
    }

    func item(for id: String) -> String { id }
}

/// An observer of any kind of source that keeps every update and failure it gets.
@MainActor
final class OutcomeLog<DataSource: ListSource>: ListAdapterObserver {
    var updates: [ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>] = []
    var failures: [ListAdapterError] = []

    func listAdapter(
        _ adapter: ListAdapter<DataSource>,
        didUpdate update: ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>
    ) {
        updates.append(update)
    }

    func listAdapter(_ adapter: ListAdapter<DataSource>, didFail error: ListAdapterError) {
        failures.append(error)
    }
}

/// Sections from `(title, ["id" or "id=summary"])` pairs, as given: titles and ids may repeat.
func makeSections(_ sections: [(String, [String])]) -> [StringSnapshot.Section] {
    sections.map { title, items in
        StringSnapshot.Section(
            title: title,
            items: items.map { item in
                let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                return StringSnapshot.Item(id: parts[0], summary: parts.count > 1 ? parts[1] : nil)
            })
    }
}

@MainActor
@Suite("Duplicates: refused by default, kept out on request")
struct DuplicatePolicyTests {
    typealias Dropped = DroppedDuplicate<String>

    @Test("by default a repeated section title fails the invalidation, naming it; the snapshot stays")
    func refusesRepeatedTitle() async throws {
        let model = FeedModel()
        model.sections = makeSections([("A", ["a"]), ("B", ["b"])])
        let adapter = ListAdapter(dataSource: model)
        #expect(adapter.duplicatePolicy == .refuse)
        let log = OutcomeLog<FeedModel>()
        adapter.addObserver(log)
        await adapter.invalidateAndWait()

        model.sections = makeSections([("A", ["a"]), ("B", ["b"]), ("A", ["c"])])
        await adapter.invalidateAndWait()
        let error = try #require(log.failures.first)
        #expect(log.failures.count == 1)
        #expect(error.code == .duplicateIdentifier)
        #expect(error.snapshotError == .duplicateSectionTitle("A", first: 0, second: 2))
        #expect(
            error.message
                == #"The data source returned the section title "A" twice (sections 0 and 2); the adapter keeps its "#
                + "last snapshot. Make contents() return each section once, or create the adapter with "
                + "duplicatePolicy .keepFirst")
        #expect(adapter.lastError?.code == .duplicateIdentifier)
        #expect(adapter.snapshot == makeSnapshot([("A", ["a"]), ("B", ["b"])]))
        #expect(log.updates.count == 1)
    }

    @Test("by default a repeated identifier in a flat list fails the invalidation, as it always did")
    func refusesRepeatedIdentifier() async throws {
        let model = FeedModel()
        model.posts = [.init(id: "a", section: "A"), .init(id: "b", section: "B"), .init(id: "a", section: "B")]
        let adapter = ListAdapter(dataSource: model)
        let log = OutcomeLog<FeedModel>()
        adapter.addObserver(log)
        await adapter.invalidateAndWait()
        let error = try #require(log.failures.first)
        #expect(
            error.snapshotError
                == .duplicateItemID("a", first: ItemPath(section: 0, item: 0), second: .init(section: 1, item: 1)))
        #expect(error.message.contains(#"the identifier "a" twice"#))
        #expect(log.updates.isEmpty)
        #expect(adapter.generation == 0)
    }

    @Test("keepFirst on a flat list drops later posts of an identifier, reported at their offsets")
    func keepsFirstOfFlatList() async throws {
        let model = FeedModel()
        model.posts = [
            .init(id: "a", section: "Today", summary: "1"), .init(id: "b", section: "Today"),
            .init(id: "a", section: "Earlier", summary: "2"), .init(id: "c", section: "Earlier"),
            .init(id: "b", section: "Today"),
        ]
        let adapter = ListAdapter(dataSource: model, duplicatePolicy: .keepFirst)
        let log = OutcomeLog<FeedModel>()
        adapter.addObserver(log)
        let stream = adapter.updates()
        await adapter.invalidateAndWait()

        let expected = makeSnapshot([("Today", ["a=1", "b"]), ("Earlier", ["c"])])
        let dropped = [
            Dropped(kind: .item(id: "a"), position: [2], firstPosition: [0]),
            Dropped(kind: .item(id: "b"), position: [4], firstPosition: [1]),
        ]
        #expect(log.failures.isEmpty)
        #expect(adapter.lastError == nil)
        #expect(adapter.snapshot == expected)
        let update = try #require(log.updates.first)
        #expect(update.newSnapshot == expected)
        #expect(update.droppedDuplicates == dropped)
        #expect(try update.oldSnapshot.applying(update.changes) == expected)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.droppedDuplicates == dropped)
        #expect(dropped.map(\.description) == [#"item "a" at [2] (first at [0])"#, #"item "b" at [4] (first at [1])"#])
    }

    @Test("keepFirst on sections drops a repeated title with all its items, then repeated items, in order")
    func keepsFirstOfSections() async throws {
        let model = FeedModel()
        model.sections = makeSections([("A", ["a", "b"]), ("B", ["c"]), ("A", ["d", "a"]), ("C", ["c", "e", "e"])])
        let adapter = ListAdapter(dataSource: model, duplicatePolicy: .keepFirst)
        let log = OutcomeLog<FeedModel>()
        adapter.addObserver(log)
        await adapter.invalidateAndWait()

        let update = try #require(log.updates.first)
        #expect(update.newSnapshot == makeSnapshot([("A", ["a", "b"]), ("B", ["c"]), ("C", ["e"])]))
        #expect(
            update.droppedDuplicates == [
                Dropped(kind: .section(title: "A", itemCount: 2), position: [2], firstPosition: [0]),
                Dropped(kind: .item(id: "c"), position: [3, 0], firstPosition: [1, 0]),
                Dropped(kind: .item(id: "e"), position: [3, 2], firstPosition: [3, 1]),
            ])
        #expect(update.droppedDuplicates[0].description == #"section "A" at [2] with 2 items (first at [0])"#)
        #expect(try update.oldSnapshot.applying(update.changes) == update.newSnapshot)
    }

    @Test("the items of a dropped section are not looked at: they make no later item a repeat")
    func droppedSectionItemsDoNotCount() async throws {
        let model = FeedModel()
        model.sections = makeSections([("A", ["x"]), ("A", ["y"]), ("B", ["y"]), ("A", [])])
        let adapter = ListAdapter(dataSource: model, duplicatePolicy: .keepFirst)
        let log = OutcomeLog<FeedModel>()
        adapter.addObserver(log)
        await adapter.invalidateAndWait()
        let update = try #require(log.updates.first)
        #expect(update.newSnapshot == makeSnapshot([("A", ["x"]), ("B", ["y"])]))
        #expect(
            update.droppedDuplicates == [
                Dropped(kind: .section(title: "A", itemCount: 1), position: [1], firstPosition: [0]),
                Dropped(kind: .section(title: "A", itemCount: 0), position: [3], firstPosition: [0]),
            ])
        #expect(update.droppedDuplicates[1].description == #"section "A" at [3] with 0 items (first at [0])"#)
    }

    @Test("each update diffs the cleaned snapshots; one that repeats nothing reports nothing")
    func diffsCleanedSnapshots() async throws {
        let model = FeedModel()
        model.sections = makeSections([("A", ["a=1", "b"]), ("B", ["c"])])
        let adapter = ListAdapter(dataSource: model, duplicatePolicy: .keepFirst)
        let log = OutcomeLog<FeedModel>()
        adapter.addObserver(log)
        await adapter.invalidateAndWait()
        #expect(log.updates.last?.droppedDuplicates == [])

        // The repeat of "a" carries another summary: the first occurrence's wins, so no update.
        model.sections = makeSections([("A", ["a=1", "b"]), ("B", ["a=2", "c", "d"])])
        await adapter.invalidateAndWait()
        let second = try #require(log.updates.last)
        #expect(second.generation == 2)
        #expect(second.droppedDuplicates == [Dropped(kind: .item(id: "a"), position: [1, 0], firstPosition: [0, 0])])
        #expect(second.newSnapshot == makeSnapshot([("A", ["a=1", "b"]), ("B", ["c", "d"])]))
        #expect(second.changes == makeSnapshot([("A", ["a=1", "b"]), ("B", ["c"])]).changes(to: second.newSnapshot))
        #expect(second.changes.updatedItems.isEmpty)
        #expect(try second.oldSnapshot.applying(second.changes) == second.newSnapshot)

        model.sections = makeSections([("B", ["c"]), ("A", ["a=3"])])
        await adapter.invalidateAndWait()
        let third = try #require(log.updates.last)
        #expect(third.droppedDuplicates.isEmpty)
        #expect(third.oldSnapshot == second.newSnapshot)
        #expect(try third.oldSnapshot.applying(third.changes) == third.newSnapshot)
        #expect(log.failures.isEmpty)
    }

    @Test("keepFirst on a ListDataSource: a repeated identifier is dropped at its offset in identifiers()")
    func keepsFirstOfDataSource() async throws {
        let source = MutableDataSource(makeSnapshot([("Today", ["a", "b"]), ("Old", ["c"])]))
        let adapter = ListAdapter(dataSource: source, duplicatePolicy: .keepFirst)
        let observer = RecordingObserver<MutableDataSource>()
        adapter.addObserver(observer)
        await adapter.invalidateAndWait()
        source.duplicate("b")
        await adapter.invalidateAndWait()
        #expect(observer.failures.isEmpty)
        #expect(adapter.lastError == nil)
        let update = try #require(observer.updates.last)
        #expect(update.generation == 2)
        #expect(update.droppedDuplicates == [Dropped(kind: .item(id: "b"), position: [3], firstPosition: [1])])
        #expect(update.newSnapshot == source.expectedSnapshot)
        #expect(update.changes.isEmpty)
    }

    @Test("an applied snapshot has nothing to drop")
    func appliedSnapshot() async throws {
        let adapter = ListAdapter(dataSource: SnapshotSource<String, String, String>(), duplicatePolicy: .keepFirst)
        let log = OutcomeLog<SnapshotSource<String, String, String>>()
        adapter.addObserver(log)
        await adapter.applyAndWait(makeSnapshot([("A", ["a"])]))
        #expect(log.updates.map(\.droppedDuplicates) == [[]])
    }

    @Test("titles and ids compare code point by code point: two spellings of one text both stay")
    func literalComparison() throws {
        let sections = makeSections([("é", ["é"]), ("e\u{301}", ["e\u{301}"])])
        let (snapshot, dropped) = StringSnapshot.keepingFirstOccurrences(in: sections)
        #expect(dropped.isEmpty)
        #expect(snapshot == (try StringSnapshot(sections: sections)))
        #expect(
            Dropped(kind: .item(id: "é"), position: [1], firstPosition: [0])
                != Dropped(kind: .item(id: "e\u{301}"), position: [1], firstPosition: [0]))
    }

    @Test("keepingFirstOccurrences gives the snapshot of the sections without their repeats")
    func snapshotFunction() throws {
        let (snapshot, dropped) = StringSnapshot.keepingFirstOccurrences(
            in: makeSections([("A", ["a", "a", "a"]), ("", []), ("", ["a"]), ("B", ["b"])]))
        #expect(snapshot == makeSnapshot([("A", ["a"]), ("", []), ("B", ["b"])]))
        #expect(
            dropped == [
                Dropped(kind: .item(id: "a"), position: [0, 1], firstPosition: [0, 0]),
                Dropped(kind: .item(id: "a"), position: [0, 2], firstPosition: [0, 0]),
                Dropped(kind: .section(title: "", itemCount: 1), position: [2], firstPosition: [1]),
            ])
        #expect(dropped[2].description == #"section "" at [2] with 1 item (first at [1])"#)
        let empty = StringSnapshot.keepingFirstOccurrences(in: [])
        #expect(empty.snapshot == StringSnapshot())
        #expect(empty.dropped.isEmpty)
    }
}
