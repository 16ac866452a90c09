import Dispatch
import Synchronization
import Testing

@testable import ListAdapter

/// A data source of a million integer identifiers in a thousand sections that never holds an item:
/// items are made on request, and counted.
///
/// Version 0 lists `0..<count` in sections of 1,000. Version 1 changes 30% of it: in every
/// section the identifiers divisible by 10 leave, 100 new ones arrive at the end, the first
/// remaining identifier moves to the end, and the summaries of identifiers ending in 1 change.
///
/// When armed with a ``TickHold``, the data source parks the adapter's diff, on its last
/// `summary(for:)` call, until the main actor has ticked a number of times.
final class LargeDataSource: ListDataSource {
    typealias ItemID = Int
    typealias Summary = Int
    typealias Item = String

    static let sectionSize = 1_000
    static let newPerSection = 100

    let count: Int
    private let titles: [String]
    /// The identifiers of each version, made up front so that `identifiers()` returns at once and
    /// an invalidation's time is the adapter's own: building the snapshot and diffing it.
    private let versions: [[Int]]
    private let version = Mutex(0)
    /// The version the last `identifiers()` call served; titles and summaries answer from it.
    private let servedVersion = Mutex(0)
    private let itemCallCount = Atomic(0)
    /// The hold the next `summary(for:)` of the last identifier waits on, and whether the last
    /// hold was released by ticks (`true`) or gave up (`false`).
    private let hold = Mutex<(armed: (TickHold, ticks: Int)?, released: Bool?)>((nil, nil))

    init(count: Int) {
        self.count = count
        titles = (0..<(count / Self.sectionSize)).map { "Section \($0)" }
        var changed: [Int] = []
        changed.reserveCapacity(count + count / 10)
        for base in stride(from: 0, to: count, by: Self.sectionSize) {
            let kept = (base..<(base + Self.sectionSize)).filter { !$0.isMultiple(of: 10) }
            changed.append(contentsOf: kept.dropFirst())
            let firstNew = count + base / Self.sectionSize * Self.newPerSection
            changed.append(contentsOf: firstNew..<(firstNew + Self.newPerSection))
            changed.append(kept[0])
        }
        versions = [Array(0..<count), changed]
    }

    var itemCalls: Int { itemCallCount.load(ordering: .relaxed) }

    func advance() { version.withLock { $0 = min($0 + 1, versions.count - 1) } }

    /// Makes the next invalidation wait, inside its last `summary(for:)` call, until `hold` has
    /// seen `ticks` ticks of the main actor.
    func holdLastSummary(on hold: TickHold, ticks: Int) {
        self.hold.withLock { $0 = ((hold, ticks), nil) }
    }

    /// Whether the last hold ended because the main actor ticked; `nil` before one ended.
    var lastHoldReleased: Bool? { hold.withLock { $0.released } }

    func identifiers() async throws -> [Int] {
        let version = self.version.withLock { $0 }
        servedVersion.withLock { $0 = version }
        return versions[version]
    }

    func sectionTitle(for id: Int) -> String? {
        id < count ? titles[id / Self.sectionSize] : titles[(id - count) / Self.newPerSection]
    }

    func summary(for id: Int) -> Int? {
        let served = servedVersion.withLock { $0 }
        if id == versions[served].last, let (tickHold, ticks) = hold.withLock({ $0.armed }) {
            hold.withLock { $0.armed = nil }
            let released = tickHold.wait(forTicks: ticks)
            hold.withLock { $0.released = released }
        }
        guard !id.isMultiple(of: 3) else { return nil }  // immutable items
        return served > 0 && id % 10 == 1 ? 1 : 0
    }

    func item(for id: Int) async throws -> String {
        itemCallCount.add(1, ordering: .relaxed)
        return "item \(id)"
    }
}

/// Lets a thread other than the main actor's wait until the main actor has ticked a number of
/// times: the proof that the main actor ran meanwhile.
final class TickHold: Sendable {
    private let remaining = Mutex<Int?>(nil)
    private let semaphore = DispatchSemaphore(value: 0)

    /// Blocks the calling thread until ``tick()`` has been called `ticks` times.
    ///
    /// - Returns: `true`; `false` only if five minutes passed first, which means the main actor
    ///   was blocked: a safety net so that a regression fails instead of hanging.
    func wait(forTicks ticks: Int) -> Bool {
        remaining.withLock { $0 = ticks }
        return semaphore.wait(timeout: .now() + .seconds(300)) == .success
    }

