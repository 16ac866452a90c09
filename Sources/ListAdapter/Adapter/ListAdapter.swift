import Synchronization

/// Turns a ``ListSource`` (a ``ListDataSource``, a main-actor model) or the snapshots an app
/// hands it (``apply(_:)``) into a stream of snapshots and the changes between them, and maps
/// index paths to identifiers and items: ISListViewAdapter in Swift concurrency.
///
/// ```swift
/// let adapter = ListAdapter(dataSource: messages)
/// let connector = ListConnector(adapter: adapter, renderer: tableRenderer)  // an observer
/// adapter.invalidate()   // or the data source, through the ListInvalidator it was attached with
/// connector.ready()      // once on screen: later updates animate as batches
/// for await update in adapter.updates() { record(update) }                  // async consumers
/// ```
///
/// On ``invalidate()`` the adapter reads the data source once (``ListSource/contents()``, on the
/// data source's own isolation: one hop to the main actor for a main-actor model), builds the new
/// ``snapshot`` and computes the ``ListChanges`` from the current one off the main actor (on a
/// serial queue of the adapter's own, not on the cooperative pool), then delivers a
/// ``ListAdapterUpdate`` to its observers on the main actor. The main actor never waits for the
/// diff, and no item is fetched: items are fetched one at a time by ``item(at:)``, through a
/// bounded cache. Only identifiers, titles and summaries are held.
///
/// ## When invalidations merge
///
/// One diff runs at a time. A request (``invalidate()``, ``ListInvalidator/invalidate()``,
/// ``apply(_:)``) made while no diff runs starts one at once; the requests made while a diff runs,
/// however many, are merged into the one diff that runs after it. A diff reads the data source
/// after every request it covers, so the latest state is always delivered and none is lost, but
/// the states in between are not: five edits invalidated while a diff runs become one update
/// (and one revision of a recorder). A main-actor data source is read when the main actor is
/// next free, so edits made in the same main-actor job as their invalidation are read together.
///
/// For one update per change, wait for each to be delivered before making the next:
/// `await adapter.invalidateAndWait()` (or ``applyAndWait(_:)``) after each change delivers an
/// update for each, in order; a `ChangeLogRecorder` then stores one revision for each.
///
/// When the data source throws, observers get a ``ListAdapterError`` and the adapter keeps its
/// last good snapshot. So it does, by default, when the data source repeats an identifier or a
/// section title (``DuplicatePolicy/refuse``); an adapter created with
/// ``DuplicatePolicy/keepFirst`` keeps the first occurrence of each, drops the rest, diffs what
/// remains and reports what it dropped on the update it delivers
/// (``ListAdapterUpdate/droppedDuplicates``).
@MainActor
public final class ListAdapter<DataSource: ListSource> {
    /// The identifier type of the data source.
    public typealias ItemID = DataSource.ItemID
    /// The summary type of the data source.
    public typealias Summary = DataSource.Summary
    /// The type that describes a section header's state.
    public typealias SectionSummary = DataSource.SectionSummary
    /// The item type of the data source.
    public typealias Item = DataSource.Item
    /// The adapter's snapshot type.
    public typealias Snapshot = ListSnapshot<ItemID, Summary, SectionSummary>
    /// The adapter's changes type.
    public typealias Changes = ListChanges<ItemID, Summary, SectionSummary>
    /// The adapter's update type.
    public typealias Update = ListAdapterUpdate<ItemID, Summary, SectionSummary>

    /// The data source the adapter reads.
    public private(set) var dataSource: DataSource
    /// What the adapter does when the data source repeats an identifier or a section title.
    public let duplicatePolicy: DuplicatePolicy
    /// What the adapter shows: the snapshot of the last update delivered (empty before the first).
    public private(set) var snapshot = Snapshot()
    /// The ``ListAdapterUpdate/generation`` of the last update delivered; 0 before the first.
    public private(set) var generation = 0
    /// The error of the last invalidation if it failed; `nil` once one succeeds.
    public private(set) var lastError: ListAdapterError?

