import ChangeLog
import Foundation
import PostgresNIO

/// The PostgreSQL engine of a log: one named log among many in a database (``PostgresSchema``),
/// over postgres-nio.
///
/// - A read is a `REPEATABLE READ READ ONLY` transaction on a pooled connection: everything it
///   reads is as one moment of the log left it. Rows are read into memory and lent from there.
/// - A write is a `READ COMMITTED` transaction that first locks the log's row
///   (`SELECT ... FOR UPDATE`), then reads the log's end: writers of one log, in any process on
///   any host, take turns, so `expectedLatest` is decided by PostgreSQL; the primary key
///   (log_id, revision) refuses a second record of a revision in any case. Its puts are sent in
///   one statement of multi-row `INSERT`s with its notification on ``PostgresSchema/channel``:
///   a durable append's transaction is five round trips (`BEGIN`, the lock, the end read, the
///   puts, `COMMIT`; ``PostgresTransactionContext``). A writer that put the log's latest record
///   itself appends the next revisions in one round trip instead, the same steps in one call
///   (``appendInOneStep(_:)``).
/// - Committed means PostgreSQL committed it. With ``ChangeLog/Durability/durable`` an append
///   returns once the server flushed its WAL (`synchronous_commit` as the server is set, `on`
///   by default; with synchronous replication, as that setting says). The relaxed modes set
///   `synchronous_commit = off` for the append: a server crash can lose the last appends (never
///   part of one), and ``flush()`` makes everything committed so far durable.
/// - A connection lost mid-transaction: a read or a write that had not sent `COMMIT` fails
///   and says that nothing was committed; one lost after `COMMIT` was sent is resolved by
///   ``PostgresCommitOutcome`` (committed, not committed, or an error saying the outcome is
///   unknown). A connection the server closed while idle is replaced before the next
///   transaction begins (``PostgresConnector/withConnection(beginning:_:)``).
/// - Waiting: every call waits for the server on the calling thread. The log's asynchronous
///   readers (subscriptions, live feeds) run their reads on ``PostgresReadExecutor``'s threads
///   (``readExecutor``), never on Swift's cooperative pool; the writer runs on its own queue.
/// - There is no history index: histories are answered by reading the revisions of their range.
final class PostgresLogStorage: LogStorage {
    let address: PostgresLogAddress
    let connector: PostgresConnector
    /// The log's row in `changelog_logs`.
    let logID: Int64
    let isReadOnly: Bool
    let durability: ChangeLog.Durability
    /// Whether the database has `changelog_append` (``appendInOneStep(_:)``): schema version 2,
    /// which a writer migrates to where its role may.
    let appendsInOneStep: Bool
    /// Serializes this instance's write transactions.
    let writing = NSLock()

    var path: String { address.description }

    /// What a write to the log opened for reading only throws.
    var readOnlyRefusal: ChangeLogError {
        ChangeLogError(
            code: .readOnly, message: "the PostgreSQL log \(address) was opened for reading only", path: path)
    }

    init(
        address: PostgresLogAddress, connector: PostgresConnector, logID: Int64, readOnly: Bool,
        durability: ChangeLog.Durability, appendsInOneStep: Bool
    ) {
        self.address = address
        self.connector = connector
        self.logID = logID
        self.isReadOnly = readOnly
        self.durability = durability
        self.appendsInOneStep = appendsInOneStep
    }

    var readExecutor: (any TaskExecutor)? { PostgresReadExecutor.shared }

    // MARK: - Transactions

    func read<R>(_ body: (borrowing any LogReadTransaction & ~Copyable) throws -> R) throws -> R {
        let address = address
        return try connector.withConnection(beginning: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
            connection in
            do {
                let context = PostgresTransactionContext(connection: connection, logID: logID, address: address)
                let result = try body(PostgresLogTransaction(context: context))
                _ = try connection.run("COMMIT", address: address, what: "reading \(address)")
                return result
            } catch {
                _ = try? connection.run("ROLLBACK", address: address, what: "reading \(address)")
                throw error
            }
        }
    }

