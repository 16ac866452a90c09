import ListAdapter
import ListFormat

/// Records a `ListAdapter`'s history in a ``ChangeLog``: every update the adapter delivers
/// becomes one revision, appended exactly once and in delivery order, holding the update's new
/// snapshot and the changes the adapter computed.
///
/// ```swift
/// let recorder = ChangeLogRecorder(adapter: adapter, log: log) { update in
///     ["generation": String(update.generation)]
/// }
/// recorder.nextMeta = ["reason": "pull to refresh"]   // annotates the next update only
/// adapter.invalidate()
/// await adapter.waitUntilIdle()
/// try await recorder.waitUntilRecorded()
/// ```
///
/// The recorder is an observer of the adapter (held weakly by it, like every observer). Each
/// delivery is queued on the main actor, in order, and one task at a time appends what is
/// queued: the updates queued while an append is in flight go into the next transaction
/// together, each one its own revision. Appends run on the log's writer, never on the main actor.
///
/// ## Which changes are stored
///
/// The adapter's changes take its previous snapshot to its new one, so they are stored only
/// when the log's latest revision holds that previous snapshot. That is the case for every
/// update after the first one recorded, and for the first one when the log's latest snapshot is
/// the adapter's previous one (an empty log and an adapter's first update, which starts from
/// the empty snapshot). Otherwise (a log that already has revisions while the adapter starts
/// from empty, an adapter that already showed something when the recorder attached, another
/// writer that appended in between, or an earlier append that failed) the update's snapshot is
/// appended with changes the log computes from its latest snapshot
/// (``ChangeLog/append(_:meta:expectedLatest:)-(LogSnapshot,_,_)``), and its
/// ``Recording/storesAdapterChanges`` is `false`. Either way the log stays verifiable, and
/// ``ChangeLog/verify(_:progress:)`` checks the stored changes against the stored snapshots.
///
/// ## Identifier and summary types
///
/// The adapter's identifiers and summaries may be of any ``LogStringConvertible`` type (`String`,
/// the integer types, `UUID`, types of your own): they are stored as their
/// ``LogStringConvertible/logString``, converted off the main actor, and read back typed with
/// ``RevisionRecord/snapshot(as:summary:)``.
///
/// ## Duplicates the adapter dropped
///
/// An adapter created with `duplicatePolicy: .keepFirst` drops repeated titles and identifiers
/// and reports them (`ListAdapterUpdate.droppedDuplicates`). Their revision's meta records them
/// under `dropped-duplicates`, in the form `replay import --drop-duplicates` writes
/// (`InterchangeFormat.droppedDuplicatesKey` (ListFormat)), with positions in the data source's
/// contents as given. An annotation of your own under that key wins and is stored unchanged.
///
/// ## One revision per update
///
/// Every update is one revision, but the adapter merges the invalidations that arrive while it
/// diffs into one update (`ListAdapter`, "When invalidations merge"). For one revision per change,
/// await `adapter.invalidateAndWait()` after each change.
///
/// Durability: the log's; a revision is recorded when its append committed.
@MainActor
public final class ChangeLogRecorder<DataSource: ListSource>: ListAdapterObserver
where
    DataSource.ItemID: LogStringConvertible, DataSource.Summary: LogStringConvertible,
    DataSource.SectionSummary: LogStringConvertible
{
    /// The adapter's update type.
    public typealias Update = ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>

    /// One recorded update: the adapter generation it came from and the revision it became.
    public struct Recording: Hashable, Sendable {
        /// The update's generation (`ListAdapterUpdate.generation`): 1 for the adapter's first update.
        public var generation: Int
        /// The revision the update's snapshot was stored under.
        public var revision: UInt64
        /// When the revision was appended, in milliseconds since 1970-01-01T00:00:00Z (UTC).
        public var millisecondsSince1970: Int64
        /// Whether the stored changes are the adapter's; `false` when the log computed them
        /// because its latest snapshot was not the update's old snapshot.
        public var storesAdapterChanges: Bool

        /// Creates a recording.
        public init(generation: Int, revision: UInt64, millisecondsSince1970: Int64, storesAdapterChanges: Bool) {
            self.generation = generation
            self.revision = revision
            self.millisecondsSince1970 = millisecondsSince1970
            self.storesAdapterChanges = storesAdapterChanges
        }
    }

    /// The most updates appended in one transaction.
    static var maximumBatchCount: Int { 64 }

    /// The adapter whose updates are recorded.
    public let adapter: ListAdapter<DataSource>
    /// The log the updates are appended to.
    public let log: ChangeLog
    /// Computes the annotations of each update's revision, on the main actor, when the update is
    /// delivered; ``nextMeta`` is merged over them.
    public var meta: (@MainActor (Update) -> [String: String])?
    /// Annotations for the next update delivered, and only that one: set them before
    /// invalidating the adapter. They override the keys of ``meta``'s. An update already being
    /// computed when they are set takes them.
    public var nextMeta: [String: String] = [:]
    /// Called on the main actor with each update once its revision is committed, in order.
    public var onRecord: (@MainActor (Recording) -> Void)?

    /// Whether updates are recorded: `true` until ``stop()``.
    public private(set) var isRecording = true
    /// The number of updates appended to the log.
    public private(set) var recordedCount = 0
    /// The last update appended.
    public private(set) var lastRecording: Recording?
    /// The number of updates whose append failed.
    public private(set) var failedCount = 0
    /// The error of the last append if it failed; `nil` once one succeeds.
    public private(set) var lastError: ChangeLogError?

    /// One update waiting for its append, with its annotations.
    private struct Job: Sendable {
        var update: Update
        var meta: [String: String]
    }

    /// What an append of queued updates gave.
    private enum Outcome: Sendable {
        /// The revisions, in order; the first one's changes were computed by the log when
        /// `firstFromLog`.
        case appended([AppendedRevision], firstFromLog: Bool)
        case failed(ChangeLogError)
    }

    /// Updates delivered and not yet handed to an append, in delivery order.
    private var queue: [Job] = []
    /// The one task that appends the queue, while it is not empty.
    private var drainTask: Task<Void, Never>?
    /// The revision whose snapshot the next queued update starts from, when known.
    private var base: UInt64?
    /// Updates delivered since the recorder started, and those whose append finished.
    private var delivered = 0
    private var handled = 0
    /// Callers of `waitUntilRecorded()`, each waiting for `handled` to reach its target.
    private var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// The first append failure not yet thrown by `waitUntilRecorded()`.
    private var unreportedError: ChangeLogError?

    /// Starts recording every later update of `adapter` in `log`.
    ///
    /// - Parameters:
    ///   - adapter: the adapter to observe.
    ///   - log: the log to append to.
    ///   - meta: computes each update's annotations; `nil` for none.
    /// - Complexity: O(*k*), where *k* is the number of the adapter's observers.
    public init(
        adapter: ListAdapter<DataSource>, log: ChangeLog, meta: (@MainActor (Update) -> [String: String])? = nil
    ) {
        self.adapter = adapter
        self.log = log
        self.meta = meta
        adapter.addObserver(self)
    }

    /// The number of delivered updates whose append has not finished yet.
    public var pendingCount: Int { delivered - handled }

    /// Queues `update` for its append.
    public func listAdapter(
        _ adapter: ListAdapter<DataSource>,
        didUpdate update: ListAdapterUpdate<DataSource.ItemID, DataSource.Summary, DataSource.SectionSummary>
    ) {
        guard isRecording, adapter === self.adapter else { return }
        var annotations = meta?(update) ?? [:]
        annotations.merge(nextMeta) { _, next in next }
        nextMeta = [:]
        queue.append(Job(update: update, meta: annotations))
        delivered += 1
        if drainTask == nil {
            drainTask = Task { await self.drain() }
        }
    }

    /// Stops recording: later updates are not recorded. Updates delivered before are still
    /// appended; ``waitUntilRecorded()`` waits for them.
    ///
    /// - Complexity: O(*k*), where *k* is the number of the adapter's observers.
    public func stop() {
        isRecording = false
        adapter.removeObserver(self)
    }

    /// Waits until every update delivered so far has been appended (or failed to be).
    ///
    /// - Throws: ``ChangeLogError``: the first append failure that no earlier call has thrown.
    ///   ``lastError`` and ``failedCount`` tell about failures too.
    public func waitUntilRecorded() async throws(ChangeLogError) {
        let target = delivered
        if handled < target {
            await withCheckedContinuation { continuation in
                waiters.append((target, continuation))
            }
        }
        if let error = unreportedError {
            unreportedError = nil
            throw error
        }
    }

    /// Appends the queue, a batch at a time, until it is empty. Only one runs at a time, so
    /// revisions follow delivery order.
    private func drain() async {
        while !queue.isEmpty {
            let jobs = Array(queue.prefix(Self.maximumBatchCount))
            queue.removeFirst(jobs.count)
            let outcome = await Self.append(jobs, to: log, base: base)
            finish(jobs, outcome)
        }
        drainTask = nil
    }

    /// Appends `jobs` as consecutive revisions in one transaction. The first one's changes are
    /// the adapter's when the log's latest revision is `base`, or (with `base` unknown) when its
    /// snapshot is the first update's old snapshot; otherwise the log computes them. Runs off the
    /// main actor.
    private nonisolated static func append(_ jobs: [Job], to log: ChangeLog, base: UInt64?) async -> Outcome {
        do throws(ChangeLogError) {
            var expected = base
            if expected == nil {
                let latest = try log.latestRevision
                let latestSnapshot = latest == 0 ? LogSnapshot() : try log.snapshot(at: latest)
                if try latestSnapshot == jobs[0].update.oldSnapshot.logSnapshot() {
                    expected = latest
                }
            }
            var entries: [ChangeLog.AppendEntry] = []
            entries.reserveCapacity(jobs.count)
            for job in jobs {
                entries.append(
                    ChangeLog.AppendEntry(
                        try job.update.newSnapshot.logSnapshot(), changes: job.update.changes.logChanges(),
                        meta: annotations(of: job)))
            }
            if let expected {
                do {
                    return .appended(
                        try await log.append(contentsOf: entries, expectedLatest: expected), firstFromLog: false)
                } catch let conflict where conflict.code == .conflict {
                    // Another writer appended in between: the adapter's first changes no longer
                    // start from the latest revision.
                }
            }
            entries[0] = ChangeLog.AppendEntry(entries[0].snapshot, meta: entries[0].meta)
            return .appended(try await log.append(contentsOf: entries), firstFromLog: true)
        } catch {
            return .failed(error)
        }
    }

    /// `job`'s annotations, with the duplicates its update dropped under
    /// `InterchangeFormat.droppedDuplicatesKey` (ListFormat) unless an annotation has that key.
    private nonisolated static func annotations(of job: Job) -> [String: String] {
        let key = InterchangeFormat.droppedDuplicatesKey
        guard !job.update.droppedDuplicates.isEmpty, job.meta[key] == nil else { return job.meta }
        let dropped = job.update.droppedDuplicates.map { duplicate in
            let kind: DroppedDuplicate<String>.Kind
            switch duplicate.kind {
            case .section(let title, let itemCount): kind = .section(title: title, itemCount: itemCount)
            case .item(let id): kind = .item(id: id.logString)
            }
            return DroppedDuplicate(kind: kind, position: duplicate.position, firstPosition: duplicate.firstPosition)
        }
        var meta = job.meta
        meta[key] = InterchangeFormat.droppedDuplicatesValue(dropped)
        return meta
    }

    /// Records the outcome of `jobs` and wakes the callers waiting for them.
    private func finish(_ jobs: [Job], _ outcome: Outcome) {
        switch outcome {
        case .appended(let revisions, let firstFromLog):
            for (offset, (job, appended)) in zip(jobs, revisions).enumerated() {
                let recording = Recording(
                    generation: job.update.generation, revision: appended.revision,
                    millisecondsSince1970: appended.millisecondsSince1970,
                    storesAdapterChanges: offset > 0 || !firstFromLog)
                recordedCount += 1
                lastRecording = recording
                onRecord?(recording)
            }
            base = revisions.last?.revision
            lastError = nil
        case .failed(let error):
            failedCount += jobs.count
            lastError = error
            if unreportedError == nil {
                unreportedError = error
            }
            base = nil
        }
        handled += jobs.count
        let ready = waiters.filter { $0.target <= handled }
        waiters.removeAll { $0.target <= handled }
        for waiter in ready {
            waiter.continuation.resume()
        }
    }
}