    /// Invalidation requests, counted on the caller's thread; shared with the invalidators.
    let requests = InvalidationRequests()
    /// The request count the latest diff covers.
    private var handledRequests: UInt64 = 0
    /// The attachment of the current data source; a diff or item fetch of an older one is discarded.
    private(set) var attachment: UInt64 = 0
    /// Whether the next delivery is the transition to a data source set by `setDataSource(_:)`.
    private var isChangingDataSource = false
    /// The task running diffs, while there is work.
    private var diffTask: Task<Void, Never>?
    /// The snapshot of the latest ``apply(_:)`` and the request it counted, until a diff starts.
    private var appliedSnapshot: (snapshot: Snapshot, request: UInt64)?
    /// The diff being awaited, which `setDataSource(_:)` abandons.
    private var runningDiff: AbandonableDiff<DiffOutcome>?
    /// Where diffs run: a serial queue of the adapter's own, off the main actor and the pool.
    /// Replaced when a diff is abandoned: a data source that blocks its thread keeps the old one.
    private var diffExecutor = DiffExecutor(label: "ListAdapter.diff")

    /// The registered observers, in registration order.
    var observers: [ObserverEntry] = []
    /// The continuations of the `updates()` streams.
    var updateContinuations: [Int: AsyncStream<Update>.Continuation] = [:]
    /// The key of the next `updates()` stream.
    var nextContinuationKey = 0

    /// Fetched items, keyed by identifier and checked against their summary.
    var itemCache: ItemCache<ItemID, Summary, Item>
    /// Item fetches in flight, so that concurrent requests for one item share one fetch.
    var itemFetches: [LiteralKey<ItemID>: ItemFetch] = [:]

    /// Creates an adapter over `dataSource` and attaches it (``ListSource/attach(_:)``).
    ///
    /// The adapter starts empty: call ``invalidate()`` (or let the data source's invalidator do
    /// it) to load the data source's first snapshot.
    ///
    /// - Parameters:
    ///   - dataSource: what the adapter shows.
    ///   - itemCacheCapacity: the most fetched items kept in memory; 0 disables the cache.
    ///   - duplicatePolicy: what to do when the data source repeats an identifier or a section
    ///     title: refuse the contents and keep the last good snapshot (the default), or keep the
    ///     first occurrence of each and report the rest on the update (``DuplicatePolicy``).
    /// - Complexity: O(1), plus the data source's `attach(_:)`.
    public init(dataSource: DataSource, itemCacheCapacity: Int = 256, duplicatePolicy: DuplicatePolicy = .refuse) {
        precondition(itemCacheCapacity >= 0, "itemCacheCapacity cannot be negative (got \(itemCacheCapacity))")
        self.dataSource = dataSource
        self.duplicatePolicy = duplicatePolicy
        self.itemCache = ItemCache(capacity: itemCacheCapacity)
        attachDataSource()
    }

    deinit {
        // A diff still reading the data source is not needed any more.
        runningDiff?.abandon()
        // Streams end with their adapter, so that `for await` loops over them finish.
        for continuation in updateContinuations.values { continuation.finish() }
        // The data source's invalidator no longer belongs to an adapter.
        _ = requests.newAttachment()
    }

    /// Asks the adapter to re-read its data source and deliver what changed.
    ///
    /// Returns at once. The diff runs off the main actor and its update is delivered to observers
    /// on the main actor; if a diff is already running, one more runs after it, whatever the
    /// number of calls in between. Await ``invalidateAndWait()`` to know when it is delivered.
    ///
    /// - Complexity: O(1) here; the diff costs O(*n*) expected off the main actor, plus the data
    ///   source's calls, where *n* counts the identifiers before and after.
    public func invalidate() {
        requests.request()
        startIfNeeded()
    }

    /// Invalidates, then waits until the resulting update (or failure) has been delivered to
    /// observers and no more work is pending.
    ///
    /// Calling it after each change delivers one update per change, in order: the change is
    /// never merged with the next one (see "When invalidations merge").
    ///
    /// - Complexity: That of ``invalidate()``.
    public func invalidateAndWait() async {
        invalidate()
        await waitUntilIdle()
    }

    /// Makes `snapshot` what the adapter shows next, as a diffable data source's `apply` does: the
    /// changes from the current snapshot are computed off the main actor and delivered to the
    /// observers (and recorders) like those of an invalidation.
    ///
    /// Returns at once. An applied snapshot is a request like ``invalidate()`` and merges as one:
    /// the diff that covers it delivers the latest request's state, which is `snapshot` if no
    /// later ``apply(_:)`` or invalidation came before that diff started (a later invalidation
    /// makes the diff read the data source instead, a later snapshot replaces this one). The data
    /// source still fetches the items (``item(at:)``); ``SnapshotSource`` is a data source for
    /// adapters fed by snapshots only.
    ///
    /// A snapshot edited in place from the current one (``ListSnapshot/appendItems(_:toSection:)``
    /// and its kin) is not diffed: its changes come from its recorded edits
    /// (``ListSnapshot/changes(editedFrom:)``), the same as the diff's.
    ///
    /// - Complexity: O(1) here; the diff costs O(*n*) expected off the main actor, the changes
    ///   of a snapshot edited from the current one about what its edits touched.
    public func apply(_ snapshot: Snapshot) {
        (dataSource as? any AppliedSnapshotKeeper)?.keep(snapshot)
        appliedSnapshot = (snapshot, requests.request())
        startIfNeeded()
    }

