import Dispatch
import Synchronization
import Testing

@testable import ListAdapter

// Switching an adapter's data source while it diffs or fetches.
extension ListAdapterTests {
    @Test("Switching data sources delivers the changes between the two and detaches the old one")
    func dataSourceSwitch() async throws {
        let first = MutableDataSource(Self.mail)
        let secondState = makeSnapshot([("Archive", ["f=2", "z"]), ("Today", ["a=9"])])
        let second = MutableDataSource(secondState)
        let adapter = ListAdapter(dataSource: first)
        let observer = RecordingObserver<MutableDataSource>()
        adapter.addObserver(observer)
        await adapter.invalidateAndWait()
        _ = try await adapter.item(for: "e")
        let oldInvalidator = try #require(first.invalidator)
        #expect(oldInvalidator.isAttached)

        adapter.setDataSource(second)
        await adapter.waitUntilIdle()

        #expect(!oldInvalidator.isAttached)
        #expect(second.invalidator?.isAttached == true)
        #expect(adapter.dataSource === second)
        let update = try #require(observer.updates.last)
        #expect(observer.updates.count == 2)
        #expect(update.isDataSourceChange)
        #expect(update.oldSnapshot == Self.mail)
        #expect(update.newSnapshot == secondState)
        #expect(update.changes == Self.mail.changes(to: secondState))
        #expect(try Self.mail.applying(update.changes) == secondState)
        #expect(adapter.cachedItemCount == 0)

        // The old data source's invalidator no longer reaches the adapter.
        oldInvalidator.invalidate()
        await adapter.waitUntilIdle()
        #expect(observer.updates.count == 2)
        #expect(first.identifiersCalls == 1)
    }

    @Test("A fetch overtaken by a new data source returns what the old one gave, uncached")
    func fetchOvertakenBySourceSwitch() async throws {
        let first = MutableDataSource(Self.mail)
        // The same summary: only the switch of data sources keeps the old one's item out of the cache.
        let second = MutableDataSource(makeSnapshot([("Today", ["a=1"])]))
        let adapter = ListAdapter(dataSource: first)
        await adapter.invalidateAndWait()
        let gate = Gate()
        first.blockItems(on: gate)
        let fetch = Task { try await adapter.item(for: "a") }
        while first.itemCalls == 0 { await Task.yield() }
        adapter.setDataSource(second)
        await adapter.waitUntilIdle()
        gate.open()
        #expect(try await fetch.value == FetchedItem(id: "a", summary: "1"))
        #expect(adapter.cachedItemCount == 0)
        #expect(try await adapter.item(for: "a") == FetchedItem(id: "a", summary: "1"))
        #expect(second.itemCalls == 1)
        #expect(adapter.cachedItemCount == 1)
    }

    @Test("A diff of the old data source still running when the source is switched is discarded")
    func switchDuringDiff() async throws {
        let first = MutableDataSource(Self.mail)
        let second = MutableDataSource(makeSnapshot([("Other", ["q"])]))
        let adapter = ListAdapter(dataSource: first)
        let observer = RecordingObserver<MutableDataSource>()
        adapter.addObserver(observer)
        let gate = Gate()
        first.blockNextIdentifiers(on: gate)
        var started = first.identifiersStarted.makeAsyncIterator()
        adapter.invalidate()
        await started.next()
        adapter.setDataSource(second)
        gate.open()
        await adapter.waitUntilIdle()

        #expect(observer.updates.count == 1)
        let update = try #require(observer.updates.first)
        #expect(update.isDataSourceChange)
        #expect(update.oldSnapshot.isEmpty)
        #expect(update.newSnapshot == second.expectedSnapshot)
    }

    @Test("Switching away from a data source that never returns reads the new one at once")
    func switchFromStalledSource() async throws {
        let stalled = MutableDataSource(Self.mail)
        let second = MutableDataSource(makeSnapshot([("Other", ["q"])]))
        let adapter = ListAdapter(dataSource: stalled)
        let observer = RecordingObserver<MutableDataSource>()
        adapter.addObserver(observer)
        let gate = Gate()
        stalled.blockNextIdentifiers(on: gate)
        var started = stalled.identifiersStarted.makeAsyncIterator()
        adapter.invalidate()
        await started.next()
        adapter.setDataSource(second)
        // The old source stays stalled while the adapter goes idle; a guard against a hang (not
        // a time limit on the work) opens it after a minute, which fails the test.
        let guardTask = Task {
            try await Task.sleep(for: .seconds(60))
            Issue.record("the adapter waited for the stalled data source")
            gate.open()
        }
        await adapter.waitUntilIdle()
        guardTask.cancel()

        #expect(second.identifiersCalls == 1)
        #expect(adapter.snapshot == second.expectedSnapshot)
        #expect(observer.updates.count == 1)
        #expect(observer.updates.first?.isDataSourceChange == true)
        // The stalled call returning late changes nothing.
        gate.open()
        await adapter.invalidateAndWait()
        #expect(adapter.snapshot == second.expectedSnapshot)
        #expect(observer.updates.count == 2)
        #expect(stalled.identifiersCalls == 1)
    }

    @Test("Switching away from a data source that blocks its thread reads the new one at once")
    func switchFromBlockingSource() async throws {
        let blocking = ThreadBlockingDataSource(["a"])
        let second = ThreadBlockingDataSource(["q"], blocks: false)
        let adapter = ListAdapter(dataSource: blocking)
        adapter.invalidate()
        while !blocking.isBlocked { try await Task.sleep(for: .milliseconds(5)) }
        adapter.setDataSource(second)
        // A guard against a hang (not a time limit on the work): after a minute it unblocks the
        // old source's thread, which fails the test.
        let guardTask = Task {
            try await Task.sleep(for: .seconds(60))
            Issue.record("the new data source waited for the old one's thread")
            blocking.unblock()
        }
        await adapter.waitUntilIdle()
        guardTask.cancel()
        #expect(adapter.snapshot.identifiers == ["q"])
        blocking.unblock()
    }
}

/// A data source whose `identifiers()` blocks its thread (a synchronous read that hangs) until
/// ``unblock()``, unless made with `blocks: false`.
final class ThreadBlockingDataSource: ListDataSource {
    typealias ItemID = String
    typealias Summary = String
    typealias Item = String

    private let ids: [String]
    private let blocks: Bool
    private let released = DispatchSemaphore(value: 0)
    private let blocked = Mutex(false)

    init(_ ids: [String], blocks: Bool = true) {
        self.ids = ids
        self.blocks = blocks
    }

    /// Whether a call is blocked in `identifiers()`.
    var isBlocked: Bool { blocked.withLock { $0 } }

    /// Lets the blocked call return.
    func unblock() { released.signal() }

    func identifiers() async throws -> [String] {
        if blocks {
            blocked.withLock { $0 = true }
            released.wait()
        }
        return ids
    }

    func sectionTitle(for id: String) -> String? { "S" }
    func summary(for id: String) -> String? { nil }
    func item(for id: String) async throws -> String { id }
}
