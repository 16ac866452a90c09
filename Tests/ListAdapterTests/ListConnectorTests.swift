import Testing

@testable import ListAdapter

/// What a renderer was asked to do.
enum RendererCall: Equatable {
    case reload(StringSnapshot)
    case batch(StringChanges, StringSnapshot)
}

/// A log shared between a test and the renderer the connector owns.
final class RendererLog {
    var calls: [RendererCall] = []
    /// Called inside each batch, before it is applied.
    var duringBatch: (() -> Void)?
}

/// A renderer that records its calls and applies batches with FORMAT.md's reference `apply`.
struct RecordingRenderer: ListRenderer {
    let log: RendererLog
    private(set) var shown = StringSnapshot()

    mutating func reloadData(_ snapshot: StringSnapshot) {
        log.calls.append(.reload(snapshot))
        shown = snapshot
    }

    mutating func performBatchUpdates(_ changes: StringChanges, resultingIn snapshot: StringSnapshot) throws {
        log.calls.append(.batch(changes, snapshot))
        log.duringBatch?()
        shown = try shown.applying(changes)
    }
}

/// The renderer a UIKit app writes: the batch without updates of moved items, then those updates
/// as reconfigures. It wraps a UIKit-strict validator.
struct UIKitStyleRenderer: ListRenderer {
    var view = StrictListView<String, String, String>(strictness: .uiKit)

    mutating func reloadData(_ snapshot: StringSnapshot) {
        view.reloadData(snapshot)
    }

    mutating func performBatchUpdates(_ changes: StringChanges, resultingIn snapshot: StringSnapshot) throws {
        try view.performBatchUpdatesDeferringReconfigures(changes, resultingIn: snapshot)
    }
}

@MainActor
@Suite("ListConnector")
struct ListConnectorTests {
    static let first = makeSnapshot([("Today", ["a=1", "b"]), ("Archive", ["c"])])
    static let second = makeSnapshot([("Archive", ["c", "b"]), ("Today", ["a=2", "d"])])
    static let third = makeSnapshot([("Today", ["d", "a=2"])])

    @Test("Before ready() updates reach the renderer as reloads, after it as batches")
    func reloadsThenBatches() async throws {
        let source = MutableDataSource(Self.first)
        let adapter = ListAdapter(dataSource: source)
        let log = RendererLog()
        let connector = ListConnector(adapter: adapter, renderer: RecordingRenderer(log: log))
        #expect(log.calls == [.reload(StringSnapshot())])  // connecting syncs the renderer

        await adapter.invalidateAndWait()
        #expect(log.calls.last == .reload(Self.first))
        #expect(!connector.isReady)

        connector.ready()
        source.set(Self.second)
        await adapter.invalidateAndWait()
        #expect(log.calls.last == .batch(Self.first.changes(to: Self.second), Self.second))
        source.set(Self.third)
        await adapter.invalidateAndWait()
        #expect(log.calls.last == .batch(Self.second.changes(to: Self.third), Self.third))

        #expect(log.calls.count == 4)
        #expect(connector.renderer.shown == Self.third)
        #expect(connector.snapshot == Self.third)
        #expect(connector.generation == 3)
        #expect(connector.lastError == nil)
    }

    @Test("The connector answers with what the renderer applied, never the adapter's newer state")
    func countsFollowTheRenderer() async throws {
        let source = MutableDataSource(Self.first)
        let adapter = ListAdapter(dataSource: source)
        // Registered before the connector: it sees each update before the connector applies it.
        let earlier = RecordingObserver<MutableDataSource>()
        adapter.addObserver(earlier)
        let log = RendererLog()
        let connector = ListConnector(adapter: adapter, renderer: RecordingRenderer(log: log))
        connector.ready()
        await adapter.invalidateAndWait()

        var seenByEarlier: [(adapter: Int, connector: Int, renderer: Int)] = []
        earlier.onUpdate = { [unowned connector] _ in
            seenByEarlier.append(
                (adapter.numberOfSections, connector.numberOfSections, connector.renderer.shown.sectionCount))
        }
        var seenDuringBatch: [Int] = []
        log.duringBatch = { [unowned connector] in
            // Inside the batch the counts are the ones the batch produces, as UIKit expects.
            seenDuringBatch.append(connector.numberOfItems(inSection: 0))
        }
        source.set(Self.third)
        await adapter.invalidateAndWait()

        #expect(seenByEarlier.count == 1)
        #expect(seenByEarlier.first?.adapter == 1)
        #expect(seenByEarlier.first?.connector == 2)
        #expect(seenByEarlier.first?.renderer == 2)
        #expect(seenDuringBatch == [2])
        #expect(connector.numberOfSections == 1)
        #expect(connector.title(ofSection: 0) == "Today")
        #expect(connector.identifier(at: ItemPath(section: 0, item: 1)) == "a")
        #expect(connector.path(of: "d") == ItemPath(section: 0, item: 0))
        #expect(connector.path(of: "c") == nil)
    }