    /// Applies `snapshot`, then waits until its update has been delivered to the observers and no
    /// more work is pending: called for each snapshot, it delivers one update per snapshot.
    ///
    /// - Complexity: That of ``apply(_:)``.
    public func applyAndWait(_ snapshot: Snapshot) async {
        apply(snapshot)
        await waitUntilIdle()
    }

    /// Waits until every invalidation requested so far, from the adapter or from an attached
    /// invalidator on any thread, has been delivered, and no diff runs.
    ///
    /// - Complexity: O(1) when idle; otherwise the time of the pending diffs.
    public func waitUntilIdle() async {
        startIfNeeded()
        while let task = diffTask {
            await task.value
            startIfNeeded()
        }
    }

    /// Whether a diff is running or waiting to run.
    ///
    /// - Complexity: O(1).
    public var isBusy: Bool { diffTask != nil || requests.count > handledRequests }

    /// Moves the adapter to `dataSource`: attaches it, detaches the old one's invalidator, drops
    /// the cached items and invalidates. Observers get the changes between the old data source's
    /// snapshot and the new one's, in an update whose ``ListAdapterUpdate/isDataSourceChange``
    /// is `true`. A diff of the old data source still running is abandoned: its task is
    /// cancelled and the new data source is read at once, on a thread of its own, without
    /// waiting for the old one to return (it may never, as a stalled network source, or one that
    /// blocks its thread).
    ///
    /// - Complexity: O(*c*), where *c* is the number of cached items, plus an invalidation.
    public func setDataSource(_ dataSource: DataSource) {
        if let runningDiff {
            runningDiff.abandon()
            diffExecutor = DiffExecutor(label: "ListAdapter.diff")
        }
        self.dataSource = dataSource
        itemCache.removeAll()
        itemFetches.removeAll()
        isChangingDataSource = true
        attachDataSource()
        invalidate()
    }

    /// Detaches the previous data source's invalidator and hands a new one to `dataSource`.
    private func attachDataSource() {
        attachment = requests.newAttachment()
        let invalidator = ListInvalidator(requests: requests, attachment: attachment) { [weak self] in
            Task { @MainActor [weak self] in
                guard let self else { return }
                self.requests.beginWake()
                self.startIfNeeded()
            }
        }
        dataSource.attach(invalidator)
    }

    /// Starts the diff task when there are requests it has not handled and it is not running.
    ///
    /// Diffs run one at a time until every request is handled. Only this loop changes
    /// `snapshot`, so each diff starts from the snapshot the previous one delivered. The task
    /// holds the adapter only while it starts or ends a diff, not while the data source is read:
    /// an adapter dropped meanwhile is deallocated (abandoning the diff), even while its data
    /// source stalls.
    private func startIfNeeded() {
        guard diffTask == nil, requests.count > handledRequests else { return }
        diffTask = Task { [weak self] in
            while let turn = self?.startDiff() {
                turn.outcome = await turn.diff.value()
                self?.endDiff(turn)
            }
        }
    }

    /// One diff: what it started from, and its outcome once awaited.
    private final class DiffTurn {
        let diff: AbandonableDiff<DiffOutcome>
        let attachment: UInt64
        var base: Snapshot?
        var outcome: DiffOutcome?

        init(diff: AbandonableDiff<DiffOutcome>, attachment: UInt64, base: Snapshot) {
            self.diff = diff
            self.attachment = attachment
            self.base = base
        }
    }

    /// Starts the next diff, or ends the task (`nil`) when every request is handled.
    private func startDiff() -> DiffTurn? {
        let requested = requests.count
        guard requested > handledRequests else {
            diffTask = nil
            return nil
        }
        // Read the count before the data source: a request counted after this line is handled
        // by the next turn of the loop.
        handledRequests = requested
        // An applied snapshot is the content when it is the latest request; a later invalidation
        // asks for the data source instead.
        let applied = appliedSnapshot.flatMap { $0.request == requested ? $0.snapshot : nil }
        appliedSnapshot = nil
        let source = dataSource
        let base = snapshot
        let policy = duplicatePolicy
        let diff = AbandonableDiff(on: diffExecutor) {
            await Self.computeUpdate(of: source, applied: applied, from: base, duplicatePolicy: policy)
        }
        runningDiff = diff
        return DiffTurn(diff: diff, attachment: attachment, base: base)
    }

