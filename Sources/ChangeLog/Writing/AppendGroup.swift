/// An append request, as the writer holds it.
struct AppendJob: Sendable {
    /// What the request's caller resumes with: its revisions, or its own error.
    typealias Outcome = Result<[AppendedRevision], ChangeLogError>

    var entries: [ChangeLog.AppendEntry]
    var expectedLatest: UInt64?
    var continuation: CheckedContinuation<Outcome, Never>
    /// The entries' changes, computed by the caller.
    var changesInAdvance: ChangesInAdvance?
    /// Asked once per entry while the entries are prepared: true abandons the request.
    var abandonWhen: (@Sendable () -> Bool)?
}

/// The appends of one transaction, each prepared as the writer takes it
/// (``LogStore/prepareAppend(_:expectedLatest:changesInAdvance:abandonWhen:after:)``), in order,
/// each after the end the requests before it leave: a request that fails leaves the end where
/// it was.
///
/// Held by the writer's state between steps (``LogWriterState``), and by the writer's queue while
/// it prepares or writes it.
struct AppendGroup: Sendable {
    private let store: LogStore
    /// The end of the log the group was prepared after; `nil` when unknown (then nothing is
    /// prepared before the transaction).
    let start: LogEnd?
    /// The end of the log after the group's requests, as prepared.
    private(set) var end: LogEnd?
    private(set) var jobs: [AppendJob] = []
    /// The prepared requests, parallel to ``jobs``, or each one's own error.
    private var prepared: [Result<PreparedAppend, ChangeLogError>] = []

    /// An empty group, to be prepared after `start`.
    init(store: LogStore, after start: LogEnd?) {
        self.store = store
        self.start = start
        self.end = start
    }

    /// Adds `job`, and prepares it when the end it follows is known.
    mutating func add(_ job: AppendJob) {
        jobs.append(job)
        guard let end else { return }
        let result = Result { () throws(ChangeLogError) in
            try store.prepareAppend(
                job.entries, expectedLatest: job.expectedLatest, changesInAdvance: job.changesInAdvance,
                abandonWhen: job.abandonWhen, after: end)
        }
        if case .success(let done) = result {
            self.end = done.end
        }
        prepared.append(result)
        // The caller's diffs of entries the writer has prepared are of no more use.
        job.changesInAdvance?.abandon()
    }

    /// The group as one append to be stored in one step (``LogStorage/appendInOneStep(_:)``),
    /// with each request's outcome and the end after it, when it was prepared after a known end
    /// whose record this process put, and puts something.
    func oneStep() -> (append: OneStepAppend, outcomes: [AppendJob.Outcome], end: LogEnd)? {
        guard let start, let end, prepared.count == jobs.count else { return nil }
        let afterRecord = start.latest?.record
        guard start.latest == nil || afterRecord != nil else { return nil }
        var append = OneStepAppend(
            chunks: [], records: [], usesCompression: false, afterRevision: start.latest?.revision ?? 0,
            afterRecord: afterRecord, nextChunkID: start.nextChunkID)
        var outcomes: [AppendJob.Outcome] = []
        outcomes.reserveCapacity(prepared.count)
        for result in prepared {
            switch result {
            case .success(let done):
                append.chunks += done.chunks
                append.records += done.records
                append.usesCompression = append.usesCompression || done.usesCompression
                outcomes.append(.success(done.revisions))
            case .failure(let error):
                outcomes.append(.failure(error))
            }
        }
        guard !append.records.isEmpty, end.latest?.revision == append.records.last?.revision else { return nil }
        return (append, outcomes, end)
    }

    /// Puts the group in `transaction`, whose log ends at `actual`: the prepared bytes when the
    /// group was prepared after that same end, otherwise the group prepared again after it (the
    /// log moved: another process appended, or the writer did not know where it ended).
    /// Returns the end after the group and each request's outcome.
    ///
    /// Only the engine's failures are thrown: a request's own failure happened before its first put,
    /// so it left the transaction untouched.
    func put<T: LogWriteTransaction & ~Copyable>(in transaction: borrowing T, endingAt actual: LogEnd) throws -> (
        end: LogEnd, outcomes: [AppendJob.Outcome]
    ) {
        guard let start, let end, start.isSame(as: actual) else {
            var again = AppendGroup(store: store, after: actual)
            for job in jobs {
                again.add(job)
            }
            return try again.put(in: transaction, endingAt: actual)
        }
        var outcomes: [AppendJob.Outcome] = []
        outcomes.reserveCapacity(prepared.count)
        for result in prepared {
            switch result {
            case .success(let append):
                try store.put(append, in: transaction)
                outcomes.append(.success(append.revisions))
            case .failure(let error):
                outcomes.append(.failure(error))
            }
        }
        return (end, outcomes)
    }
}