    func write<R>(appending: Bool, _ body: (borrowing any LogWriteTransaction & ~Copyable) throws -> R) throws -> R {
        guard !isReadOnly else { throw readOnlyRefusal }
        writing.lock()
        defer { writing.unlock() }
        let address = address
        let what = "appending to \(address)"
        return try connector.withConnection(beginning: "BEGIN") { connection in
            let context = PostgresTransactionContext(connection: connection, logID: logID, address: address)
            let result = try prepare(in: context, what: what, body)
            do {
                _ = try connection.run("COMMIT", address: address, what: what)
            } catch let error as PostgresEngineError where error.isConnectionFailure {
                // The server may have committed before the connection broke: find out.
                try PostgresCommitOutcome(connector: connector, logID: logID).resolve(
                    latest: context.latestPut, record: context.latestPutRecord, after: error)
            }
            return result
        }
    }

    /// Runs a write transaction's statements up to its `COMMIT`, which it leaves to its caller;
    /// rolls back and throws when any fails, saying that nothing was committed.
    private func prepare<R>(
        in context: PostgresTransactionContext, what: String,
        _ body: (borrowing any LogWriteTransaction & ~Copyable) throws -> R
    ) throws -> R {
        let connection = context.connection
        do {
            if durability != .durable {
                _ = try connection.run("SET LOCAL synchronous_commit TO off", address: address, what: what)
            }
            let locked = try connection.run(
                "SELECT id FROM changelog_logs WHERE id = \(logID) FOR UPDATE", address: address, what: what)
            guard !locked.isEmpty else {
                throw ChangeLogError(
                    code: .logNotFound, message: "the PostgreSQL log \(address) was deleted", path: path)
            }
            let result = try body(PostgresLogTransaction(context: context))
            // The rows put and the notification, in one round trip.
            try context.sendPending(notifying: PostgresSchema.channel)
            return result
        } catch {
            _ = try? connection.run("ROLLBACK", address: address, what: what)
            // COMMIT was never sent: a failure of the engine says that nothing was committed.
            if let engine = error as? PostgresEngineError { throw engine.adding(Self.nothingCommitted) }
            if var wrapped = error as? ChangeLogError, wrapped.code == .storage, wrapped.cause is PostgresEngineError {
                wrapped.message += "; \(Self.nothingCommitted)"
                throw wrapped
            }
            throw error
        }
    }

    /// What the error of a write that failed before its `COMMIT` was sent says.
    static let nothingCommitted = "nothing was committed"

    // MARK: - Watching, history, space

    func makeCommitWatcher(pollInterval: Duration, watchesFiles: Bool, check: @escaping @Sendable () -> Void)
        -> any CommitWatcher
    {
        PostgresCommitWatcher(
            connector: connector, logID: logID, pollInterval: pollInterval, listens: watchesFiles, check: check)
    }

    func historyIndex() -> any HistoryIndexStorage {
        NoHistoryIndex()
    }

    /// Makes every commit so far durable: a transaction committed with `synchronous_commit = on`
    /// waits for the WAL to be flushed up to it, which covers every earlier commit.
    func flush() throws(ChangeLogError) {
        guard !isReadOnly else { return }
        let address = address
        do {
            try connector.withConnection(beginning: "BEGIN") { connection in
                _ = try connection.run(
                    "SET LOCAL synchronous_commit TO on", address: address, what: "flushing \(address)")
                _ = try connection.run("SELECT txid_current()", address: address, what: "flushing \(address)")
                _ = try connection.run("COMMIT", address: address, what: "flushing \(address)")
            }
        } catch let error as ChangeLogError {
            throw error
        } catch {
            throw PostgresEngineError.from(error, while: "flushing", address: address).changeLogError(
                path: path, revision: nil, during: "flushing")
        }
    }

    /// Not known without a query: 0. ``space()`` asks the server.
    var bytesInUse: Int { 0 }

    func space() throws(ChangeLogError) -> StorageSpace {
        let address = address
        do {
            return try connector.withConnection { connection in
                let rows = try connection.run(
                    """
                    SELECT (SELECT coalesce(sum(octet_length(record)), 0) FROM changelog_records WHERE log_id = \(logID))
                         + (SELECT coalesce(sum(octet_length(chunk)), 0) FROM changelog_chunks WHERE log_id = \(logID))
                    """, address: address, what: "measuring \(address)")
                let bytes = try rows.first?.decode(Int64?.self, context: .default) ?? 0
                return StorageSpace(bytesOnDisk: Int(bytes), bytesInUse: Int(bytes), bytesFree: 0)
            }
        } catch let error as ChangeLogError {
            throw error
        } catch {
            throw PostgresEngineError.from(error, while: "measuring", address: address).changeLogError(
                path: path, revision: nil, during: "measuring")
        }
    }

    /// A log's row is never replaced: always `true`.
    var isStillAtPath: Bool { true }
}
