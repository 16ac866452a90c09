import Testing

@testable import ListAdapter

/// The README's usage example, as written there, with its claims checked.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("the usage example runs and says what it claims")
    func usage() throws {
        let old = try ListSnapshot<String, String>(sections: [
            .init(title: "Today", items: [.init(id: "a", summary: "hello"), .init(id: "b")]),
            .init(title: "Yesterday", items: [.init(id: "c")]),
        ])
        let new = try ListSnapshot<String, String>(sections: [
            .init(title: "Today", items: [.init(id: "c"), .init(id: "a", summary: "hello, edited")])
        ])
        let changes = old.changes(to: new)
        #expect(changes.deletedSections == [1])
        #expect(changes.deletedItems == [ItemPath(section: 0, item: 1)])
        #expect(changes.insertedItems == [.init(at: ItemPath(section: 0, item: 0), id: "c", summary: nil)])
        #expect(
            changes.updatedItems == [
                .init(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 1), summary: "hello, edited")
            ])
        #expect(try old.applying(changes) == new)

        var tableView = StrictListView<String, String>()
        tableView.reloadData(old)
        try tableView.performBatchUpdates(changes, resultingIn: new)
        #expect(tableView.snapshot == new)
    }
}
