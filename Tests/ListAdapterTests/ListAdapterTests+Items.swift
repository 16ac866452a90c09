import Testing

@testable import ListAdapter

// Items fetched on demand through the bounded cache.
extension ListAdapterTests {
    @Test("Items are fetched on demand, cached by identifier, and dropped when updated or gone")
    func itemFetchAndCache() async throws {
        let source = MutableDataSource(Self.mail)
        let adapter = ListAdapter(dataSource: source)
        await adapter.invalidateAndWait()
        let pathOfA = ItemPath(section: 0, item: 0)

        #expect(adapter.cachedItem(at: pathOfA) == nil)
        #expect(try await adapter.item(at: pathOfA) == FetchedItem(id: "a", summary: "1"))
        #expect(source.itemCalls == 1)
        #expect(adapter.cachedItem(at: pathOfA) == FetchedItem(id: "a", summary: "1"))
        #expect(try await adapter.item(at: pathOfA) == FetchedItem(id: "a", summary: "1"))
        #expect(source.itemCalls == 1)
        #expect(try await adapter.item(at: ItemPath(section: 9, item: 0)) == nil)
        #expect(try await adapter.item(for: "nope") == nil)
        _ = try await adapter.item(for: "b")
        _ = try await adapter.item(for: "e")
        #expect(adapter.cachedItemCount == 3)
        #expect(source.itemCalls == 3)

        // "a" updated and moved, "b" gone, "e" unchanged (immutable) but moved.
        source.set(makeSnapshot([("Archive", ["e", "a=2"]), ("Today", ["c=1"])]))
        await adapter.invalidateAndWait()
        #expect(adapter.cachedItemCount == 1)
        #expect(adapter.cachedItem(at: ItemPath(section: 0, item: 0)) == FetchedItem(id: "e", summary: nil))
        #expect(adapter.cachedItem(at: ItemPath(section: 0, item: 1)) == nil)
        #expect(try await adapter.item(at: ItemPath(section: 0, item: 1)) == FetchedItem(id: "a", summary: "2"))
        #expect(source.itemCalls == 4)
    }

    @Test("Concurrent requests for one item cost one fetch")
    func concurrentItemRequests() async throws {
        let source = MutableDataSource(Self.mail)
        let adapter = ListAdapter(dataSource: source)
        await adapter.invalidateAndWait()
        let gate = Gate()
        source.blockItems(on: gate)
        let first = Task { try await adapter.item(for: "c") }
        let second = Task { try await adapter.item(for: "c") }
        while source.itemCalls == 0 { await Task.yield() }
        gate.open()
        #expect(try await first.value == FetchedItem(id: "c", summary: "1"))
        #expect(try await second.value == FetchedItem(id: "c", summary: "1"))
        #expect(source.itemCalls == 1)
    }

    @Test("A failing item fetch throws ListAdapterError with the cause")
    func itemFetchFailure() async throws {
        let source = MutableDataSource(makeSnapshot([("", ["broken-1", "ok"])]))
        let adapter = ListAdapter(dataSource: source)
        await adapter.invalidateAndWait()
        let error = await #expect(throws: ListAdapterError.self) {
            _ = try await adapter.item(at: ItemPath(section: 0, item: 0))
        }
        #expect(error?.code == .itemFetchFailed)
        #expect(error?.underlying as? DataSourceFailure == DataSourceFailure(reason: "no item broken-1"))
        #expect(error?.message.contains("\"broken-1\"") == true)
        #expect(adapter.cachedItemCount == 0)
    }

    @Test("A cache of capacity 2 keeps the two most recently used items")
    func boundedCache() async throws {
        let source = MutableDataSource(Self.mail)
        let adapter = ListAdapter(dataSource: source, itemCacheCapacity: 2)
        await adapter.invalidateAndWait()
        _ = try await adapter.item(for: "a")
        _ = try await adapter.item(for: "b")
        _ = try await adapter.item(for: "a")  // "a" is now the most recent
        _ = try await adapter.item(for: "c")  // evicts "b"
        #expect(adapter.cachedItemCount == 2)
        #expect(adapter.cachedItem(at: ItemPath(section: 0, item: 0)) != nil)
        #expect(adapter.cachedItem(at: ItemPath(section: 0, item: 1)) == nil)
        #expect(adapter.cachedItem(at: ItemPath(section: 0, item: 2)) != nil)
        #expect(source.itemCalls == 3)
    }
}
