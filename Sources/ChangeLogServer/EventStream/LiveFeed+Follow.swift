extension LiveFeed {
    /// Sends the revisions from `start` on into `buffer`: first the stored ones, read from the
    /// log as fast as the stream takes them, then live ones, pushed by the feed once the stream
    /// joins it as member `id`. Returns once it joined, or when the buffer ended or a read failed
    /// (then the buffer ends with a comment saying why).
    ///
    /// The handover has no gap and no duplicate. The stream reads stored revisions until the log
    /// holds none after the last one it sent, L, then asks to join. The feed admits it only if
    /// the last revision it published, P, is at most L (atomically with its publications), and
    /// from then on pushes it the revisions after L, P+1 being the next it publishes. When P > L
    /// the stream reads L+1...P (committed, since the feed published them) and asks again. A
    /// stream whose start is after the latest revision joins with L = start-1 and receives
    /// nothing before its start.
    ///
    /// - Parameter start: the first revision to send; 0 and 1 mean the oldest stored.
    func follow(from start: UInt64, variant: EventVariant, as id: MemberID, into buffer: SubscriberBuffer) async {
        // The next revision to send; 1 reads from the oldest stored.
        var next = max(start, 1)
        do {
            while true {
                for try await record in log.records(from: next) {
                    if await buffer.pushWaitingForRoom(variant.event(for: record)) == .closed { return }
                    next = record.revision + 1
                }
                let latest = try log.latestRevision
                let result = join(id, buffer: buffer, variant: variant, after: next - 1, latestStored: latest)
                if result == .joined { return }
            }
        } catch {
            buffer.finish(comment: ServerSentEvents.readFailure(error))
        }
    }
}
