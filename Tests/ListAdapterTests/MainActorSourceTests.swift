import Synchronization
import Testing

@testable import ListAdapter

/// One to-do of `TodoModel`.
struct Todo: Hashable, Sendable {
    var id: Int
    var title: String
    var list: String
}

/// Where code ran: on an adapter's diff queue or not, one entry per call.
final class ThreadLog: Sendable {
    private let entries = Mutex<[Bool]>([])

    /// Notes whether the caller runs on an adapter's diff queue.
    func note() { entries.withLock { $0.append(DiffExecutor.isCurrent) } }

    /// Every entry so far: `true` for a diff queue.
    var onDiffQueue: [Bool] { entries.withLock { $0 } }
}

/// An observer of any kind of source that keeps every update it gets.
@MainActor
final class UpdateLog<DataSource: ListSource>: ListAdapterObserver {
    var updates: [ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>] = []

    func listAdapter(
        _ adapter: ListAdapter<DataSource>,
        didUpdate update: ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>
    ) {
        updates.append(update)
    }
}

/// A model the way apps keep one: isolated to the main actor, plain stored properties, no lock.
@MainActor
final class TodoModel: ListSource {
    var todos: [Todo] = [] {
        didSet { invalidator?.invalidate() }
    }
    private var invalidator: ListInvalidator?
    /// The calls of `contents()`.
    private(set) var contentsCalls = 0
    /// Where `contents()` ran (on the main actor, as its isolation says), and where the
    /// identifiers were read from what it returned.
    let contentsThreads = ThreadLog()
    let identifierThreads = ThreadLog()

    init(_ todos: [Todo] = []) { self.todos = todos }

    func contents() -> ListContents<Int, String, Never> {
        contentsCalls += 1
        contentsThreads.note()
        let identifierThreads = self.identifierThreads
        return ListContents(
            todos,
            id: {
                identifierThreads.note()
                return $0.id
            }, sectionTitle: \.list, summary: \.title)
    }

    func item(for id: Int) throws -> Todo {
        guard let todo = todos.first(where: { $0.id == id }) else { throw DataSourceFailure(reason: "no to-do \(id)") }
        return todo
    }

    func attach(_ invalidator: ListInvalidator) { self.invalidator = invalidator }
}

@MainActor
@Suite("A main-actor model as the adapter's source")
struct MainActorSourceTests {
    static let groceries = [
        Todo(id: 1, title: "Milk", list: "Shop"), Todo(id: 2, title: "Call Bob", list: "Home"),
        Todo(id: 3, title: "Eggs", list: "Shop"),
    ]

    @Test("the model is read once per invalidation on the main actor, the snapshot built off it")
    func oneReadPerInvalidation() async throws {
        let model = TodoModel(Self.groceries)
        let adapter = ListAdapter(dataSource: model)
        let observer = UpdateLog<TodoModel>()
        adapter.addObserver(observer)
        await adapter.invalidateAndWait()

        #expect(model.contentsCalls == 1)
        #expect(model.contentsThreads.onDiffQueue == [false])
        #expect(model.identifierThreads.onDiffQueue == [true, true, true])
        #expect(adapter.snapshot.sections.map(\.title) == ["Shop", "Home"])
        #expect(adapter.snapshot.sections[0].items == [.init(id: 1, summary: "Milk"), .init(id: 3, summary: "Eggs")])
        #expect(try await adapter.item(for: 2) == Self.groceries[1])

        // An edit invalidates through the attached invalidator.
        model.todos[0].title = "Oat milk"
        await adapter.waitUntilIdle()
        #expect(model.contentsCalls == 2)
        let update = try #require(observer.updates.last)
        #expect(update.generation == 2)
        #expect(
            update.changes.updatedItems == [
                .init(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 0), summary: "Oat milk")
            ])
    }

    @Test("edits in one main-actor job merge into one update; waiting after each gives one update per edit")
    func coalescingAndOneUpdatePerEdit() async throws {
        let model = TodoModel()
        let adapter = ListAdapter(dataSource: model)
        let observer = UpdateLog<TodoModel>()
        adapter.addObserver(observer)
        for id in 1...5 { model.todos.append(Todo(id: id, title: "t\(id)", list: "")) }
        await adapter.waitUntilIdle()
        #expect(observer.updates.count == 1)
        #expect(observer.updates[0].changes.insertedSections.map(\.section.items.count) == [5])

        for id in 6...10 {
            model.todos.append(Todo(id: id, title: "t\(id)", list: ""))
            await adapter.invalidateAndWait()
        }
        #expect(observer.updates.count == 6)
        for (offset, update) in observer.updates.dropFirst().enumerated() {
            #expect(update.changes.insertedItems.map(\.id) == [6 + offset])
            #expect(try update.oldSnapshot.applying(update.changes) == update.newSnapshot)
        }
    }
}

