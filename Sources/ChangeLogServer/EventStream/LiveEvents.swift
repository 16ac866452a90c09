import ChangeLog
import Hummingbird
import Synchronization

/// The `/api/subscribe` streams of one router, following the log: stored revisions read by
/// each stream, live ones from the log's shared live feed, which reads and decodes each new
/// revision once for the whole process and calls every stream's member on its own task.
///
/// What is left to the server is encoding and each connection's buffer. A live revision's
/// event is encoded once per variant (full, changes only) for all the streams of the router:
/// the feed gives a revision to its members one after another, on one task, so the first
/// member of a variant encodes it and the others take the same bytes from ``event(for:_:)``'s
/// memo. Each stream then pushes those bytes into its ``SubscriberBuffer`` without waiting; a
/// stream whose client left more than the buffer's limit waiting is closed with a comment
/// saying why, and leaves the feed. So the cost of a live revision grows with the number of
/// streams only by one push each.
final class LiveEvents: Sendable {
    /// The events of one revision, as far as they were asked for.
    private struct Memo {
        var revision: UInt64 = 0
        var full: ByteBuffer?
        var changesOnly: ByteBuffer?
    }

    /// The log followed.
    let log: ChangeLog
    private let memo = Mutex(Memo())

    /// The streams of a router following `log`.
    init(log: ChangeLog) {
        self.log = log
    }

    /// `record`'s event in `variant`, encoded once for every stream that asks for the same
    /// revision in the same variant while it is the latest asked for.
    func event(for record: RevisionRecord, _ variant: EventVariant) -> ByteBuffer {
        memo.withLock { memo in
            if memo.revision != record.revision {
                memo = Memo(revision: record.revision)
            }
            switch variant {
            case .full:
                if let full = memo.full { return full }
                let event = variant.event(for: record)
                memo.full = event
                return event
            case .changesOnly:
                if let changesOnly = memo.changesOnly { return changesOnly }
                let event = variant.event(for: record)
                memo.changesOnly = event
                return event
            }
        }
    }

    /// The feed member of a stream that pushes `variant` events of the revisions after `after`
    /// into `buffer`: without waiting, closing the buffer with a comment when its client is too
    /// slow, and ending it with one when the feed fails.
    func member(after: UInt64, variant: EventVariant, into buffer: SubscriberBuffer) -> LiveFeed.Member {
        LiveFeed.Member(
            after: after,
            receive: { [self] record in
                // The comment is made only when the push overflows.
                buffer.push(
                    event(for: record, variant), overflowComment: ServerSentEvents.overflow(limit: buffer.limit)
                ) == .queued
            },
            end: { error in buffer.finish(comment: ServerSentEvents.readFailure(error)) })
    }

    /// Sends the revisions from `start` on into `buffer`: first the stored ones, read from the
    /// log as fast as the stream takes them (without their snapshots for ``EventVariant/changesOnly``), then live ones, pushed by the log's feed once the
    /// stream joined it as member `id` (the handover has no gap and no duplicate: `LiveFeed`
    /// in ChangeLog holds the argument). Returns once it joined, or when the buffer ended or a
    /// read failed (then the buffer ends with a comment saying why).
    ///
    /// - Parameter start: the first revision to send; 0 and 1 mean the oldest stored.
    func follow(from start: UInt64, variant: EventVariant, as id: LiveFeed.MemberID, into buffer: SubscriberBuffer)
        async
    {
        do {
            switch variant {
            case .full:
                _ = try await log.feed.follow(
                    from: start, as: id,
                    sendingStored: { record in await buffer.pushWaitingForRoom(variant.event(for: record)) != .closed },
                    then: { after in member(after: after, variant: variant, into: buffer) })
            case .changesOnly:
                // The stored revisions' snapshots are not sent, so they are not read either.
                _ = try await log.feed.followChanges(
                    from: start, as: id,
                    sendingStored: { changes in
                        await buffer.pushWaitingForRoom(EventVariant.event(for: changes)) != .closed
                    },
                    then: { after in member(after: after, variant: variant, into: buffer) })
            }
        } catch {
            buffer.finish(comment: ServerSentEvents.readFailure(error))
        }
    }
}
