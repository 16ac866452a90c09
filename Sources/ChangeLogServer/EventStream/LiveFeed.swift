import ChangeLog
import Hummingbird
import Synchronization

/// The live revisions of a log, read once and pushed to every event stream that follows it.
///
/// One feed serves the `/api/subscribe` streams of one router. A stream first sends the stored
/// revisions it asked for by reading the log itself, as fast as its client takes them
/// (``follow(from:variant:as:into:)``), then joins the feed. From then on the feed's one
/// subscription to the log reads each new revision once, encodes its event once per variant
/// that some member wants, and pushes that same buffer into every member's
/// ``SubscriberBuffer`` without waiting (a member that falls too far behind is closed; the
/// others are unaffected). So the cost of a live revision grows with the number of streams only
/// by one push each.
///
/// The feed runs only while it has members: the first join starts its reading task, the last
/// leave cancels it, and the next join starts a new one. A read error ends every member's
/// stream with a comment saying why, and stops the feed.
///
/// A stream's handover from its own reading to the feed leaves no gap and no duplicate: it joins
/// only when it has sent every revision the feed has published (``StateMachine/join(_:_:latestStored:)``),
/// atomically with the feed's publications, and otherwise reads the ones it misses and tries
/// again.
final class LiveFeed: Sendable {
    /// The log the feed reads.
    let log: ChangeLog
    private let state = Mutex(StateMachine())
    private let memberIDs = Atomic<UInt64>(0)

    /// Creates a stopped feed of `log`.
    init(log: ChangeLog) {
        self.log = log
    }

    /// Whether the feed's task runs (it has members).
    var isRunning: Bool { state.withLock { $0.published != nil } }
    /// The number of streams the feed pushes to.
    var memberCount: Int { state.withLock { $0.members.count } }
    /// The most recently started reading task; it ends soon after the feed stops.
    var lastTask: Task<Void, Never>? { state.withLock { $0.lastTask } }

    /// A new member identity, for one stream.
    func makeMemberID() -> MemberID {
        memberIDs.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// The outcome of a join.
    enum JoinResult: Equatable {
        /// The feed pushes every later revision into the member's buffer.
        case joined
        /// The feed has already pushed revisions up to `published`; the member must send those
        /// from the log before it joins.
        case behind(published: UInt64)
    }

    /// Joins member `id`, starting the feed when it was stopped.
    ///
    /// - Parameters:
    ///   - after: the last revision the member has sent (0 when none); it receives only later ones.
    ///   - latestStored: a revision known to be stored, read before the call: a stopped feed
    ///     reads the log after the earlier of it and `after`.
    func join(
        _ id: MemberID, buffer: SubscriberBuffer, variant: EventVariant, after: UInt64, latestStored: UInt64
    ) -> JoinResult {
        let member = Member(buffer: buffer, variant: variant, after: after)
        switch state.withLock({ $0.join(id, member, latestStored: latestStored) }) {
        case .joined:
            return .joined
        case .behind(let published):
            return .behind(published: published)
        case .start(let generation, let start):
            let task = Task.detached { [self] in await run(generation: generation, from: start) }
            if !state.withLock({ $0.install(task, generation: generation) }) {
                task.cancel()
            }
            return .joined
        }
    }

    /// Removes member `id` (nothing when it never joined or has left), stopping the feed when it
    /// was the last.
    func leave(_ id: MemberID) {
        state.withLock { $0.leave(id) }?.cancel()
    }

    /// Reads the log from `start` on and publishes each revision, until cancelled or a read fails.
    private func run(generation: UInt64, from start: UInt64) async {
        do {
            for try await event in log.subscribe(from: start) {
                guard case .revision(let record) = event else { continue }
                guard publish(record, generation: generation) else { return }
            }
        } catch {
            end(state.withLock { $0.fail(generation: generation) }, comment: ServerSentEvents.readFailure(error))
        }
    }

    /// Pushes `record`'s event into every member that has not sent it, encoding it once per
    /// variant; `false` when the task of `generation` should stop.
    func publish(_ record: RevisionRecord, generation: UInt64) -> Bool {
        switch state.withLock({ $0.publish(record.revision, generation: generation) }) {
        case .stale:
            return false
        case .gap(let expected, let members):
            end(
                members,
                comment: ServerSentEvents.readFailure(
                    LogServerError("the live feed read revision \(record.revision) after \(expected - 1)")))
            return false
        case .push(let members):
            var full: ByteBuffer?
            var changesOnly: ByteBuffer?
            for member in members.values where member.after < record.revision {
                let event: ByteBuffer
                switch member.variant {
                case .full:
                    if full == nil { full = EventVariant.full.event(for: record) }
                    event = full!
                case .changesOnly:
                    if changesOnly == nil { changesOnly = EventVariant.changesOnly.event(for: record) }
                    event = changesOnly!
                }
                _ = member.buffer.push(event, overflowComment: ServerSentEvents.overflow(limit: member.buffer.limit))
            }
            return true
        }
    }

    /// Ends the streams of `members` with `comment`.
    private func end(_ members: [MemberID: Member], comment: ByteBuffer) {
        for member in members.values {
            member.buffer.finish(comment: comment)
        }
    }
}