    @Test("Items are fetched at the renderer's paths, through the adapter's cache")
    func itemsAtRendererPaths() async throws {
        let source = MutableDataSource(Self.first)
        let adapter = ListAdapter(dataSource: source)
        let connector = ListConnector(adapter: adapter, renderer: RecordingRenderer(log: RendererLog()))
        connector.ready()
        await adapter.invalidateAndWait()
        let path = ItemPath(section: 0, item: 0)
        #expect(connector.cachedItem(at: path) == nil)
        #expect(try await connector.item(at: path) == FetchedItem(id: "a", summary: "1"))
        #expect(connector.cachedItem(at: path) == FetchedItem(id: "a", summary: "1"))
        #expect(try await connector.item(at: ItemPath(section: 5, item: 0)) == nil)
        #expect(source.itemCalls == 1)
    }

    @Test("A refused batch is reported and the renderer is resynchronised with reloadData")
    func refusedBatchResynchronises() async throws {
        // "a" moves to another section and its summary changes: UIKit refuses to reload a row
        // that moves in the same batch, and so does the UIKit-strict view.
        let before = makeSnapshot([("Today", ["a=1", "b"]), ("Archive", ["c"])])
        let after = makeSnapshot([("Today", ["b"]), ("Archive", ["c", "a=2"])])
        let source = MutableDataSource(before)
        let adapter = ListAdapter(dataSource: source)
        let connector = ListConnector(
            adapter: adapter, renderer: StrictListView<String, String, String>(strictness: .uiKit))
        var reported: [any Error] = []
        connector.onRendererError = { reported.append($0) }
        connector.ready()
        await adapter.invalidateAndWait()
        #expect(connector.lastError == nil)

        source.set(after)
        await adapter.invalidateAndWait()

        let error = try #require(connector.lastError as? BatchUpdateError)
        #expect(error.code == .updatedItemMoved)
        #expect(reported.count == 1)
        #expect(connector.rendererFailureCount == 1)
        #expect(connector.renderer.snapshot == after)
        #expect(connector.renderer.reloadCount == 2)  // on connecting, then to resynchronise
        #expect(connector.snapshot == after)
        #expect(connector.renderer.numberOfRows(inSection: 1) == connector.numberOfItems(inSection: 1))
    }

    @Test("A UIKit-style renderer takes the same update without error, updates deferred")
    func uiKitSplit() async throws {
        let before = makeSnapshot([("Today", ["a=1", "b"]), ("Archive", ["c"])])
        let after = makeSnapshot([("Today", ["b"]), ("Archive", ["c", "a=2"])])
        let source = MutableDataSource(before)
        let adapter = ListAdapter(dataSource: source)
        let connector = ListConnector(adapter: adapter, renderer: UIKitStyleRenderer())
        connector.ready()
        await adapter.invalidateAndWait()
        source.set(after)
        await adapter.invalidateAndWait()
        #expect(connector.lastError == nil)
        #expect(connector.renderer.view.snapshot == after)
        #expect(connector.renderer.view.batchCount == 2)
    }

    @Test("A connector made after some updates starts from the adapter's current snapshot")
    func lateConnector() async throws {
        let source = MutableDataSource(Self.first)
        let adapter = ListAdapter(dataSource: source)
        await adapter.invalidateAndWait()
        let connector = ListConnector(
            adapter: adapter, renderer: StrictListView<String, String, String>(strictness: .format))
        connector.ready()
        #expect(connector.renderer.snapshot == Self.first)
        #expect(connector.generation == 1)
        source.set(Self.second)
        await adapter.invalidateAndWait()
        #expect(connector.renderer.snapshot == Self.second)
        #expect(connector.renderer.batchCount == 1)
        #expect(connector.lastError == nil)
    }
}
