import Synchronization
import Testing

@testable import ListAdapter

@MainActor
@Suite("ListAdapter")
struct ListAdapterTests {
    static let mail = makeSnapshot([
        ("Today", ["a=1", "b", "c=1"]),
        ("", ["d=1"]),
        ("Archive", ["e", "f=2"]),
    ])

    @Test("The adapter starts empty and its first invalidation delivers everything inserted")
    func firstInvalidation() async throws {
        let source = MutableDataSource(Self.mail)
        let adapter = ListAdapter(dataSource: source)
        let observer = RecordingObserver<MutableDataSource>()
        adapter.addObserver(observer)
        #expect(adapter.snapshot.isEmpty)
        #expect(adapter.generation == 0)
        #expect(source.identifiersCalls == 0)

        await adapter.invalidateAndWait()

        #expect(source.identifiersCalls == 1)
        let update = try #require(observer.updates.first)
        #expect(observer.updates.count == 1)
        #expect(update.generation == 1)
        #expect(update.oldSnapshot.isEmpty)
        #expect(update.newSnapshot == Self.mail)
        #expect(!update.isDataSourceChange)
        #expect(update.changes.insertedSections.map(\.index) == [0, 1, 2])
        #expect(update.changes.insertedSections.map(\.section) == Self.mail.sections)
        #expect(update.changes.operationCount == 3)
        #expect(adapter.snapshot == Self.mail)
        #expect(adapter.generation == 1)
        #expect(source.itemCalls == 0)
    }

    @Test("Later invalidations deliver the changes, which apply to the old snapshot")
    func laterInvalidations() async throws {
        let source = MutableDataSource(Self.mail)
        let adapter = ListAdapter(dataSource: source)
        let observer = RecordingObserver<MutableDataSource>()
        adapter.addObserver(observer)
        await adapter.invalidateAndWait()
        let next = makeSnapshot([("Archive", ["e", "f=3", "a=1"]), ("Today", ["c=1", "b", "x"])])
        source.set(next)
        await adapter.invalidateAndWait()
        // Nothing changed: still an update, with no operation.
        await adapter.invalidateAndWait()

        #expect(observer.updates.map(\.generation) == [1, 2, 3])
        let update = observer.updates[1]
        #expect(update.oldSnapshot == Self.mail)
        #expect(update.newSnapshot == next)
        #expect(try update.oldSnapshot.applying(update.changes) == next)
        #expect(update.changes.deletedSections == [1])
        #expect(update.changes.updatedItems.map(\.summary) == ["3"])
        #expect(observer.updates[2].changes.isEmpty)
        #expect(observer.updates[2].oldSnapshot == next)
    }

    @Test("Index paths map to identifiers and back; counts and titles follow the snapshot")
    func indexPathMapping() async {
        let adapter = ListAdapter(dataSource: MutableDataSource(Self.mail))
        await adapter.invalidateAndWait()

        #expect(adapter.numberOfSections == 3)
        #expect((0..<3).map(adapter.numberOfItems(inSection:)) == [3, 1, 2])
        #expect((0..<3).map(adapter.title(ofSection:)) == ["Today", "", "Archive"])
        for (sectionOffset, section) in Self.mail.sections.enumerated() {
            for (itemOffset, item) in section.items.enumerated() {
                let path = ItemPath(section: sectionOffset, item: itemOffset)
                #expect(adapter.identifier(at: path) == item.id)
                #expect(adapter.path(of: item.id) == path)
                #expect(adapter.summary(at: path) == item.summary)
            }
        }
        #expect(adapter.identifier(at: ItemPath(section: 1, item: 1)) == nil)
        #expect(adapter.identifier(at: ItemPath(section: 3, item: 0)) == nil)
        #expect(adapter.path(of: "zzz") == nil)
    }

