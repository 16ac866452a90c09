import Foundation
import ListAdapter
import Synchronization
import Testing

@testable import ListViewBinding

typealias StringSnapshot = ListSnapshot<String, String, String>

/// A model whose list the test sets; items whose summary starts with "!" ask for a reload, the
/// others for a reconfigure.
final class ListModel: ListSource {
    private let state = Mutex(StringSnapshot())

    func set(_ snapshot: StringSnapshot) { state.withLock { $0 = snapshot } }
    func contents() async throws -> ListContents<String, String, String> { ListContents(state.withLock { $0 }) }
    func item(for id: String) async throws -> String { id }
    nonisolated func updateKind(of id: String, from oldSummary: String?, to newSummary: String?) -> ItemUpdateKind {
        newSummary?.hasPrefix("!") == true ? .reload : .reconfigure
    }
}

/// A random list of up to 6 sections of items drawn from a pool of 40, with summaries that
/// change now and then, and section summaries (a count) computed from the items.
func randomSnapshot(_ random: inout SplitMix64) -> StringSnapshot {
    let titles = ["Pinned", "Today", "Yesterday", "Older", "Drafts", "Spam"].shuffled(using: &random)
    let sectionCount = Int.random(in: 0...6, using: &random)
    var pool = (0..<40).map { "id \($0)/\"q\"é" }.shuffled(using: &random)
    var sections: [StringSnapshot.Section] = []
    for title in titles.prefix(sectionCount) {
        let count = Int.random(in: 0...min(8, pool.count), using: &random)
        let items = pool.prefix(count).map { id in
            let summary: String? =
                switch Int.random(in: 0..<6, using: &random) {
                case 0: nil
                case 1: "!v\(Int.random(in: 0..<2, using: &random))"
                default: "v\(Int.random(in: 0..<2, using: &random))"
                }
            return StringSnapshot.Item(id: id, summary: summary)
        }
        pool.removeFirst(count)
        let summary = Bool.random(using: &random) ? "\(items.filter { $0.summary != nil }.count) with a summary" : nil
        sections.append(StringSnapshot.Section(title: title, summary: summary, items: items))
    }
    return try! StringSnapshot(sections: sections)
}

/// What a view shows, as the same values the adapter's snapshot gives.
@MainActor
func shown(_ view: StrictFakeView) -> [[Shown]] {
    view.layout()
    return (view.cells ?? []).enumerated().map { section, cells in [view.headers[section]] + cells }
}

func expected(_ snapshot: StringSnapshot) -> [[Shown]] {
    snapshot.sections.map { section in
        [Shown(id: section.title, summary: section.summary)]
            + section.items.map { Shown(id: $0.id, summary: $0.summary) }
    }
}

@MainActor
@Suite("ListViewBinding drives a view as UIKit requires")
struct ListViewBindingTests {
    @Test("Before ready() every update reloads the view; after it, batches animate it", arguments: [1, 2])
    func reloadsThenBatches(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let model = ListModel()
        let adapter = ListAdapter(dataSource: model)
        let view = StrictTableView()
        let binding = ListViewBinding<String, String, String>(tableView: view, animation: .fade)
        view.core.dataSource = FakeDataSource(binding)
        let connector = ListConnector(adapter: adapter, renderer: binding)
        for _ in 0..<5 {
            model.set(randomSnapshot(&random))
            await adapter.invalidateAndWait()
            #expect(shown(view.core) == expected(adapter.snapshot))
        }
        #expect(view.core.batchCount == 0)
        #expect(view.core.reloadCount >= 5)
        connector.ready()
        let reloads = view.core.reloadCount
        model.set(randomSnapshot(&random))
        await adapter.invalidateAndWait()
        #expect(view.core.batchCount >= 1)
        #expect(view.core.reloadCount == reloads)
        #expect(shown(view.core) == expected(adapter.snapshot))
        #expect(view.core.violations == [])
        #expect(view.animations == [.fade])
    }

    /// A long seeded stream through a real adapter: after every update the view shows exactly
    /// the adapter's list (cells, headers, summaries) and no UIKit rule was broken.
    @Test(
        "Long seeded streams keep a table and a collection view exact", arguments: [(7, true), (8, false), (9, true)])
    func longStreams(seed: UInt64, table: Bool) async throws {
        var random = SplitMix64(seed: seed)
        let model = ListModel()
        let adapter = ListAdapter(dataSource: model)
        let tableView = StrictTableView()
        let collectionView = StrictCollectionView()
        let binding =
            table
            ? ListViewBinding<String, String, String>(tableView: tableView, animation: .automatic)
            : ListViewBinding<String, String, String>(collectionView: collectionView)
        let view = table ? tableView.core : collectionView.core
        view.dataSource = FakeDataSource(binding)
        if Bool.random(using: &random) { binding.reconfigureSectionHeader = { view.reconfigureHeader($0) } }
        let connector = ListConnector(adapter: adapter, renderer: binding)
        connector.ready()
        for step in 0..<300 {
            model.set(randomSnapshot(&random))
            await adapter.invalidateAndWait()
            // Now and then the view lays out between updates, now and then it does not.
            if step % 3 == 0 { view.layout() }
            if step % 50 == 0 {
                // A reload (a trait change, say): the view asks again only when it next needs to.
                binding.reloadData(adapter.snapshot)
            }
        }
        #expect(view.violations == [])
        #expect(connector.rendererFailureCount == 0)
        #expect(shown(view) == expected(adapter.snapshot))
        #expect(view.batchCount > 250)
        #expect(view.reconfiguredCount > 0)
        #expect(view.reloadedRowCount > 0)
    }

