import ChangeLog
import NIOCore
import PostgresNIO

extension PostgresLogStorage {
    /// A PostgreSQL log keeps no history index: histories are answered by reading revisions.
    var indexesHistory: Bool { false }

    /// Stores `append` with one request, `SELECT changelog_append(...)` (``PostgresSchema``,
    /// version 2), run as a transaction of its own: the function locks the log's row as
    /// ``write(appending:_:)`` does, checks the log's end, puts the rows, and notifies. Its commit
    /// is the statement's, with the log's durability (the relaxed modes turn
    /// `synchronous_commit` off for it alone).
    ///
    /// A connection lost around the request is resolved as a lost `COMMIT` is
    /// (``PostgresCommitOutcome``): committed returns `true`; not committed returns `false`, so
    /// that the writer appends through a transaction on a new connection (nothing was written,
    /// as after an idle connection the server closed; a request still on its way that commits
    /// later leaves the log ending with these records, which the writer recognises there and
    /// does not append again); unknown throws. A failure to connect, or the server's refusal,
    /// throws saying that nothing was committed.
    ///
    /// - Returns: `false` also for an identifier past 2^63 - 1 (the transaction's path says
    ///   why).
    func appendInOneStep(_ append: OneStepAppend) throws -> Bool {
        guard !isReadOnly else { throw readOnlyRefusal }
        guard let query = Self.appendQuery(append, logID: logID, relaxed: durability != .durable) else { return false }
        writing.lock()
        defer { writing.unlock() }
        let address = address
        // Whether the request may have reached the server: not when no connection could be made.
        var sent = false
        do {
            return try connector.withConnection { connection in
                sent = true
                let rows = try connection.run(query, address: address, what: "appending to \(address)")
                do {
                    return try rows.first?.decode(Bool.self, context: .default) == true
                } catch {
                    throw PostgresEngineError(
                        what: "appending to \(address)",
                        reason: "the reply does not decode: \(String(reflecting: error))")
                }
            }
        } catch let error as PostgresEngineError where error.isConnectionFailure && sent {
            let last = append.records.last
            return try PostgresCommitOutcome(connector: connector, logID: logID).committed(
                latest: last?.revision, record: last?.bytes, after: error)
        } catch let error as PostgresEngineError {
            // Refused by the server (the statement's transaction rolled back), or never sent.
            throw error.adding(Self.nothingCommitted)
        }
    }

    /// The call of `changelog_append` that stores `append`; `nil` when an identifier does not fit
    /// PostgreSQL's `bigint`.
    private static func appendQuery(_ append: OneStepAppend, logID: Int64, relaxed: Bool) -> PostgresQuery? {
        let chunkIDs = append.chunks.compactMap { Int64(exactly: $0.id) }
        let revisions = append.records.compactMap { Int64(exactly: $0.revision) }
        guard chunkIDs.count == append.chunks.count, revisions.count == append.records.count,
            let afterRevision = Int64(exactly: append.afterRevision),
            let nextChunk = Int64(exactly: append.nextChunkID)
        else { return nil }
        var binds = PostgresBindings(capacity: 11)
        binds.append(logID)
        binds.append(afterRevision)
        binds.append(append.afterRecord.map { ByteBuffer(bytes: $0) })
        binds.append(nextChunk)
        binds.append(chunkIDs)
        binds.append(append.chunks.map { ByteBuffer(bytes: $0.value) })
        binds.append(revisions)
        binds.append(append.records.map { ByteBuffer(bytes: $0.bytes) })
        binds.append(append.usesCompression)
        binds.append(relaxed)
        binds.append(PostgresSchema.channel)
        return PostgresQuery(
            unsafeSQL: "SELECT changelog_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)", binds: binds)
    }
}
