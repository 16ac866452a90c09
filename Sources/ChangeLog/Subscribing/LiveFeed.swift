import Synchronization

/// What a ``LiveFeed`` gives its members: a revision's full record (``RecordFeed``) or its
/// changes alone (``ChangesFeed``).
package protocol LiveFeedElement: Sendable {
    /// The revision number.
    var revision: UInt64 { get }
}

extension RevisionRecord: LiveFeedElement {}
extension RevisionChanges: LiveFeedElement {}

/// The feed of full records: the one of ``ChangeLog/subscribe(from:batchSize:)`` and of a
/// server's full event streams.
package typealias RecordFeed = LiveFeed<RevisionRecord>

/// The feed of changes alone, which reads no snapshot chunk: the one of
/// ``ChangeLog/subscribeChanges(from:batchSize:)`` and of a server's changes-only event streams.
package typealias ChangesFeed = LiveFeed<RevisionChanges>

/// The live revisions of one ``ChangeLog`` instance, read and decoded once and given to every
/// follower: the subscriptions of ``ChangeLog/subscribe(from:batchSize:)`` and the event
/// streams of a `LogServer` alike. Like GRDB's `SharedValueObservation`, however many follow,
/// each new revision costs one read transaction and one decoding per instance.
///
/// A log instance has two feeds, one per ``Element``: full records (``RecordFeed``) and changes
/// alone (``ChangesFeed``), each decoding a revision once for its members. Followers that need
/// no snapshot follow the second, so while none needs one, no live snapshot is decoded at all;
/// each feed runs only while it has members.
///
/// The feed runs only while it has members: the first join starts its reading task, the last
/// leave stops it (synchronously unregistering its listener, so the log's watcher stops with
/// it), and the next join starts a new one. The task is detached: it reads and decodes on the
/// cooperative pool, never on a follower's actor, then hands each record to every member's
/// ``Member/receive`` without waiting for any of them. A read that fails because the engine
/// cannot be reached is tried again (``ReadRetry``) while the members wait. A member that
/// cannot take a revision (its buffer is full) leaves; what it does then is its own business:
/// a subscription reads the log itself from where it was, a server stream closes. Any other
/// read error (or a transient one that lasts) stops the feed and ends every member with it.
///
/// ## No gap and no duplicate
///
/// A follower first reads what is stored by itself, from its own cursor, as fast as it takes
/// the records; then it hands over to the feed. This is the one argument that the handover
/// loses nothing and repeats nothing, for every follower (``follow(from:as:sendingStored:then:)``
/// and the subscriptions, ``LogSubscription`` and ``ChangesSubscription``, all hand over through
/// ``join(_:_:latestStored:)``):
///
/// 1. The follower reads stored revisions until a read transaction finds none after the last
///    one it has, L. It then asks to join with `after` L, giving the latest stored revision
///    seen by that transaction (which is L, or less when it starts past the end).
/// 2. The join is decided under the feed's lock, atomically with the feed's publications. Let
///    P be the last revision the feed has published.
///    - Feed stopped: the join starts a new run whose task reads from min(L, latest)+1. The
///      run's listener is registered before the task's first read transaction begins, so a
///      revision committed before that transaction is read by it, and one committed after it
///      is announced to the listener (by this instance's writer, or by the watcher, which the
///      registration started and which reads the log after every file event and poll): the
///      task reads it on waking. Nothing committed after L escapes the task.
///    - Running, P ≤ L: the member is added. The task publishes consecutive revisions, P+1
///      next; each publication pushes to the members present when it is made, and skips a
///      member's revisions up to its `after`, so the member receives exactly L+1, L+2, … once.
///    - Running, P > L: not joined (``JoinResult/behind(published:)``). Revisions L+1…P are
///      committed (the feed read them), so the follower's next read transaction, which begins
///      after this answer and so after the feed read P, holds them: it reads them and asks
///      again with a larger L. Each retry follows the feed's progress, and the feed's reads and
///      the follower's reach the same latest revision, so the retries end.
/// 3. Revisions are numbered without gaps and read by consecutive keys, by both the feed and
///    the follower, so in-order, gap-free delivery is what reading from a cursor gives; a
///    revision missing under a cursor (dropped by retention meanwhile) is an error, never
///    skipped. A publication that does not follow the previous one stops the feed with an
///    error instead of delivering a gap.
/// 4. A member that leaves and comes back (a subscription that fell behind) joins under a new
///    identity with its new L: a late removal of the old one cannot remove the new one.
///
/// The state machine (``StateMachine``) holds the feed's state and returns what to do; this
/// class does it, outside the lock.
package final class LiveFeed<Element: LiveFeedElement>: Sendable {
    let store: LogStore
    private let notifier: CommitNotifier
    private let state = Mutex(StateMachine())
    private let memberIDs = Atomic<UInt64>(0)
    private let publications = Atomic<Int>(0)
    /// How each revision is decoded: a fresh copy for each run.
    let decoding: any RevisionDecoding<Element>
    /// The most revisions one read transaction of the feed's task reads.
    static var batchSize: Int { 64 }

    /// A stopped feed of `store`, woken by `notifier`, that decodes each revision by `decoding`.
    init(store: LogStore, notifier: CommitNotifier, decoding: some RevisionDecoding<Element>) {
        self.store = store
        self.notifier = notifier
        self.decoding = decoding
    }

    /// Whether the feed's task runs (it has members).
    package var isRunning: Bool { state.withLock { $0.published != nil } }
    /// The number of members the feed pushes to.
    package var memberCount: Int { state.withLock { $0.members.count } }
    /// The most recently started reading task; it ends soon after the feed stops.
    package var lastTask: Task<Void, Never>? { state.withLock { $0.lastTask } }
    /// The number of revisions the feed has read and given to its members, over all its runs.
    package var publicationCount: Int { publications.load(ordering: .relaxed) }

    /// A new member identity, for one membership.
    package func makeMemberID() -> MemberID {
        memberIDs.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// The outcome of a join.
    package enum JoinResult: Equatable, Sendable {
        /// The feed pushes every later revision to the member.
        case joined
        /// The feed has already pushed revisions up to `published`; the follower must read
        /// those from the log before it joins.
        case behind(published: UInt64)
    }

    /// Joins `member` as `id`, starting the feed when it was stopped (step 2 of the argument
    /// above).
    ///
    /// - Parameter latestStored: a revision known to be stored, read before the call: a
    ///   stopped feed reads the log after the earlier of it and the member's `after`.
    package func join(_ id: MemberID, _ member: Member, latestStored: UInt64) -> JoinResult {
        switch state.withLock({ $0.join(id, member, latestStored: latestStored) }) {
        case .joined:
            return .joined
        case .behind(let published):
            return .behind(published: published)
        case .start(let generation, let start):
            // Registered before the task's first read: step 2 of the argument.
            let listener = CommitListener(notifier: notifier)
            // On the engine's own threads where its reads wait on the network.
            let task = Task.detached(executorPreference: store.storage.readExecutor) { [self] in
                await run(generation: generation, from: start, listener: listener.id)
            }
            if !state.withLock({ $0.install(task, listener: listener, generation: generation) }) {
                task.cancel()
                listener.unregister()
            }
            return .joined
        }
    }

    /// Removes member `id` (nothing when it never joined or has left), stopping the feed when it
    /// was the last.
    package func leave(_ id: MemberID) {
        guard let run = state.withLock({ $0.leave(id) }) else { return }
        stop(run)
    }

    private func stop(_ run: Run) {
        run.task.cancel()
        // Ends the task's wait at once, and stops the watcher when nothing else listens.
        run.listener?.unregister()
    }

    /// Reads the log from `start` on and publishes each revision, until the feed stops or a
    /// read fails. Runs on the cooperative pool (a detached task), whoever its members are, or on
    /// the engine's own threads (``LogStorage/readExecutor``).
    private func run(generation: UInt64, from start: UInt64, listener: CommitNotifier.ListenerID) async {
        await run(generation: generation, from: start, listener: listener, decoding: decoding)
    }

    /// ``run(generation:from:listener:)`` with the feed's decoding opened.
    private func run<Decoding: RevisionDecoding<Element>>(
        generation: UInt64, from start: UInt64, listener: CommitNotifier.ListenerID, decoding: Decoding
    ) async {
        var cursor = RevisionCursor(store: store, next: start, batchSize: Self.batchSize, decoding: decoding)
        var lastNotified: UInt64 = 0
        var retry = ReadRetry()
        while !Task.isCancelled {
            let batch: RevisionCursor<Decoding>.Batch
            do {
                batch = try cursor.read(upTo: nil)
            } catch {
                if await retry.shouldRetry(after: error) { continue }
                fail(generation: generation, error)
                return
            }
            for record in batch.records {
                guard publish(record, generation: generation) else { return }
            }
            if let failure = batch.failure {
                // The cursor is past the records published: a retry reads on from there.
                if await retry.shouldRetry(after: failure) { continue }
                fail(generation: generation, failure)
                return
            }
            retry.succeeded()
            guard batch.records.isEmpty else { continue }
            guard !cursor.isExhausted else { return }
            // Nothing stored after the cursor: wait for a revision after both the cursor's
            // predecessor and the last announcement (one the read did not confirm must not
            // wake this wait again).
            guard let notified = await notifier.wait(listener, after: Swift.max(cursor.next - 1, lastNotified))
            else { return }
            lastNotified = notified
        }
    }

    /// Gives `record` to every member that does not have it, removing those that leave;
    /// `false` when the task of `generation` should stop.
    func publish(_ record: Element, generation: UInt64) -> Bool {
        switch state.withLock({ $0.publish(record.revision, generation: generation) }) {
        case .stale:
            return false
        case .gap(let expected, let members):
            let error = ChangeLogError(
                code: .malformedRecord,
                message: "the live feed of the log at \(store.path) read revision \(record.revision) "
                    + "after \(expected - 1)",
                revision: record.revision, path: store.path)
            for member in members.values { member.end(error) }
            return false
        case .push(let members):
            publications.add(1, ordering: .relaxed)
            var leaving: [MemberID] = []
            for (id, member) in members where member.after < record.revision {
                if !member.receive(record) { leaving.append(id) }
            }
            for id in leaving { leave(id) }
            return true
        }
    }

    /// Stops the feed of `generation` and ends every member with `error`.
    private func fail(generation: UInt64, _ error: ChangeLogError) {
        let (members, run) = state.withLock { $0.fail(generation: generation) }
        if let run { stop(run) }
        for member in members.values { member.end(error) }
    }
}