/// A main-actor source whose contents list an identifier twice, or throw, on request.
@MainActor
final class FaultyModel: ListSource {
    var ids: [String] = ["a", "b", "a"]
    var failure: DataSourceFailure?

    func contents() throws -> ListContents<String, String, String> {
        if let failure { throw failure }
        return ListContents(identifiers: ids, sectionTitle: { $0 == "b" ? "B" : nil })
    }

    func item(for id: String) -> String { id }
}

extension MainActorSourceTests {
    @Test("a duplicate or a throwing contents() fails the invalidation; the snapshot stays")
    func failures() async throws {
        let model = FaultyModel()
        let adapter = ListAdapter(dataSource: model)
        await adapter.invalidateAndWait()
        #expect(adapter.lastError?.code == .duplicateIdentifier)
        #expect(adapter.lastError?.snapshotError?.duplicate == "a")
        #expect(adapter.generation == 0)

        model.ids = ["a", "b"]
        await adapter.invalidateAndWait()
        #expect(adapter.lastError == nil)
        #expect(adapter.snapshot == makeSnapshot([("", ["a"]), ("B", ["b"])]))

        model.failure = DataSourceFailure(reason: "offline")
        await adapter.invalidateAndWait()
        #expect(adapter.lastError?.code == .identifiersFailed)
        #expect(adapter.lastError?.underlying as? DataSourceFailure == DataSourceFailure(reason: "offline"))
        #expect(adapter.snapshot == makeSnapshot([("", ["a"]), ("B", ["b"])]))
    }
}

@MainActor
@Suite("Snapshots applied to the adapter")
struct AppliedSnapshotTests {
    typealias Snapshot = ListSnapshot<Int, String, Never>

    static func snapshot(_ ids: [Int], title: String = "") -> Snapshot {
        try! Snapshot(sections: [.init(title: title, items: ids.map { .init(id: $0, summary: "s\($0)") })])
    }

    @Test("each snapshot applied and waited for is one update, observed as invalidations are")
    func applyAndWait() async throws {
        let source = SnapshotSource<Int, String, Never>()
        let adapter = ListAdapter(dataSource: source)
        let observer = UpdateLog<SnapshotSource<Int, String, Never>>()
        adapter.addObserver(observer)
        let states = [[1], [1, 2], [2, 3], [3]]
        for ids in states { await adapter.applyAndWait(Self.snapshot(ids)) }

        #expect(observer.updates.map(\.newSnapshot) == states.map { Self.snapshot($0) })
        for update in observer.updates {
            #expect(try update.oldSnapshot.applying(update.changes) == update.newSnapshot)
        }
        #expect(source.snapshot == Self.snapshot([3]))
        #expect(try await adapter.item(for: 3) == .init(id: 3, summary: "s3"))
        // Invalidating reads the source, which kept the last snapshot applied: nothing changes.
        await adapter.invalidateAndWait()
        #expect(observer.updates.last?.changes.isEmpty == true)
        #expect(adapter.snapshot == Self.snapshot([3]))
    }

    @Test("snapshots applied in one main-actor job merge into one update with the last one")
    func appliedSnapshotsMerge() async {
        let adapter = ListAdapter(dataSource: SnapshotSource<Int, String, Never>())
        let observer = UpdateLog<SnapshotSource<Int, String, Never>>()
        adapter.addObserver(observer)
        for count in 1...5 { adapter.apply(Self.snapshot(Array(1...count))) }
        await adapter.waitUntilIdle()
        #expect(observer.updates.count == 1)
        #expect(adapter.snapshot == Self.snapshot([1, 2, 3, 4, 5]))
    }

    @Test("the latest request wins: an invalidation after a snapshot reads the data source, and back")
    func latestRequestWins() async {
        let source = MutableDataSource(makeSnapshot([("Inbox", ["a=1"])]))
        let adapter = ListAdapter(dataSource: source)
        let applied = makeSnapshot([("Applied", ["z"])])
        adapter.apply(applied)
        adapter.invalidate()
        await adapter.waitUntilIdle()
        #expect(adapter.snapshot == source.expectedSnapshot)

        adapter.invalidate()
        adapter.apply(applied)
        await adapter.waitUntilIdle()
        #expect(adapter.snapshot == applied)
        #expect(source.identifiersCalls == 1)
    }
}
