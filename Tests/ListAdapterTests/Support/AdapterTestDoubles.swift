import Synchronization
import Testing

@testable import ListAdapter

// Test doubles shared by the adapter, connector and soak tests.

/// What `MutableDataSource.item(for:)` returns: the identifier and the summary it had when fetched.
struct FetchedItem: Hashable, Sendable {
    let id: String
    let summary: String?
}

/// An error a data source throws on request.
struct DataSourceFailure: Error, Hashable {
    let reason: String
}

/// Opens once; everything waiting on it then resumes, and later waits return at once.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A data source whose state is a `StringSnapshot` the test sets, counting its calls, and
/// failing, returning a duplicate or blocking on request.
///
/// It answers consistently, as ListDataSource asks: `sectionTitle(for:)` and `summary(for:)`
/// answer from the state that the last `identifiers()` call served, even if the test has set a
/// newer one since.
final class MutableDataSource: ListDataSource {
    typealias ItemID = String
    typealias Summary = String
    typealias SectionSummary = String
    typealias Item = FetchedItem

    private struct State {
        var snapshot = StringSnapshot()
        var served = StringSnapshot()
        var identifiersCalls = 0
        var itemCalls = 0
        var failure: DataSourceFailure?
        var duplicate: String?
        var identifiersGate: Gate?
        var itemGate: Gate?
        var invalidator: ListInvalidator?
    }

    private let state = Mutex(State())
    /// Yields each time `identifiers()` starts.
    let identifiersStarted: AsyncStream<Void>
    private let identifiersStartedContinuation: AsyncStream<Void>.Continuation

    init(_ snapshot: StringSnapshot = StringSnapshot()) {
        (identifiersStarted, identifiersStartedContinuation) = AsyncStream.makeStream(of: Void.self)
        state.withLock { $0.snapshot = snapshot }
    }

    /// Replaces the state; the adapter sees it on its next invalidation.
    func set(_ snapshot: StringSnapshot) { state.withLock { $0.snapshot = snapshot } }
    /// Makes `identifiers()` throw `failure` until cleared with `nil`.
    func fail(with failure: DataSourceFailure?) { state.withLock { $0.failure = failure } }
    /// Makes `identifiers()` return `id` a second time, at the end, until cleared with `nil`.
    func duplicate(_ id: String?) { state.withLock { $0.duplicate = id } }
    /// Makes the next `identifiers()` call wait for `gate` after reading the state.
    func blockNextIdentifiers(on gate: Gate) { state.withLock { $0.identifiersGate = gate } }
    /// Makes every `item(for:)` call wait for `gate` until cleared with `nil`.
    func blockItems(on gate: Gate?) { state.withLock { $0.itemGate = gate } }

    var identifiersCalls: Int { state.withLock { $0.identifiersCalls } }
    var itemCalls: Int { state.withLock { $0.itemCalls } }
    var invalidator: ListInvalidator? { state.withLock { $0.invalidator } }

    /// The snapshot an adapter builds from this state: empty sections cannot come from a flat
    /// identifier list, so they are left out.
    var expectedSnapshot: StringSnapshot {
        try! StringSnapshot(sections: state.withLock { $0.snapshot }.sections.filter { !$0.items.isEmpty })
    }

    func identifiers() async throws -> [String] {
        let (ids, failure, gate) = state.withLock { state in
            state.identifiersCalls += 1
            defer { state.identifiersGate = nil }
            state.served = state.snapshot
            var ids = state.snapshot.identifiers
            if let duplicate = state.duplicate { ids.append(duplicate) }
            return (ids, state.failure, state.identifiersGate)
        }
        identifiersStartedContinuation.yield()
        if let gate { await gate.wait() }
        if let failure { throw failure }
        return ids
    }

    func sectionTitle(for id: String) -> String? {
        state.withLock { state in
            guard let path = state.served.path(of: id) else { return nil }
            let title = state.served.sections[path.section].title
            return title.isEmpty ? nil : title  // exercises "nil means the "" section"
        }
    }

    func summary(for id: String) -> String? {
        state.withLock { state in state.served.path(of: id).flatMap { state.served.item(at: $0)?.summary } }
    }

    func sectionSummary(forTitle title: String) -> String? {
        state.withLock { state in
            state.served.sectionOffset(titled: title).flatMap { state.served.sections[$0].summary }
        }
    }

    func item(for id: String) async throws -> FetchedItem {
        let (summary, gate) = state.withLock { state in
            state.itemCalls += 1
            return (state.snapshot.path(of: id).flatMap { state.snapshot.item(at: $0)?.summary }, state.itemGate)
        }
        if let gate { await gate.wait() }
        if id.hasPrefix("broken") { throw DataSourceFailure(reason: "no item \(id)") }
        return FetchedItem(id: id, summary: summary)
    }

    func attach(_ invalidator: ListInvalidator) {
        state.withLock { $0.invalidator = invalidator }
    }
}

/// An observer that keeps every update and failure it gets.
@MainActor
final class RecordingObserver<DataSource: ListDataSource>: ListAdapterObserver {
    var updates: [ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>] = []
    var failures: [ListAdapterError] = []
    var onUpdate: ((ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>) -> Void)?

    func listAdapter(
        _ adapter: ListAdapter<DataSource>,
        didUpdate update: ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>
    ) {
        updates.append(update)
        onUpdate?(update)
    }

    func listAdapter(_ adapter: ListAdapter<DataSource>, didFail error: ListAdapterError) {
        failures.append(error)
    }
}

/// Builds a snapshot from `(title, ["id" or "id=summary"])` pairs.
func makeSnapshot(_ sections: [(String, [String])]) -> StringSnapshot {
    try! StringSnapshot(
        sections: sections.map { title, items in
            .init(
                title: title,
                items: items.map { item in
                    let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                    return .init(id: parts[0], summary: parts.count > 1 ? parts[1] : nil)
                })
        })
}