    /// Delivers a diff's outcome, unless its data source was replaced meanwhile: then
    /// `setDataSource` abandoned it (no outcome) or, if it had returned already, requested a new
    /// one, and it is dropped.
    private func endDiff(_ turn: DiffTurn) {
        runningDiff = nil
        guard let base = turn.base else { return }
        let outcome = turn.outcome
        turn.base = nil
        turn.outcome = nil
        if let outcome, turn.attachment == attachment {
            switch outcome {
            case .success(let (newSnapshot, changes, dropped)):
                deliver(newSnapshot, changes: changes, from: base, droppedDuplicates: dropped)
            case .failure(let error):
                fail(error)
            }
        }
        // Free what this turn replaced (the previous snapshot) or dropped on the diff queue:
        // freeing a large list costs about as much as building it, O(n), and the main actor
        // must not wait for it.
        Self.release(consume base, consume outcome, on: diffExecutor)
    }

    /// Drops the last references the main actor holds to `snapshot` and `outcome` on `executor`,
    /// so that whatever they alone keep alive is freed there.
    private nonisolated static func release(
        _ snapshot: consuming Snapshot, _ outcome: consuming DiffOutcome?,
        on executor: DiffExecutor
    ) {
        // Moved into a box the task empties: a copy left here (a capture, a parameter not consumed)
        // is released when this function returns, possibly after the task ran, and would then be
        // the one that frees.
        let retired = RetiredValues((consume snapshot, consume outcome))
        Task.detached(executorPreference: executor) { retired.drop() }
    }

    /// Diffs `base` against `applied`, or else against `dataSource` read once under
    /// `duplicatePolicy`, off the main actor (on the task executor preferred by the caller: the
    /// adapter's `diffExecutor`).
    @concurrent
    private nonisolated static func computeUpdate(
        of dataSource: DataSource, applied: Snapshot?, from base: Snapshot, duplicatePolicy: DuplicatePolicy
    ) async -> DiffOutcome {
        let newSnapshot: Snapshot
        var dropped: [DroppedDuplicate<ItemID>] = []
        if let applied {
            newSnapshot = applied
        } else {
            switch await read(dataSource, duplicatePolicy: duplicatePolicy) {
            case .success(let read): (newSnapshot, dropped) = read
            case .failure(let error): return .failure(error)
            }
        }
        let changes = base.changesFollowingEdits(to: newSnapshot).classifyingUpdates(
            from: base, by: dataSource.updateKind)
        return .success((newSnapshot, changes, dropped))
    }

    /// Makes `newSnapshot` current and tells the observers and streams.
    private func deliver(
        _ newSnapshot: Snapshot, changes: Changes, from base: Snapshot, droppedDuplicates: [DroppedDuplicate<ItemID>]
    ) {
        generation += 1
        snapshot = newSnapshot
        lastError = nil
        let update = Update(
            generation: generation, oldSnapshot: base, newSnapshot: newSnapshot, changes: changes,
            isDataSourceChange: isChangingDataSource, droppedDuplicates: droppedDuplicates)
        isChangingDataSource = false
        dropStaleItems()
        // The streams of this delivery: one that an observer creates below starts with the next
        // update, as a stream does (its creator reads `snapshot`, this update's new snapshot).
        let streams = updateContinuations
        notifyObservers { $0.listAdapter(self, didUpdate: update) }
        for (key, continuation) in streams where updateContinuations[key] != nil { continuation.yield(update) }
    }

    /// Records `error` and tells the observers; the snapshot stays as it was.
    private func fail(_ error: ListAdapterError) {
        lastError = error
        notifyObservers { $0.listAdapter(self, didFail: error) }
    }
}

/// Values handed to another task, which frees them by emptying the box (``drop()``).
final class RetiredValues<Value: Sendable>: Sendable {
    private let slot: Mutex<Value?>

    init(_ value: consuming sending Value) {
        slot = Mutex(Optional(consume value))
    }

    /// Frees the values here, unless another reference keeps them.
    func drop() {
        let value = slot.withLock { $0.take() }
        _ = consume value
    }
}
