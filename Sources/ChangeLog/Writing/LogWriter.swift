import Dispatch
import Synchronization

/// The log's single writer: one serial queue owns every write transaction of a ``ChangeLog``, and
/// the async API hands it work (STYLE.md: a serial owner for writes).
///
/// Group commit: requests that arrive while a transaction is being committed wait in
/// ``State/pending``; when the queue is free again it takes all of them into one transaction.
/// Requests that arrive while that transaction is being built join it too, up to its commit.
/// When the previous transaction served several callers, the writer also waits a moment (a
/// quarter of the previous commit at most) until as many requests have joined: callers resumed
/// together come back together, and one flush for all of them costs less than one each
/// (PostgreSQL's `commit_delay` rests on the same idea). A lone appender never waits.
///
/// The writer's queue is the bottleneck of concurrent appends, so callers do what they can on
/// their own threads: their entries' changes, the first one's from the snapshot it is expected
/// to follow (``ChangesInAdvance``).
///
/// Each request keeps its own outcome (its revisions, or its own error such as a conflict),
/// and every caller resumes only after the commit returned, so each gets the durability of the
/// log's mode. A retention request runs alone in its own transaction.
final class LogWriter: Sendable {
    typealias AppendContinuation = CheckedContinuation<Resumption, Never>

    /// What an append request's caller resumes with: its own outcome, and the callers of the
    /// same transaction it resumes in turn (see ``resumeCallers(of:outcomes:)``).
    struct Resumption: Sendable {
        typealias Outcome = Result<[AppendedRevision], ChangeLogError>
        /// A caller of the transaction and its outcome.
        typealias Caller = (continuation: AppendContinuation, outcome: Outcome)

        var outcome: Outcome
        var others: [Caller] = []

        /// Resumes the other callers, then returns this caller's revisions or error.
        func finish() throws(ChangeLogError) -> [AppendedRevision] {
            for other in others {
                other.continuation.resume(returning: Resumption(outcome: other.outcome))
            }
            return try outcome.get()
        }
    }
    typealias DropContinuation = CheckedContinuation<RetentionReport, any Error>

    /// An append request.
    private struct AppendJob: Sendable {
        var entries: [ChangeLog.AppendEntry]
        var expectedLatest: UInt64?
        var continuation: AppendContinuation
        /// The entries' changes, computed by the caller.
        var changesInAdvance: ChangesInAdvance?
        /// Asked once per entry while the entries are prepared: true abandons the request.
        var abandonWhen: (@Sendable () -> Bool)?
    }

    private enum Job: Sendable {
        case append(AppendJob)
        case drop(before: UInt64, continuation: DropContinuation)
    }

    private struct State {
        /// Requests waiting for the next transaction.
        var pending: [Job] = []
        /// Whether the queue is processing requests.
        var draining = false
        /// The latest revision as last stored by this writer; checked against the log before use.
        var latest: LatestRevision?
        /// The snapshot the next append request will follow if every request before it
        /// succeeds: the last entry of the last request submitted, or the latest stored
        /// snapshot when the writer is idle; `nil` when unknown.
        var tail: LogSnapshot?
        /// How many write transactions committed, for tests of group commit.
        var commits = 0
        /// How many requests the last append transaction served.
        var lastGroupSize = 0
        /// How long the last append transaction's commit (its flush) took.
        var lastCommitNanoseconds: UInt64 = 0
        /// Whether the writer waits on ``LogWriter/arrival`` for the next request.
        var awaitingArrival = false
    }

    private let store: LogStore
    /// Whether the log was opened for reading only: every request fails.
    private let readOnly: Bool
    private let queue: DispatchQueue
    private let state = Mutex(State())
    /// Signalled by ``submit(_:)`` when the writer waits for a request (``State/awaitingArrival``).
    private let arrival = DispatchSemaphore(value: 0)
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
    var commitCount: Int { state.withLock { $0.commits } }

    /// Appends `entries` as consecutive revisions in one transaction, shared with other requests.
    ///
    /// `@concurrent`: the diffs computed here run on the global executor, never on the caller's
    /// actor (a main-actor caller's main thread stays free).
    @concurrent
    func append(
        _ entries: [ChangeLog.AppendEntry], expectedLatest: UInt64?, abandonWhen: (@Sendable () -> Bool)? = nil
    ) async throws(ChangeLogError) -> [AppendedRevision] {
        try checkWritable(toDo: "append to")
        let resumption = await withCheckedContinuation { continuation in
            let job = AppendJob(
                entries: entries, expectedLatest: expectedLatest, continuation: continuation, abandonWhen: abandonWhen)
            // Reserve the place after the current tail, then diff while the writer works on
            // the requests before this one and cuts this one's chunks.
            submit(job)?.compute()
        }
        return try resumption.finish()
    }