    @Test("The data source switches inside the batch: a view that asks as the batch starts gets the old counts")
    func dataSourceSwitchesInsideTheBatch() throws {
        let view = StrictTableView()
        let binding = ListViewBinding<String, String, String>(tableView: view, animation: .automatic)
        view.core.dataSource = FakeDataSource(binding)
        let old = try StringSnapshot(sections: [.init(title: "A", items: [.init(id: "a")])])
        let new = try StringSnapshot(sections: [.init(title: "A", items: [.init(id: "a"), .init(id: "b")])])
        binding.reloadData(old)
        // The view has not asked yet: it asks when the batch starts, and must hear one row.
        try binding.performBatchUpdates(old.changes(to: new), resultingIn: new)
        #expect(view.core.violations == [])
        #expect(shown(view.core) == expected(new))
    }

    @Test("The stand-in view refuses a data source switched before the batch, as UIKit does")
    func theViewCatchesAnEarlySwitch() throws {
        let view = StrictFakeView()
        var rows = 1
        view.dataSource = FakeDataSource(
            numberOfSections: { 1 }, numberOfRows: { _ in rows }, cell: { Shown(id: "\($0[1])") },
            header: { _ in Shown(id: "A") })
        view.reloadData()
        rows = 2  // switched too early: the view reads 2 rows as the state before the batch
        view.performBatchUpdates(
            { view.record("insertRows") { $0.insertedRows = [IndexPath(indexes: [0, 1])] } }, completion: nil)
        #expect(view.violations.count == 1)
        #expect(
            view.violations.first?.hasPrefix("invalid number of rows in section 0: 2 after the update, 2 before")
                == true)
    }

    @Test("A batch UIKit would refuse never reaches the view: the connector reloads it instead")
    func refusedBatch() throws {
        let view = StrictCollectionView()
        let binding = ListViewBinding<String, String, String>(collectionView: view)
        view.core.dataSource = FakeDataSource(binding)
        let old = try StringSnapshot(sections: [.init(title: "A", items: [.init(id: "a")])])
        binding.reloadData(old)
        view.core.layout()
        var wrong = ListChanges<String, String, String>()
        wrong.deletedItems = [ItemPath(section: 0, item: 5)]
        #expect(throws: BatchUpdateError.self) { try binding.performBatchUpdates(wrong, resultingIn: old) }
        #expect(view.core.batchCount == 0)
        #expect(view.core.violations == [])
    }

    @Test("Updates of moved items are staged: reloads in a second batch, reconfigures after the first")
    func stagedUpdates() async throws {
        let view = StrictTableView()
        let binding = ListViewBinding<String, String, String>(tableView: view, animation: .automatic)
        view.core.dataSource = FakeDataSource(binding)
        let old = try StringSnapshot(sections: [
            .init(title: "A", summary: "1", items: [.init(id: "a", summary: "x"), .init(id: "b", summary: "y")])
        ])
        let new = try StringSnapshot(sections: [
            .init(title: "A", summary: "2", items: [.init(id: "b", summary: "!y2"), .init(id: "a", summary: "x2")])
        ])
        binding.reloadData(old)
        view.core.layout()
        var changes = old.changes(to: new)
        changes.updatedItems = changes.updatedItems.map { update in
            var update = update
            update.kind = update.summary?.hasPrefix("!") == true ? .reload : .reconfigure
            return update
        }
        try binding.performBatchUpdates(changes, resultingIn: new)
        #expect(view.core.violations == [])
        #expect(view.core.batchCount == 3)  // the batch, the late reload, the header's reloadSections
        #expect(view.core.reconfiguredCount == 1)
        #expect(shown(view.core) == expected(new))
    }

    @Test("A view that is gone is left alone")
    func viewGone() throws {
        var view: StrictTableView? = StrictTableView()
        let binding = ListViewBinding<String, String, String>(tableView: view!, animation: .automatic)
        view = nil
        let new = try StringSnapshot(sections: [.init(title: "A", items: [.init(id: "a")])])
        try binding.performBatchUpdates(StringSnapshot().changes(to: new), resultingIn: new)
        #expect(binding.numberOfItems(inSection: 0) == 1)
        #expect(binding.batchCount == 0)
    }

    @Test("Index paths convert both ways; one that is not (section, row) names nothing")
    func indexPaths() {
        typealias Binding = ListViewBinding<String, String, String>
        #expect(Binding.indexPath(ItemPath(section: 2, item: 3)) == IndexPath(indexes: [2, 3]))
        #expect(Binding.itemPath(IndexPath(indexes: [2, 3])) == ItemPath(section: 2, item: 3))
        #expect(Binding.itemPath(IndexPath(indexes: [2])) == nil)
    }
}
