import Testing

@testable import ListAdapter

/// A main-actor model that asks for a new cell when an item's summary switches to a "photo:"
/// one, and a reconfigure otherwise.
@MainActor
final class PhotoFeed: ListSource {
    var snapshot: StringSnapshot

    init(_ snapshot: StringSnapshot) { self.snapshot = snapshot }

    func contents() -> ListContents<String, String, String> { ListContents(snapshot) }

    func item(for id: String) throws -> String { id }

    nonisolated func updateKind(of id: String, from oldSummary: String?, to newSummary: String?) -> ItemUpdateKind {
        (oldSummary?.hasPrefix("photo:") ?? false) == (newSummary?.hasPrefix("photo:") ?? false)
            ? .reconfigure : .reload
    }
}

/// Keeps the updates of an adapter over any source.
@MainActor
final class UpdateRecorder<DataSource: ListSource>: ListAdapterObserver {
    var updates: [ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>] = []

    func listAdapter(
        _ adapter: ListAdapter<DataSource>,
        didUpdate update: ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>
    ) {
        updates.append(update)
    }
}

/// Reconfigure or reload: the data source chooses per item, observers and renderers receive it.
@MainActor
@Suite("Reconfigure or reload")
struct UpdateKindTests {
    static let first = makeSnapshot([("Feed", ["a=text:1", "b=text:1", "c=photo:1"]), ("Old", ["d=1"])])
    // a: text to photo, moved to another section (a reload after the batch); b: text, new text
    // (a reconfigure); c: photo to photo (a reconfigure); d: unchanged.
    static let second = makeSnapshot([("Feed", ["b=text:2", "c=photo:2"]), ("Old", ["d=1", "a=photo:2"])])

    @Test("the adapter asks the source for each updated item and delivers its choice")
    func adapterDeliversTheChoice() async throws {
        let feed = PhotoFeed(Self.first)
        let adapter = ListAdapter(dataSource: feed)
        let observer = UpdateRecorder<PhotoFeed>()
        adapter.addObserver(observer)
        let connector = ListConnector(adapter: adapter, renderer: UIKitStrictRenderer<String, String, String>())
        await adapter.invalidateAndWait()
        connector.ready()

        feed.snapshot = Self.second
        await adapter.invalidateAndWait()
        let update = try #require(observer.updates.last)
        let kinds = Dictionary(
            uniqueKeysWithValues: update.changes.updatedItems.map { (Self.second.identifier(at: $0.to)!, $0.kind) })
        #expect(kinds == ["a": .reload, "b": .reconfigure, "c": .reconfigure])

        // The UIKit-strict renderer reloads a after the batch, in a second one, and reconfigures b and c.
        let view = connector.renderer.view
        #expect(connector.lastError == nil)
        #expect(view.snapshot == Self.second)
        #expect(view.batchCount == 2 && view.reloadedItemCount == 1 && view.reconfiguredItemCount == 2)
    }

    @Test("a source that does not choose gets reconfigures, and so does the plain diff")
    func defaultIsReconfigure() async throws {
        let source = SnapshotSource(Self.first)
        let adapter = ListAdapter(dataSource: source)
        let observer = UpdateRecorder<SnapshotSource<String, String, String>>()
        adapter.addObserver(observer)
        await adapter.invalidateAndWait()
        await adapter.applyAndWait(Self.second)
        let update = try #require(observer.updates.last)
        #expect(update.changes.updatedItems.count == 3)
        #expect(update.changes.updatedItems.allSatisfy { $0.kind == .reconfigure })
        #expect(Self.first.changes(to: Self.second) == update.changes)
    }

    @Test("classifyingUpdates asks with the identifier and both summaries")
    func classifyingUpdates() {
        var asked: [[String?]] = []
        let changes = Self.first.changes(to: Self.second).classifyingUpdates(from: Self.first) { id, old, new in
            asked.append([id, old, new])
            return id == "b" ? .reload : .reconfigure
        }
        #expect(
            Set(asked) == [["a", "text:1", "photo:2"], ["b", "text:1", "text:2"], ["c", "photo:1", "photo:2"]])
        #expect(changes.updatedItems.filter { $0.kind == .reload }.map(\.to) == [ItemPath(section: 0, item: 0)])
        #expect(changes.description.contains(#"summary now "text:2" (reload)"#))
        let lines = changes.description.split(separator: "\n")
        #expect(lines.filter { $0.hasSuffix("(reload)") }.count == 1)
        #expect(StringChanges().classifyingUpdates(from: Self.first) { _, _, _ in .reload } == StringChanges())
        // Changes not valid for the snapshot: an update from outside it keeps its kind.
        let outside = StringChanges(updatedItems: [
            .init(from: ItemPath(section: 5, item: 0), to: ItemPath(section: 5, item: 0), summary: nil)
        ])
        #expect(outside.classifyingUpdates(from: Self.first) { _, _, _ in .reload } == outside)
    }
}