    /// Removes the revisions before `revision`, in a transaction of its own.
    func dropRevisions(before revision: UInt64) async throws(ChangeLogError) -> RetentionReport {
        try checkWritable(toDo: "drop revisions from")
        do {
            return try await withCheckedThrowingContinuation { continuation in
                enqueue(.drop(before: revision, continuation: continuation))
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
    /// has some to compute.
    private func submit(_ job: AppendJob) -> ChangesInAdvance? {
        var job = job
        let computesChanges = job.entries.contains { $0.changes == nil }
        return enqueue { state in
            if !job.entries.isEmpty {
                if computesChanges {
                    job.changesInAdvance = ChangesInAdvance(entries: job.entries, tail: state.tail)
                }
                state.tail = job.entries.last?.snapshot
            }
            return (.append(job), job.changesInAdvance)
        }
    }

    private func enqueue(_ job: Job) {
        enqueue { _ in (job, ()) }
    }

    /// Adds the job `make` builds under the lock, waking or starting the writer.
    private func enqueue<R>(_ make: (inout State) -> (Job, R)) -> R {
        let (start, wake, result) = state.withLock { state in
            let (job, result) = make(&state)
            state.pending.append(job)
            let wake = state.awaitingArrival
            state.awaitingArrival = false
            guard !state.draining else { return (false, wake, result) }
            state.draining = true
            return (true, wake, result)
        }
        if wake {
            arrival.signal()
        }
        if start {
            queue.async { self.drain() }
        }
        return result
    }

    /// Waits until a request is pending or `deadline` passes; returns whether one is pending.
    private func awaitArrival(until deadline: DispatchTime) -> Bool {
        let waits = state.withLock { state in
            guard state.pending.isEmpty else { return false }
            state.awaitingArrival = true
            return true
        }
        guard waits else { return true }
        if arrival.wait(timeout: deadline) == .timedOut {
            let signalled = state.withLock { state in
                defer { state.awaitingArrival = false }
                return !state.awaitingArrival
            }
            // A request arrived between the timeout and the lock: take back its signal.
            if signalled {
                arrival.wait()
            }
        }
        return state.withLock { !$0.pending.isEmpty }
    }

    /// Runs on the queue: takes the requests pending, in order, commits them, and repeats until
    /// nothing is left.
    private func drain() {
        while true {
            switch takeNext() {
            case nil:
                // The callers of a group come back together: wait a moment for them rather than
                // give the queue up, which the next request would have to wake again.
                if let deadline = groupWaitDeadline(), awaitArrival(until: deadline) { continue }
                if stopDraining() { return }
            case .appends(let appends):
                commitAppends(appends)
            case .drop(let revision, let continuation):
                commitDrop(before: revision, continuation: continuation)
            }
        }
    }

    private enum Work {
        case appends([AppendJob])
        case drop(before: UInt64, continuation: DropContinuation)
    }

    /// The next unit of work: the leading run of pending appends, or a pending drop; `nil` when
    /// nothing is pending.
    private func takeNext() -> Work? {
        state.withLock { state -> Work? in
            guard let first = state.pending.first else { return nil }
            if case .drop(let revision, let continuation) = first {
                state.pending.removeFirst()
                return .drop(before: revision, continuation: continuation)
            }
            return .appends(Self.takeLeadingAppends(from: &state.pending, limit: .max))
        }
    }

    /// Stops draining unless a request arrived; then the tail is the latest stored snapshot.
    private func stopDraining() -> Bool {
        state.withLock { state in
            guard state.pending.isEmpty else { return false }
            state.draining = false
            state.tail = state.latest?.stored.snapshot
            return true
        }
    }

    /// How long to wait for the callers of the last transaction, when it served several: a
    /// quarter of its commit, from now. `nil` after a transaction of one request.
    private func groupWaitDeadline() -> DispatchTime? {
        let (size, commit) = state.withLock { ($0.lastGroupSize, $0.lastCommitNanoseconds) }
        guard size > 1 else { return nil }
        return DispatchTime(
            uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds + min(commit / 4, Self.longestGroupWait))
    }

    /// Removes and returns the appends at the front of `pending`, up to the first drop, taking
    /// requests while their entries stay within `limit` (at least one request).
    private static func takeLeadingAppends(from pending: inout [Job], limit: Int) -> [AppendJob] {
        var taken: [AppendJob] = []
        var entries = 0
        for job in pending {
            guard case .append(let append) = job else { break }
            if !taken.isEmpty, entries + append.entries.count > limit { break }
            taken.append(append)
            entries += append.entries.count
        }
        pending.removeFirst(taken.count)
        return taken
    }

    /// The appends pending at the front of the queue that fit in `room` entries (empty when
    /// none is pending), or `nil` when the transaction is full or the next request does not
    /// fit (a drop, or a batch too large).
    private func takeJoiningAppends(room: Int) -> [AppendJob]? {
        guard room > 0 else { return nil }
        return state.withLock { state -> [AppendJob]? in
            guard let first = state.pending.first else { return [] }
            guard case .append(let append) = first, append.entries.count <= room else { return nil }
            return Self.takeLeadingAppends(from: &state.pending, limit: room)
        }
    }

    /// Appends that arrive while a transaction is being built join it, up to this many entries
    /// in all.
    private static let joiningEntriesLimit = 256
    /// The longest the writer waits for the previous transaction's callers to be back.
    private static let longestGroupWait: UInt64 = 500_000

    private func commitAppends(_ initialJobs: [AppendJob]) {
        let (cached, previousGroupSize) = state.withLock { ($0.latest, $0.lastGroupSize) }
        let waitDeadline = groupWaitDeadline()
        var jobs = initialJobs
        var outcomes: [Resumption.Outcome] = []
        var built: UInt64 = 0
        do {
            let latest = try store.environment.write(reservingSpace: true) { transaction in
                // The body may run again after the map grew: start from scratch each time.
                outcomes = []
                var latest = try store.loadLatest(cached: cached, in: transaction)
                var nextChunkID = try store.nextChunkID(in: transaction)
                var entries = 0
                var index = 0
                while true {
                    while index < jobs.count {
                        let job = jobs[index]
                        index += 1
                        entries += job.entries.count
                        do {
                            let result = try store.append(
                                job.entries, expectedLatest: job.expectedLatest, changesInAdvance: job.changesInAdvance,
                                abandonWhen: job.abandonWhen, onto: latest, nextChunkID: &nextChunkID,
                                in: transaction)
                            latest = result.latest
                            outcomes.append(.success(result.revisions))
                        } catch let error as ChangeLogError {
                            // Thrown before the job's first put: the transaction is untouched.
                            outcomes.append(.failure(error))
                        }
                    }
                    guard let joining = takeJoiningAppends(room: Self.joiningEntriesLimit - entries) else { break }
                    if joining.isEmpty {
                        // Several callers resumed together last time: give them a moment to be back.
                        guard jobs.count < previousGroupSize, let waitDeadline, awaitArrival(until: waitDeadline)
                        else { break }
                        continue
                    }
                    jobs.append(contentsOf: joining)
                }
                built = DispatchTime.now().uptimeNanoseconds
                return latest
            }
            let committed = DispatchTime.now().uptimeNanoseconds
            state.withLock { state in
                state.latest = latest
                state.commits += 1
                state.lastGroupSize = jobs.count
                state.lastCommitNanoseconds = committed - built
            }
            if let revision = latest?.revision {
                didCommit(revision)
            }
            resumeCallers(of: jobs, outcomes: outcomes)
        } catch {
            let failure = ChangeLogError.wrapping(error, path: store.path, during: "appending to")
            state.withLock { state in
                state.latest = nil
                state.lastGroupSize = 0
            }
            resumeCallers(of: jobs, outcomes: jobs.map { _ in .failure(failure) })
        }
    }

    /// Resumes the callers of a transaction, `jobs`, with their `outcomes`: the first one, which
    /// resumes the others before it returns (``Resumption/finish()``). The callers still diffing
    /// their entries stop first (``ChangesInAdvance/abandon()``): the first one resumes the
    /// others only once its diffs return.
    ///
    /// Resuming a caller wakes a thread of the global executor. From the writer's queue that
    /// is a system call for each caller, and where the thread's processor is idle, an
    /// interprocessor interrupt: about 30 µs each on a 2-core virtual machine, which the writer
    /// spent before it could take the next requests. From a thread of the executor itself,
    /// the callers queue behind one another and the executor's threads take them without
    /// being woken again.
    private func resumeCallers(of jobs: [AppendJob], outcomes: [Resumption.Outcome]) {
        for job in jobs {
            job.changesInAdvance?.abandon()
        }
        let callers: [Resumption.Caller] = Array(zip(jobs.map(\.continuation), outcomes))
        guard let first = callers.first else { return }
        first.continuation.resume(returning: Resumption(outcome: first.outcome, others: Array(callers.dropFirst())))
    }

    private func commitDrop(before revision: UInt64, continuation: DropContinuation) {
        do {
            let report = try store.environment.write { transaction in
                try store.dropRevisions(before: revision, in: transaction)
            }
            state.withLock { $0.commits += 1 }
            continuation.resume(returning: report)
        } catch {
            continuation.resume(
                throwing: ChangeLogError.wrapping(error, path: store.path, during: "dropping revisions from"))
        }
    }
}
