import Dispatch
import Synchronization

/// The log's single writer: one serial queue owns every write transaction of a ``ChangeLog``, and
/// the async API hands it work, so a transaction never crosses threads.
///
/// The writer's state is a value, ``LogWriterState``, guarded by a lock: callers submit requests
/// to it from their own threads, and the writer's queue asks it for the next step whenever it
/// is free, performs it, and reports the outcome; the group being gathered lives in it between
/// steps. Its documentation states the group commit policy: which requests
/// share a transaction, how each is prepared before the transaction begins, and the one wait
/// for a group to fill, also before the transaction.
///
/// The writer's queue is the bottleneck of concurrent appends, so callers do what they can on
/// their own threads: their entries' changes, the first one's from the snapshot it is expected
/// to follow (``ChangesInAdvance``).
///
/// Each request keeps its own outcome (its revisions, or its own error such as a conflict). The
/// writer resumes every caller of a transaction itself, none through another, once the commit
/// returned, so each gets the durability of the log's mode. A retention request runs alone in
/// its own transaction.
final class LogWriter: Sendable {
    typealias DropContinuation = CheckedContinuation<RetentionReport, any Error>
    typealias State = LogWriterState<AppendJob, DropJob, AppendGroup>

    /// A retention request.
    struct DropJob: Sendable {
        var before: UInt64
        var continuation: DropContinuation
    }

    private let store: LogStore
    /// Whether the log was opened for reading only: every request fails.
    private let readOnly: Bool
    private let queue: DispatchQueue
    private let state = Mutex(State())
    /// Wakes the writer from a ``LogWriterState/Step/wait(until:)`` when a request arrives. A
    /// signal that comes after the wait timed out stays counted and ends the next wait early;
    /// the writer then asks its state again, which is why every wake-up is only a hint.
    private let wakeUp = DispatchSemaphore(value: 0)
    /// Called on the writer's queue with the latest revision after each committed append
    /// transaction, before its callers resume (subscriptions listen here). It must not block.
    private let didCommit: @Sendable (UInt64) -> Void

    init(store: LogStore, readOnly: Bool = false, didCommit: @escaping @Sendable (UInt64) -> Void = { _ in }) {
        self.store = store
        self.readOnly = readOnly
        self.queue = DispatchQueue(label: "ChangeLog.writer", qos: .userInitiated)
        self.didCommit = didCommit
    }

    /// The number of write transactions committed so far.
    var commitCount: Int { state.withLock { $0.memory.commits } }

    /// Appends `entries` as consecutive revisions in one transaction, shared with other requests.
    ///
    /// `@concurrent`: the diffs computed here run on the global executor, never on the caller's
    /// actor (a main-actor caller's main thread stays free).
    @concurrent
    func append(
        _ entries: [ChangeLog.AppendEntry], expectedLatest: UInt64?, abandonWhen: (@Sendable () -> Bool)? = nil
    ) async throws(ChangeLogError) -> [AppendedRevision] {
        try checkWritable(toDo: "append to")
        let outcome = await withCheckedContinuation { continuation in
            // Reserve the place after the current tail, then diff while the writer works on
            // the requests before this one and cuts this one's chunks.
            submit(
                AppendJob(
                    entries: entries, expectedLatest: expectedLatest, continuation: continuation,
                    abandonWhen: abandonWhen))?
                .compute()
        }
        return try outcome.get()
    }

