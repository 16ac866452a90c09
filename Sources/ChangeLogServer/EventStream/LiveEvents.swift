import ChangeLog
import Hummingbird
import Synchronization

/// The `/api/subscribe` streams of one router, following the log: stored revisions read by
/// each stream, live ones from one of the log's shared live feeds, which reads and decodes each
/// new revision once for the whole process and calls every stream's member on its own task.
/// Full streams follow the log's feed of full records; changes-only streams follow its feed of
/// changes, which reads no snapshot: while only changes-only streams are open, no live snapshot
/// is decoded.
///
/// What is left to the server is encoding and each connection's buffer. A live revision's
/// event is encoded once per variant (full, changes only) for all the streams of the router:
/// a feed gives a revision to its members one after another, on one task, so the first
/// member of a variant encodes it and the others take the same bytes from the variant's memo.
/// Each stream then pushes those bytes into its ``SubscriberBuffer`` without waiting; a
/// stream whose client left more than the buffer's limit waiting is closed with a comment
/// saying why, and leaves the feed. So the cost of a live revision grows with the number of
/// streams only by one push each.
final class LiveEvents: Sendable {
    /// The event of the latest revision asked for, in one variant.
    private struct Memo {
        var revision: UInt64 = 0
        var event: ByteBuffer?

        /// The event of `revision`: the one held, or `encode()`'s, then held.
        mutating func event(of revision: UInt64, encode: () -> ByteBuffer) -> ByteBuffer {
            if self.revision == revision, let event { return event }
            let event = encode()
            self = Memo(revision: revision, event: event)
            return event
        }
    }

    /// The log followed.
    let log: ChangeLog
    private let fullMemo = Mutex(Memo())
    private let changesOnlyMemo = Mutex(Memo())

    /// The streams of a router following `log`.
    init(log: ChangeLog) {
        self.log = log
    }

    /// `record`'s full event, encoded once for every stream that asks for the same revision
    /// while it is the latest asked for.
    func event(for record: RevisionRecord) -> ByteBuffer {
        fullMemo.withLock { $0.event(of: record.revision) { EventVariant.full.event(for: record) } }
    }

    /// `changes`'s changes-only event, encoded once for every stream that asks for the same
    /// revision while it is the latest asked for.
    func event(for changes: RevisionChanges) -> ByteBuffer {
        changesOnlyMemo.withLock { $0.event(of: changes.revision) { EventVariant.event(for: changes) } }
    }

    /// A new member identity in the feed that streams of `variant` follow.
    func makeMemberID(_ variant: EventVariant) -> LiveFeed.MemberID {
        switch variant {
        case .full: log.feed.makeMemberID()
        case .changesOnly: log.changesFeed.makeMemberID()
        }
    }

    /// Removes member `id` from the feed that streams of `variant` follow.
    func leave(_ id: LiveFeed.MemberID, _ variant: EventVariant) {
        switch variant {
        case .full: log.feed.leave(id)
        case .changesOnly: log.changesFeed.leave(id)
        }
    }

    /// The member of the log's feed of full records for a full stream that pushes the events
    /// of the revisions after `after` into `buffer`, as ``member(after:into:push:)`` says.
    func member(after: UInt64, into buffer: SubscriberBuffer) -> RecordFeed.Member {
        Self.member(after: after, into: buffer) { [self] record in event(for: record) }
    }

    /// The member of the log's feed of changes for a changes-only stream that pushes the events
    /// of the revisions after `after` into `buffer`, as ``member(after:into:push:)`` says.
    func changesMember(after: UInt64, into buffer: SubscriberBuffer) -> ChangesFeed.Member {
        Self.member(after: after, into: buffer) { [self] changes in event(for: changes) }
    }

    /// The feed member of a stream that pushes `event(revision)` for the revisions after
    /// `after` into `buffer`: without waiting, closing the buffer with a comment when its client
    /// is too slow, and ending it with one when the feed fails.
    private static func member<Element>(
        after: UInt64, into buffer: SubscriberBuffer, event: @escaping @Sendable (Element) -> ByteBuffer
    ) -> LiveFeed<Element>.Member {
        LiveFeed<Element>.Member(
            after: after,
            receive: { element in
                // The comment is made only when the push overflows.
                buffer.push(event(element), overflowComment: ServerSentEvents.overflow(limit: buffer.limit))
                    == .queued
            },
            end: { error in buffer.finish(comment: ServerSentEvents.readFailure(error)) })
    }

    /// Sends the revisions from `start` on into `buffer`: first the stored ones, read from the
    /// log as fast as the stream takes them, then live ones, pushed by the log's feed of the
    /// variant once the stream joined it as member `id` (from ``makeMemberID(_:)``; the
    /// handover has no gap and no duplicate: `LiveFeed` in ChangeLog holds the argument). A
    /// ``EventVariant/changesOnly`` stream reads no snapshot, stored or live. Returns once it
    /// joined, or when the buffer ended or a read failed (then the buffer ends with a comment
    /// saying why).
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
                    then: { after in member(after: after, into: buffer) })
            case .changesOnly:
                _ = try await log.changesFeed.follow(
                    from: start, as: id,
                    sendingStored: { changes in
                        await buffer.pushWaitingForRoom(EventVariant.event(for: changes)) != .closed
                    },
                    then: { after in changesMember(after: after, into: buffer) })
            }
        } catch {
            buffer.finish(comment: ServerSentEvents.readFailure(error))
        }
    }
}