    @Test("Invalidations through the invalidator, from other threads, are delivered")
    func invalidatorFromOtherThreads() async throws {
        let source = MutableDataSource(Self.mail)
        let adapter = ListAdapter(dataSource: source)
        let invalidator = try #require(source.invalidator)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { invalidator.invalidate() } }
        }
        await adapter.waitUntilIdle()
        #expect(adapter.snapshot == Self.mail)
        #expect(!adapter.isBusy)
        // However they interleave with the diffs, never more diffs than invalidations.
        #expect((1...20).contains(source.identifiersCalls))
    }

    @Test("The invalidator does not keep the adapter alive")
    func invalidatorHoldsAdapterWeakly() async throws {
        let source = MutableDataSource(Self.mail)
        weak var weakAdapter: ListAdapter<MutableDataSource>?
        do {
            let adapter = ListAdapter(dataSource: source)
            weakAdapter = adapter
            await adapter.invalidateAndWait()
        }
        #expect(weakAdapter == nil)
        source.invalidator?.invalidate()  // a no-op, not a crash
        #expect(source.identifiersCalls == 1)
    }

    @Test("Removed observers stop receiving; observers are held weakly")
    func observerRemoval() async {
        let source = MutableDataSource(Self.mail)
        let adapter = ListAdapter(dataSource: source)
        let kept = RecordingObserver<MutableDataSource>()
        let removed = RecordingObserver<MutableDataSource>()
        adapter.addObserver(kept)
        adapter.addObserver(removed)
        adapter.addObserver(kept)  // once only
        do {
            let dropped = RecordingObserver<MutableDataSource>()
            adapter.addObserver(dropped)
            #expect(adapter.observerCount == 3)
        }
        #expect(adapter.observerCount == 2)
        await adapter.invalidateAndWait()
        adapter.removeObserver(removed)
        await adapter.invalidateAndWait()
        #expect(kept.updates.count == 2)
        #expect(removed.updates.count == 1)
        #expect(adapter.observerCount == 1)
    }

    @Test("An observer removed by an earlier one during a delivery does not get that delivery")
    func removalDuringDelivery() async {
        let adapter = ListAdapter(dataSource: MutableDataSource(Self.mail))
        let first = RecordingObserver<MutableDataSource>()
        let second = RecordingObserver<MutableDataSource>()
        first.onUpdate = { [unowned adapter, unowned second] _ in adapter.removeObserver(second) }
        adapter.addObserver(first)
        adapter.addObserver(second)
        await adapter.invalidateAndWait()
        #expect(first.updates.count == 1)
        #expect(second.updates.isEmpty)
    }

    @Test("A throwing data source delivers ListAdapterError and the adapter keeps its last snapshot")
    func throwingDataSource() async throws {
        let source = MutableDataSource(Self.mail)
        let adapter = ListAdapter(dataSource: source)
        let observer = RecordingObserver<MutableDataSource>()
        adapter.addObserver(observer)
        await adapter.invalidateAndWait()

        source.set(makeSnapshot([("New", ["n"])]))
        source.fail(with: DataSourceFailure(reason: "offline"))
        await adapter.invalidateAndWait()

        let error = try #require(observer.failures.first)
        #expect(observer.failures.count == 1)
        #expect(error.code == .identifiersFailed)
        #expect(error.underlying as? DataSourceFailure == DataSourceFailure(reason: "offline"))
        #expect(error.message.contains("keeps its last snapshot"))
        #expect(adapter.lastError?.code == .identifiersFailed)
        #expect(adapter.snapshot == Self.mail)
        #expect(adapter.generation == 1)
        #expect(observer.updates.count == 1)

        // Recovery: the next update goes from the last good snapshot to the new state.
        source.fail(with: nil)
        await adapter.invalidateAndWait()
        #expect(adapter.lastError == nil)
        let update = try #require(observer.updates.last)
        #expect(update.generation == 2)
        #expect(update.oldSnapshot == Self.mail)
        #expect(update.newSnapshot == makeSnapshot([("New", ["n"])]))
    }

    @Test("A data source returning a duplicate delivers ListAdapterError naming it")
    func duplicateIdentifiers() async throws {
        let source = MutableDataSource(Self.mail)
        let adapter = ListAdapter(dataSource: source)
        let observer = RecordingObserver<MutableDataSource>()
        adapter.addObserver(observer)
        await adapter.invalidateAndWait()

        source.duplicate("b")
        await adapter.invalidateAndWait()

        let error = try #require(observer.failures.first)
        #expect(error.code == .duplicateIdentifier)
        let snapshotError = try #require(error.snapshotError)
        #expect(snapshotError.code == .duplicateItemID)
        #expect(snapshotError.duplicate == "b")
        #expect(snapshotError.firstPosition == [0, 1])
        #expect(snapshotError.secondPosition == [0, 3])
        #expect(error.message.contains("\"b\" twice"))
        #expect(adapter.snapshot == Self.mail)
        #expect(observer.updates.count == 1)
    }

    @Test("The updates stream delivers every update in order and ends with the adapter")
    func updatesStream() async throws {
        let source = MutableDataSource(Self.mail)
        var adapter: ListAdapter<MutableDataSource>? = ListAdapter(dataSource: source)
        let stream = try #require(adapter).updates()
        await adapter?.invalidateAndWait()
        source.set(makeSnapshot([("Today", ["a=1"])]))
        await adapter?.invalidateAndWait()
        adapter = nil

        var generations: [Int] = []
        var last: StringSnapshot?
        for await update in stream {
            generations.append(update.generation)
            last = update.newSnapshot
        }
        #expect(generations == [1, 2])
        #expect(last == makeSnapshot([("Today", ["a=1"])]))
    }

    @Test("Many invalidations during a slow diff lead to one more diff that delivers the latest state")
    func coalescing() async throws {
        var rng = SeededGenerator(seed: 7)
        var state = RandomSnapshots.snapshot(using: &rng)
        let source = MutableDataSource(state)
        let adapter = ListAdapter(dataSource: source)
        let observer = RecordingObserver<MutableDataSource>()
        adapter.addObserver(observer)
        let invalidator = try #require(source.invalidator)
        let gate = Gate()
        source.blockNextIdentifiers(on: gate)
        var started = source.identifiersStarted.makeAsyncIterator()

        adapter.invalidate()
        await started.next()  // the first diff has read the data source and is blocked
        let firstState = source.expectedSnapshot
        for step in 0..<200 {
            state = RandomSnapshots.successor(of: state, using: &rng)
            source.set(state)
            if step.isMultiple(of: 2) {
                adapter.invalidate()
            } else {
                await Task.detached { invalidator.invalidate() }.value
            }
        }
        gate.open()
        await adapter.waitUntilIdle()

        #expect(source.identifiersCalls == 2)
        #expect(observer.updates.count == 2)
        #expect(observer.updates.first?.newSnapshot == firstState)
        #expect(adapter.snapshot == source.expectedSnapshot)
        let last = try #require(observer.updates.last)
        #expect(try last.oldSnapshot.applying(last.changes) == last.newSnapshot)
    }

    @Test("Invalidations after a delivery are not lost")
    func noInvalidationLost() async {
        var rng = SeededGenerator(seed: 11)
        var state = RandomSnapshots.snapshot(using: &rng)
        let source = MutableDataSource(state)
        let adapter = ListAdapter(dataSource: source)
        let observer = RecordingObserver<MutableDataSource>()
        // Every delivery changes the data again and invalidates from inside the observer.
        var remaining = 25
        observer.onUpdate = { [unowned adapter] _ in
            guard remaining > 0 else { return }
            remaining -= 1
            state = RandomSnapshots.successor(of: state, using: &rng)
            source.set(state)
            adapter.invalidate()
        }
        adapter.addObserver(observer)
        await adapter.invalidateAndWait()
        #expect(observer.updates.count == 26)
        #expect(source.identifiersCalls == 26)
        #expect(adapter.snapshot == source.expectedSnapshot)
        #expect(observer.updates.map(\.generation) == Array(1...26))
    }

    @Test("The snapshot an update replaces is freed off the main actor, not by the delivering task")
    func replacedSnapshotFreedOffMainActor() async {
        // Freeing a list costs about as much as building it: for a large list, freeing the
        // replaced snapshot where the update is delivered stalls the main actor for as long.
        let source = FreshIdentifierSource(count: 1_000)
        let adapter = ListAdapter(dataSource: source)
        // The adapter's task inherits the task-local value of the caller that starts it.
        for _ in 0..<2 {
            TracedID.$isInAdapterTask.withValue(true) { adapter.invalidate() }
            await adapter.waitUntilIdle()
        }
        // The third diff runs on the adapter's serial diff queue after whatever the second
        // turn handed to it.
        await adapter.invalidateAndWait()
        #expect(adapter.generation == 3)
        #expect(TracedID.freedCount(generation: 1) == (total: 1_000, inAdapterTask: 0))
    }
}

