import Dispatch
import Synchronization

/// The log's single writer: one serial queue owns every write transaction of a ``ChangeLog``, and
/// the async API hands it work (STYLE.md: a serial owner for writes).
///
/// Group commit: requests that arrive while a transaction is being committed wait in
/// ``State/pending``; when the queue is free again it takes all of them into one transaction.
/// Each request keeps its own outcome (its revisions, or its own error such as a conflict),
/// and every caller resumes only after the commit returned, so each gets the durability of the
/// log's mode. A retention request runs alone in its own transaction.
final class LogWriter: Sendable {
    typealias AppendContinuation = CheckedContinuation<[AppendedRevision], any Error>
    typealias DropContinuation = CheckedContinuation<RetentionReport, any Error>

    private enum Job: Sendable {
        case append(entries: [ChangeLog.AppendEntry], expectedLatest: UInt64?, continuation: AppendContinuation)
        case drop(before: UInt64, continuation: DropContinuation)
    }

    private struct State {
        /// Requests waiting for the next transaction.
        var pending: [Job] = []
        /// Whether the queue is processing requests.
        var draining = false
        /// The latest revision as last stored by this writer; checked against the log before use.
        var latest: LatestRevision?
        /// How many write transactions committed, for tests of group commit.
        var commits = 0
    }

    private let store: LogStore
    private let queue: DispatchQueue
    private let state = Mutex(State())
    /// Called on the writer's queue with the latest revision after each committed append
    /// transaction, before its callers resume (subscriptions listen here). It must not block.
    private let didCommit: @Sendable (UInt64) -> Void

    init(store: LogStore, didCommit: @escaping @Sendable (UInt64) -> Void = { _ in }) {
        self.store = store
        self.queue = DispatchQueue(label: "ChangeLog.writer", qos: .userInitiated)
        self.didCommit = didCommit
    }

    /// The number of write transactions committed so far.
    var commitCount: Int { state.withLock { $0.commits } }

    /// Appends `entries` as consecutive revisions in one transaction, shared with other requests.
    func append(_ entries: [ChangeLog.AppendEntry], expectedLatest: UInt64?) async throws(ChangeLogError)
        -> [AppendedRevision]
    {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                submit(.append(entries: entries, expectedLatest: expectedLatest, continuation: continuation))
            }
        } catch {
            throw ChangeLogError.wrapping(error, path: store.path, during: "appending to")
        }
    }

    /// Removes the revisions before `revision`, in a transaction of its own.
    func dropRevisions(before revision: UInt64) async throws(ChangeLogError) -> RetentionReport {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                submit(.drop(before: revision, continuation: continuation))
            }
        } catch {
            throw ChangeLogError.wrapping(error, path: store.path, during: "dropping revisions from")
        }
    }

    private func submit(_ job: Job) {
        let start = state.withLock { state in
            state.pending.append(job)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        if start {
            queue.async { self.drain() }
        }
    }

    /// Runs on the queue: takes everything pending, processes it, and repeats until nothing is left.
    private func drain() {
        while true {
            let jobs = state.withLock { state in
                guard !state.pending.isEmpty else {
                    state.draining = false
                    return [Job]()
                }
                defer { state.pending = [] }
                return state.pending
            }
            if jobs.isEmpty { return }
            var appends:
                [(entries: [ChangeLog.AppendEntry], expectedLatest: UInt64?, continuation: AppendContinuation)] =
                    []
            for job in jobs {
                switch job {
                case .append(let entries, let expectedLatest, let continuation):
                    appends.append((entries, expectedLatest, continuation))
                case .drop(let revision, let continuation):
                    // Keep the order of requests: appends queued before the drop commit first.
                    if !appends.isEmpty {
                        commitAppends(appends)
                        appends = []
                    }
                    commitDrop(before: revision, continuation: continuation)
                }
            }
            if !appends.isEmpty {
                commitAppends(appends)
            }
        }
    }

    private func commitAppends(
        _ jobs: [(entries: [ChangeLog.AppendEntry], expectedLatest: UInt64?, continuation: AppendContinuation)]
    ) {
        let cached = state.withLock { $0.latest }
        var outcomes: [Result<[AppendedRevision], ChangeLogError>] = []
        do {
            let latest = try store.environment.write { transaction in
                // The body may run again after the map grew: start from scratch each time.
                outcomes = []
                var latest = try store.loadLatest(cached: cached, in: transaction)
                var nextChunkID = try store.nextChunkID(in: transaction)
                for job in jobs {
                    do {
                        let result = try store.append(
                            job.entries, expectedLatest: job.expectedLatest, onto: latest, nextChunkID: &nextChunkID,
                            in: transaction)
                        latest = result.latest
                        outcomes.append(.success(result.revisions))
                    } catch let error as ChangeLogError {
                        // Thrown before the job's first put: the transaction is untouched.
                        outcomes.append(.failure(error))
                    }
                }
                return latest
            }
            state.withLock { state in
                state.latest = latest
                state.commits += 1
            }
            if let revision = latest?.revision {
                didCommit(revision)
            }
            let resumptions = zip(jobs.map(\.continuation), outcomes)
            let resume: @Sendable () -> Void = {
                for (continuation, outcome) in resumptions {
                    continuation.resume(with: outcome.mapError { $0 as any Error })
                }
            }
            // Waking a caller costs a system call. When more requests already wait, let another
            // thread wake this transaction's callers while the writer starts the next one.
            if state.withLock({ !$0.pending.isEmpty }) {
                DispatchQueue.global(qos: .userInitiated).async(execute: resume)
            } else {
                resume()
            }
        } catch {
            let failure = ChangeLogError.wrapping(error, path: store.path, during: "appending to")
            state.withLock { $0.latest = nil }
            for job in jobs {
                job.continuation.resume(throwing: failure)
            }
        }
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
