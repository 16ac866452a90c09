import Testing

@testable import ListAdapter

// Strings compare by their Unicode scalars: two spellings of one text are two identifiers.
extension ListAdapterTests {
    @Test("two spellings of one identifier are two items, each fetched and cached as its own")
    func spellingsAreTwoItems() async throws {
        let source = MutableDataSource(makeSnapshot([("A", ["\u{E9}=1", "e\u{301}=2"])]))
        let adapter = ListAdapter(dataSource: source)
        await adapter.invalidateAndWait()
        #expect(adapter.snapshot.itemCount == 2)
        #expect(try await adapter.item(for: "\u{E9}")?.summary == "1")
        #expect(try await adapter.item(for: "e\u{301}")?.summary == "2")
        #expect(source.itemCalls == 2)
        #expect(adapter.cachedItem(at: ItemPath(section: 0, item: 0))?.summary == "1")
        #expect(adapter.cachedItem(at: ItemPath(section: 0, item: 1))?.summary == "2")
    }

    @Test("a summary that only changes its normalization is an update, and refetches the item")
    func respelledSummaryIsAnUpdate() async throws {
        let source = MutableDataSource(makeSnapshot([("A", ["a=caf\u{E9}"])]))
        let adapter = ListAdapter(dataSource: source)
        await adapter.invalidateAndWait()
        _ = try await adapter.item(for: "a")
        source.set(makeSnapshot([("A", ["a=cafe\u{301}"])]))
        await adapter.invalidateAndWait()
        #expect(
            adapter.snapshot.item(at: ItemPath(section: 0, item: 0))?.summary.map { Array($0.utf8) }
                == Array("cafe\u{301}".utf8))
        #expect(adapter.cachedItem(at: ItemPath(section: 0, item: 0)) == nil)
        #expect(try await adapter.item(for: "a")?.summary.map { Array($0.utf8) } == Array("cafe\u{301}".utf8))
        #expect(source.itemCalls == 2)
    }
}