/// An identifier that records where it is freed: by the adapter's delivering task (on the main
/// actor) or elsewhere.
final class TracedID: Hashable, Sendable {
    @TaskLocal static var isInAdapterTask = false
    private static let freed = Mutex<[Int: (total: Int, inAdapterTask: Int)]>([:])

    let generation: Int
    let offset: Int

    init(generation: Int, offset: Int) {
        self.generation = generation
        self.offset = offset
    }

    deinit {
        let inAdapterTask = Self.isInAdapterTask
        Self.freed.withLock { freed in
            freed[generation, default: (0, 0)].total += 1
            if inAdapterTask { freed[generation, default: (0, 0)].inAdapterTask += 1 }
        }
    }

    static func freedCount(generation: Int) -> (total: Int, inAdapterTask: Int) {
        freed.withLock { $0[generation] ?? (0, 0) }
    }

    static func == (lhs: TracedID, rhs: TracedID) -> Bool {
        (lhs.generation, lhs.offset) == (rhs.generation, rhs.offset)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(generation)
        hasher.combine(offset)
    }
}

/// A data source whose every read lists `count` new identifiers, of a new generation, that only
/// the adapter's snapshots keep alive.
final class FreshIdentifierSource: ListDataSource {
    private let generation = Mutex(0)
    let count: Int

    init(count: Int) { self.count = count }

    func identifiers() async throws -> [TracedID] {
        let generation = generation.withLock { generation in
            generation += 1
            return generation
        }
        return (0..<count).map { TracedID(generation: generation, offset: $0) }
    }

    func sectionTitle(for id: TracedID) -> String? { nil }
    func summary(for id: TracedID) -> Int? { nil }
    func item(for id: TracedID) async throws -> Int { id.offset }
}
