import Testing

@testable import ListAdapter

/// ISListViewAdapter's soak test, in Swift: a long seeded stream of random states and
/// invalidations drives an adapter, and connectors feed every update into strict validators that
/// refuse what `UITableView` would refuse. After every batch each validator must show exactly the
/// adapter's snapshot.
@MainActor
@Suite("Adapter soak")
struct AdapterSoakTests {
    /// A failure found by the per-update check, with enough context to replay it from the seed.
    struct Mismatch: CustomStringConvertible {
        let generation: Int
        let what: String
        var description: String { "generation \(generation): \(what)" }
    }

    @Test(
        "Random invalidations keep strict validators in step with the adapter after every batch",
        arguments: [0x5EED_0001, 0x5EED_0002] as [UInt64])
    func soak(seed: UInt64) async throws {
        let steps = 4_000
        var rng = SeededGenerator(seed: seed)
        let sources = [MutableDataSource(), MutableDataSource()]
        var active = 0
        var state = RandomSnapshots.snapshot(using: &rng)
        sources[active].set(state)
        let adapter = ListAdapter(dataSource: sources[active], itemCacheCapacity: 8)

        // FORMAT.md's rules, and UIKit's with the updates of moved items deferred as a UIKit
        // renderer must: both must accept every batch.
        let formatConnector = ListConnector(
            adapter: adapter, renderer: StrictListView<String, String, String>(strictness: .format))
        let uiKitConnector = ListConnector(adapter: adapter, renderer: UIKitStyleRenderer())

        // Registered after the connectors, so it runs once both have applied the update.
        let checker = RecordingObserver<MutableDataSource>()
        var mismatches: [Mismatch] = []
        checker.onUpdate = { [unowned adapter, unowned formatConnector, unowned uiKitConnector] update in
            let expected = adapter.snapshot
            let views = [
                ("format view", formatConnector.renderer),
                ("UIKit view", uiKitConnector.renderer.view),
            ]
            for (name, view) in views {
                if view.snapshot != expected {
                    mismatches.append(Mismatch(generation: update.generation, what: "\(name) differs from the adapter"))
                }
                let rows = (0..<view.numberOfSections).map(view.numberOfRows(inSection:))
                let adapterRows = (0..<adapter.numberOfSections).map(adapter.numberOfItems(inSection:))
                if view.numberOfSections != adapter.numberOfSections || rows != adapterRows {
                    mismatches.append(Mismatch(generation: update.generation, what: "\(name) counts differ"))
                }
            }
            for applied in [formatConnector.snapshot, uiKitConnector.snapshot] where applied != expected {
                mismatches.append(Mismatch(generation: update.generation, what: "a connector lags the adapter"))
            }
            if (try? update.oldSnapshot.applying(update.changes)) != update.newSnapshot {
                mismatches.append(Mismatch(generation: update.generation, what: "apply(old, changes) != new"))
            }
        }
        adapter.addObserver(checker)

        var detachedInvalidations: [Task<Void, Never>] = []
        var failuresInjected = 0
        var switches = 0
        for step in 0..<steps {
            if step == 10 {
                formatConnector.ready()
                uiKitConnector.ready()
            }
            state =
                Int.random(in: 0..<50, using: &rng) == 0
                ? RandomSnapshots.snapshot(using: &rng) : RandomSnapshots.successor(of: state, using: &rng)
            sources[active].set(state)

            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<40:
                adapter.invalidate()  // not awaited: coalesces with the next steps
            case 40..<60:
                let invalidator = try #require(sources[active].invalidator)
                detachedInvalidations.append(Task.detached { invalidator.invalidate() })
            case 60..<85:
                await adapter.invalidateAndWait()
            case 85..<96:
                // Fetch what a visible cell would, at a path of the renderer.
                let sections = uiKitConnector.numberOfSections
                if sections > 0 {
                    let section = Int.random(in: 0..<sections, using: &rng)
                    let rows = uiKitConnector.numberOfItems(inSection: section)
                    if rows > 0 {
                        let path = ItemPath(section: section, item: Int.random(in: 0..<rows, using: &rng))
                        let id = uiKitConnector.identifier(at: path)
                        let item = try await uiKitConnector.item(at: path)
                        #expect(item == nil || item?.id == id)
                    }
                }
                adapter.invalidate()
            case 96..<98:
                active = 1 - active
                sources[active].set(state)
                adapter.setDataSource(sources[active])
                switches += 1
            default:
                sources[active].fail(with: DataSourceFailure(reason: "step \(step)"))
                await adapter.invalidateAndWait()
                sources[active].fail(with: nil)
                failuresInjected += 1
            }
            #expect(adapter.cachedItemCount <= 8)
        }
        for task in detachedInvalidations { await task.value }
        await adapter.waitUntilIdle()

        #expect(mismatches.isEmpty, "first: \(mismatches.prefix(3))")
        #expect(adapter.snapshot == sources[active].expectedSnapshot)
        #expect(formatConnector.renderer.snapshot == adapter.snapshot)
        #expect(uiKitConnector.renderer.view.snapshot == adapter.snapshot)
        #expect(formatConnector.rendererFailureCount == 0, "\(String(describing: formatConnector.lastError))")
        #expect(uiKitConnector.rendererFailureCount == 0, "\(String(describing: uiKitConnector.lastError))")
        // An injected failure fails the diff it triggers, and the one already running if that one
        // read the data source after the failure was set.
        #expect((failuresInjected...(2 * failuresInjected)).contains(checker.failures.count))
        #expect(checker.updates.map(\.generation) == Array(1...adapter.generation))
        // Coalescing: fewer diffs than invalidations, yet a few hundred batches checked.
        #expect(checker.updates.count < steps)
        #expect(uiKitConnector.renderer.view.batchCount > 300)
        #expect(switches > 0)
        #expect(failuresInjected > 0)
    }
}