    /// Counts one tick of the main actor towards a waiting thread.
    func tick() {
        let release = remaining.withLock { remaining -> Bool in
            guard let count = remaining else { return false }
            remaining = count > 1 ? count - 1 : nil
            return count == 1
        }
        if release { semaphore.signal() }
    }
}

/// A main-actor task that counts every millisecond or so, for as long as the main actor is free.
@MainActor
final class MainActorTicker {
    private(set) var ticks = 0
    let hold = TickHold()
    private var task: Task<Void, Never>?

    func start() {
        task = Task { @MainActor in
            while !Task.isCancelled {
                ticks += 1
                hold.tick()
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    func stop() { task?.cancel() }
}

@MainActor
@Suite("Large data sets")
struct LargeDataSetTests {
    /// Ticks the main actor must make while an invalidation is parked in the data source.
    static let ticksWhileDiffing = 20

    @Test("A million identifiers: no item is fetched by invalidation, and the main actor keeps running")
    func millionIdentifiers() async throws {
        let count = 1_000_000
        // Made off the main actor: it takes a while in a debug build, and other suites share it.
        let source = await Task.detached { LargeDataSource(count: count) }.value
        let adapter = ListAdapter(dataSource: source)
        let observer = RecordingObserver<LargeDataSource>()
        adapter.addObserver(observer)
        let ticker = MainActorTicker()
        var ticksAtDelivery: [Int] = []
        observer.onUpdate = { [unowned ticker] _ in ticksAtDelivery.append(ticker.ticks) }
        ticker.start()
        defer { ticker.stop() }

        // First invalidation: everything inserted. The data source parks the diff on its last
        // summary until the main actor has ticked: the main actor must keep running while a
        // million identifiers are read and grouped, whatever else the machine is doing. (Were the
        // diff on the main actor, the ticker could not tick and the hold would give up.)
        source.holdLastSummary(on: ticker.hold, ticks: Self.ticksWhileDiffing)
        let ticksBeforeFirst = ticker.ticks
        await adapter.invalidateAndWait()
        try #require(source.lastHoldReleased == true, "the main actor did not run while the adapter diffed")
        #expect(ticksAtDelivery.first.map { $0 - ticksBeforeFirst } ?? 0 >= Self.ticksWhileDiffing)
        let first = try #require(observer.updates.first)
        #expect(first.changes.insertedSections.count == count / LargeDataSource.sectionSize)
        #expect(adapter.snapshot.itemCount == count)
        #expect(adapter.numberOfSections == 1_000)
        #expect(adapter.numberOfItems(inSection: 999) == 1_000)
        #expect(adapter.title(ofSection: 7) == "Section 7")
        #expect(adapter.identifier(at: ItemPath(section: 123, item: 456)) == 123_456)
        #expect(source.itemCalls == 0)

        // Second invalidation: a real diff, a million items against a million, 30% changed.
        source.advance()
        source.holdLastSummary(on: ticker.hold, ticks: Self.ticksWhileDiffing)
        let ticksBeforeSecond = ticker.ticks
        await adapter.invalidateAndWait()
        #expect(source.lastHoldReleased == true)
        #expect(ticksAtDelivery.last.map { $0 - ticksBeforeSecond } ?? 0 >= Self.ticksWhileDiffing)
        let second = try #require(observer.updates.last)
        #expect(observer.updates.count == 2)
        #expect(second.changes.insertedSections.isEmpty && second.changes.deletedSections.isEmpty)
        #expect(second.changes.deletedItems.count == count / 10)
        #expect(second.changes.insertedItems.count == count / 10)
        #expect(second.changes.movedItems.count == count / LargeDataSource.sectionSize)
        // Identifiers ending in 1 changed summary, except the immutable ones (multiples of 3).
        #expect(second.changes.updatedItems.count == (0..<count).count { $0 % 10 == 1 && !$0.isMultiple(of: 3) })
        #expect(adapter.snapshot.itemCount == count)
        #expect(source.itemCalls == 0)

        // Items are fetched only when asked for, one at a time.
        let path = ItemPath(section: 2, item: 5)
        let id = try #require(adapter.identifier(at: path))
        #expect(try await adapter.item(at: path) == "item \(id)")
        #expect(adapter.cachedItem(at: path) == "item \(id)")
        #expect(source.itemCalls == 1)
    }
}
