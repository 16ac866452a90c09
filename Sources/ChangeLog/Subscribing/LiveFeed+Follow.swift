extension LiveFeed {
    /// Follows the log from `start` on: first the stored revisions, read on the calling task
    /// and given to `sendStored` as fast as it takes them, then live ones, given by the feed to
    /// the member that `member` makes once it joined as `id` (the handover of ``LiveFeed``'s
    /// argument: read until nothing more is stored, join, and read again while behind).
    ///
    /// The stored revisions are decoded as the feed decodes the live ones: a ``ChangesFeed``
    /// reads no snapshot chunk, stored or live.
    ///
    /// - Parameters:
    ///   - start: the first revision to follow; 0 and 1 mean the oldest stored.
    ///   - sendStored: takes one stored revision; returns `false` to stop following.
    ///   - member: the member that receives the live revisions after `after`, the last
    ///     revision sent (`start - 1` when none was).
    /// - Returns: `true` once joined, `false` when `sendStored` stopped it.
    /// - Throws: ``ChangeLogError`` when a stored revision cannot be read (a transient failure
    ///   is retried first, as ``ReadRetry`` says).
    package func follow(
        from start: UInt64, as id: MemberID, sendingStored sendStored: (Element) async -> Bool,
        then member: (_ after: UInt64) -> Member
    ) async throws(ChangeLogError) -> Bool {
        try await follow(from: start, as: id, decoding: decoding, sendingStored: sendStored, then: member)
    }

    private func follow<Decoding: RevisionDecoding<Element>>(
        from start: UInt64, as id: MemberID, decoding: Decoding,
        sendingStored sendStored: (Element) async -> Bool, then member: (_ after: UInt64) -> Member
    ) async throws(ChangeLogError) -> Bool {
        var cursor = RevisionCursor(
            store: store, next: Swift.max(start, 1), batchSize: Self.batchSize, decoding: decoding)
        var retry = ReadRetry()
        while true {
            let batch: RevisionCursor<Decoding>.Batch
            do {
                batch = try cursor.read(upTo: nil)
            } catch {
                if await retry.shouldRetry(after: error) { continue }
                throw error
            }
            for record in batch.records {
                guard await sendStored(record) else { return false }
            }
            if let failure = batch.failure {
                if await retry.shouldRetry(after: failure) { continue }
                throw failure
            }
            retry.succeeded()
            guard batch.records.isEmpty else { continue }
            // Nothing stored after the cursor (a cursor still at 1: nothing stored at all).
            if case .joined = join(id, member(cursor.next - 1), latestStored: batch.latest) { return true }
        }
    }
}