    /// Removes the revisions before `revision`, in a transaction of its own.
    func dropRevisions(before revision: UInt64) async throws(ChangeLogError) -> RetentionReport {
        try checkWritable(toDo: "drop revisions from")
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let action = state.withLock { $0.submit(drop: DropJob(before: revision, continuation: continuation)) }
                perform(action)
            }
        } catch {
            throw ChangeLogError.wrapping(error, path: store.path, during: "dropping revisions from")
        }
    }

    /// Throws ``ChangeLogError/Code/readOnly`` when the log was opened for reading only;
    /// `action` is what the caller asked, as in "cannot append to the log".
    private func checkWritable(toDo action: String) throws(ChangeLogError) {
        guard readOnly else { return }
        throw ChangeLogError(
            code: .readOnly,
            message: "cannot \(action) the log at \(store.path): it was opened for reading only (Options.readOnly)",
            path: store.path)
    }

    /// Queues an append request; returns the slots of its entries' changes when the caller
    /// has some to compute, from the tail the request was queued after.
    private func submit(_ job: AppendJob) -> ChangesInAdvance? {
        var job = job
        let computesChanges = job.entries.contains { $0.changes == nil }
        let (changes, action) = state.withLock { state in
            if computesChanges, !job.entries.isEmpty {
                job.changesInAdvance = ChangesInAdvance(entries: job.entries, tail: state.tail)
            }
            let action = state.submit(job, entryCount: job.entries.count, endingAt: job.entries.last?.snapshot)
            return (job.changesInAdvance, action)
        }
        perform(action)
        return changes
    }

    /// Performs a submission's action, on the submitting caller's thread.
    private func perform(_ action: State.SubmitAction) {
        switch action {
        case .none:
            break
        case .startWriter:
            queue.async { self.drain() }
        case .wakeWriter:
            wakeUp.signal()
        }
    }

    /// Runs on the queue: performs the state's steps until it says to stop.
    private func drain() {
        var step = state.withLock { $0.nextStep(now: Self.now()) }
        while true {
            switch consume step {
            case .startGroup(let jobs, let end):
                var group = AppendGroup(store: store, after: end ?? readEnd())
                for job in jobs {
                    group.add(job)
                }
                step = state.withLock { [group] in $0.prepared(group, now: Self.now()) }
            case .prepare(let jobs, var group):
                for job in jobs {
                    group.add(job)
                }
                step = state.withLock { [group] in $0.prepared(group, now: Self.now()) }
            case .write(let group):
                write(group)
                step = state.withLock { $0.nextStep(now: Self.now()) }
            case .drop(let job):
                drop(job)
                step = state.withLock { $0.nextStep(now: Self.now()) }
            case .wait(let deadline):
                _ = wakeUp.wait(timeout: DispatchTime(uptimeNanoseconds: deadline))
                step = state.withLock { $0.nextStep(now: Self.now()) }
            case .stop:
                return
            }
        }
    }

    /// The end of the log, read outside the write transaction so that a group can be prepared
    /// before it; `nil` when it cannot be read (the transaction then reads it, and reports why).
    private func readEnd() -> LogEnd? {
        try? store.storage.read { transaction in try store.end(cached: nil, in: transaction) }
    }

    /// Writes `group` in one transaction, then resumes each caller with its outcome: in one step
    /// where the engine offers it and the log still ends where the group was prepared after
    /// (``LogStorage/appendInOneStep(_:)``), otherwise in a write transaction that reads the
    /// log's end and prepares the group again when the log moved.
    private func write(_ group: AppendGroup) {
        var outcomes: [AppendJob.Outcome] = []
        var built: UInt64 = 0
        do {
            let end: LogEnd
            let oneStep = store.storage.appendsInOneStep ? group.oneStep() : nil
            var stored = false
            if let oneStep {
                built = Self.now()
                stored = try store.storage.appendInOneStep(oneStep.append)
            }
            if stored, let oneStep {
                (end, outcomes) = (oneStep.end, oneStep.outcomes)
            } else {
                end = try store.write(appending: true) { transaction in
                    // The body may run again (LMDB's, after the map grew): start from scratch each time.
                    let actual = try store.end(cached: group.start?.latest, in: transaction)
                    // A one-step append found not committed may have committed since (a request
                    // delayed on its way): the log then ends with its last record, byte for byte,
                    // and the group is not appended again.
                    if let oneStep, try Self.logEnds(with: oneStep.append.records.last, at: actual, in: transaction) {
                        outcomes = oneStep.outcomes
                        built = Self.now()
                        return oneStep.end
                    }
                    let written = try group.put(in: transaction, endingAt: actual)
                    outcomes = written.outcomes
                    built = Self.now()
                    return written.end
                }
            }
            let committed = Self.now()
            state.withLock { $0.committedAppends(end: end, commitNanoseconds: committed - built) }
            if let revision = end.latest?.revision {
                didCommit(revision)
            }
            keepWithinBudget()
            resume(group.jobs, with: outcomes)
        } catch {
            let failure = ChangeLogError.wrapping(error, path: store.path, during: "appending to")
            state.withLock { $0.failedAppends() }
            resume(group.jobs, with: group.jobs.map { _ in .failure(failure) })
        }
    }

    /// Whether the log, ending at `end` in `transaction`, ends with `record`: its latest revision
    /// is the record's, holding the same bytes.
    private static func logEnds<T: LogReadTransaction & ~Copyable>(
        with record: (revision: UInt64, bytes: [UInt8])?, at end: LogEnd, in transaction: borrowing T
    ) throws -> Bool {
        guard let record, end.latest?.revision == record.revision else { return false }
        return try transaction.withRecord(at: record.revision) { stored in
            stored.map { $0.elementsEqual(record.bytes) } ?? false
        }
    }

    /// Resumes the callers of a transaction, `jobs`, each with its outcome. The callers still
    /// diffing their entries stop first (``ChangesInAdvance/abandon()``): a caller's task goes on
    /// only once its diffs return.
    ///
    /// The writer resumes every caller itself, in one job it hands to the global executor; a lone
    /// caller it resumes from its queue. Resuming a caller wakes a thread of the executor: from
    /// the writer's queue that is a system call for each caller (and, where the thread's
    /// processor is idle, an interprocessor interrupt), which the writer would pay before it
    /// could take the next requests. From a thread of the executor, the callers queue behind one
    /// another and its threads take them without being woken again.
    private func resume(_ jobs: [AppendJob], with outcomes: [AppendJob.Outcome]) {
        for job in jobs {
            job.changesInAdvance?.abandon()
        }
        let resumptions = Array(zip(jobs.map(\.continuation), outcomes))
        guard resumptions.count > 1 else {
            for (continuation, outcome) in resumptions {
                continuation.resume(returning: outcome)
            }
            return
        }
        Task.detached {
            for (continuation, outcome) in resumptions {
                continuation.resume(returning: outcome)
            }
        }
    }

    /// Drops the oldest revisions when the engine's size budget says so
    /// (``LogStorage/revisionToKeepFrom()``), in a transaction of its own. The appends before it
    /// committed whatever happens here: a drop that fails is tried again after the next commit.
    private func keepWithinBudget() {
        guard let target = store.storage.revisionToKeepFrom() else { return }
        _ = try? store.write(appending: false) { transaction in
            try store.dropRevisions(before: target, in: transaction)
        }
    }

    /// Runs a drop in a transaction of its own, then resumes its caller.
    private func drop(_ job: DropJob) {
        do {
            let report = try store.write(appending: false) { transaction in
                try store.dropRevisions(before: job.before, in: transaction)
            }
            state.withLock { $0.committedDrop() }
            job.continuation.resume(returning: report)
        } catch {
            state.withLock { $0.failedDrop() }
            job.continuation.resume(
                throwing: ChangeLogError.wrapping(error, path: store.path, during: "dropping revisions from"))
        }
    }

    /// The writer's clock, in nanoseconds.
    private static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}
