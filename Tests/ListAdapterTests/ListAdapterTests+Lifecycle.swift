import Testing

@testable import ListAdapter

// Streams created during a delivery, invalidators outliving their adapter, and error messages
// about huge identifiers.
extension ListAdapterTests {
    @Test("A stream created by an observer during a delivery starts with the next update")
    func streamCreatedDuringDelivery() async throws {
        let source = MutableDataSource(makeSnapshot([("A", ["a"])]))
        let adapter = ListAdapter(dataSource: source)
        let observer = RecordingObserver<MutableDataSource>()
        var stream: AsyncStream<ListAdapterUpdate<String, String, String>>?
        var base: StringSnapshot?
        observer.onUpdate = { [unowned adapter] _ in
            guard stream == nil else { return }
            base = adapter.snapshot
            stream = adapter.updates()
        }
        adapter.addObserver(observer)
        await adapter.invalidateAndWait()
        source.set(makeSnapshot([("A", ["a", "b"])]))
        await adapter.invalidateAndWait()
        var updates = try #require(stream).makeAsyncIterator()
        let first = await updates.next()
        #expect(first?.generation == 2)
        #expect(first?.oldSnapshot == base)
        #expect(first?.newSnapshot == adapter.snapshot)
    }

    @Test("An invalidator is detached once its adapter is deallocated")
    func invalidatorOutlivesAdapter() async throws {
        let source = MutableDataSource(makeSnapshot([("A", ["a"])]))
        weak var weakAdapter: ListAdapter<MutableDataSource>?
        do {
            let adapter = ListAdapter(dataSource: source)
            weakAdapter = adapter
            await adapter.invalidateAndWait()
            #expect(try #require(source.invalidator).isAttached)
        }
        #expect(weakAdapter == nil)
        let invalidator = try #require(source.invalidator)
        #expect(!invalidator.isAttached)
        invalidator.invalidate()  // A no-op, not a crash.
    }

    @Test("Errors quote an excerpt of a huge identifier, not all of it")
    func hugeIdentifiersInMessages() async throws {
        let huge = String(repeating: "x", count: 1_000_000)
        let source = MutableDataSource(makeSnapshot([("A", [huge])]))
        source.duplicate(huge)
        let adapter = ListAdapter(dataSource: source)
        await adapter.invalidateAndWait()
        let duplicate = try #require(adapter.lastError)
        #expect(duplicate.code == .duplicateIdentifier)
        // Lengths and flags only: a failure must not print a megabyte.
        let length = duplicate.message.utf8.count
        let namesTheLength = duplicate.message.contains("(1000000 bytes)")
        #expect(length < 1_000)
        #expect(namesTheLength)

        let old = makeSnapshot([("A", [huge, "b"])])
        let mismatched = StringChanges(
            updatedItems: [.init(from: .init(section: 0, item: 0), to: .init(section: 0, item: 1), summary: "s")])
        let mismatch = #expect(throws: ListChangesError.self) { try old.applying(mismatched) }
        #expect((mismatch?.message.utf8.count ?? .max) < 1_000)

        var view = StrictListView<String, String, String>(showing: old)
        let differ = #expect(throws: BatchUpdateError.self) {
            try view.performBatchUpdates(StringChanges(), resultingIn: makeSnapshot([("A", ["b", huge])]))
        }
        #expect((differ?.message.utf8.count ?? .max) < 1_000)
    }

    @Test("An adapter dropped while its data source stalls is deallocated, and its invalidator detached")
    func droppedWhileStalled() async throws {
        let source = MutableDataSource(makeSnapshot([("A", ["a"])]))
        let gate = Gate()
        weak var weakAdapter: ListAdapter<MutableDataSource>?
        do {
            let adapter = ListAdapter(dataSource: source)
            weakAdapter = adapter
            source.blockNextIdentifiers(on: gate)
            var started = source.identifiersStarted.makeAsyncIterator()
            adapter.invalidate()
            await started.next()
        }
        // Whatever else briefly holds the adapter (a scheduled wake-up) lets go within a few turns.
        for _ in 0..<200 where weakAdapter != nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        let alive = weakAdapter != nil
        let attached = source.invalidator?.isAttached ?? true
        gate.open()
        #expect(!alive, "the stalled diff kept the adapter alive")
        #expect(!attached)
    }
}
