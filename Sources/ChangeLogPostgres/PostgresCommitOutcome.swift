import ChangeLog
import PostgresNIO

/// What became of a write whose connection was lost after its `COMMIT` was sent and before the
/// server's reply came: the server may have committed it or not, and the caller must not be
/// told "failed" when it was in fact committed.
///
/// The outcome is read on a new connection, in a transaction that first locks the log's row
/// (`SELECT ... FOR UPDATE`), as every write does: the lost transaction held that lock, so once
/// the lock is granted it has ended, committed or rolled back, for good. The record of the
/// write's latest revision is then read: the same bytes (a sealed record, its checksum
/// included) mean the write committed; none, or another's, mean it did not.
///
/// When that cannot be told (no new connection, the lock not granted within
/// ``lockTimeout``, a write that put no record), the error says that the outcome is unknown.
struct PostgresCommitOutcome {
    let connector: PostgresConnector
    let logID: Int64
    /// How long the check waits for the lost transaction's lock, as PostgreSQL's `lock_timeout`.
    static let lockTimeout = "30s"
    /// What an error says when the outcome cannot be told.
    static let unknown =
        "the outcome is unknown: the append may or may not be committed; read the log's latest "
        + "revision to tell"
    /// What an error says when the check found the write not committed.
    static let notCommitted = "it was not committed (checked on a new connection)"

    /// Returns when the write that put `record` as revision `latest` committed; throws
    /// `lost`, its reason completed with the outcome, when it did not or when that cannot be
    /// told.
    func resolve(latest: UInt64?, record: [UInt8]?, after lost: PostgresEngineError) throws(PostgresEngineError) {
        guard try committed(latest: latest, record: record, after: lost) else {
            throw lost.adding("the connection was lost while committing").adding(Self.notCommitted)
        }
    }

    /// Whether the write that put `record` as revision `latest` committed; throws `lost`, its
    /// reason completed, when that cannot be told.
    func committed(latest: UInt64?, record: [UInt8]?, after lost: PostgresEngineError) throws(PostgresEngineError)
        -> Bool
    {
        let lost = lost.adding("the connection was lost while committing")
        guard let latest, let record, let revision = Int64(exactly: latest) else {
            throw lost.adding(Self.unknown)
        }
        do {
            return try read(revision) == record
        } catch {
            throw lost.adding("\(Self.unknown) (the check failed: \(error.reason))")
        }
    }

    /// The record of `revision` once no write of the log is under way.
    private func read(_ revision: Int64) throws(PostgresEngineError) -> [UInt8]? {
        let address = connector.address
        let what = "checking whether an append to \(address) committed"
        let connection = try connector.connect()
        defer { connection.closeSoon() }
        _ = try connection.run("BEGIN", address: address, what: what)
        _ = try connection.run(
            PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = '\(Self.lockTimeout)'"), address: address, what: what)
        _ = try connection.run(
            "SELECT id FROM changelog_logs WHERE id = \(logID) FOR UPDATE", address: address, what: what)
        let rows = try connection.run(
            "SELECT record FROM changelog_records WHERE log_id = \(logID) AND revision = \(revision)",
            address: address, what: what)
        _ = try connection.run("ROLLBACK", address: address, what: what)
        do {
            return try rows.first.map { row in
                Array(try row.decode(ByteBuffer.self, context: .default).readableBytesView)
            }
        } catch {
            throw PostgresEngineError(what: what, reason: "the record does not decode: \(String(reflecting: error))")
        }
    }
}
