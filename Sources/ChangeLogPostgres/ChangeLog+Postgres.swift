import ChangeLog
import Foundation
import PostgresNIO

extension ChangeLog {
    /// Opens the log at `url`, a PostgreSQL log's URL (``PostgresLogAddress``:
    /// `postgres://USER@HOST:PORT/DATABASE?log=NAME`, also `postgresql://`), creating the
    /// database's tables (``PostgresLogAddress``, schema documented on the engine) and the log
    /// when `Options.createIfMissing` allows it and the log is not opened read-only.
    ///
    /// The log works as one on LMDB does: appending, every reading API, verify, play,
    /// subscriptions, retention; records and chunks are the same bytes. Many processes on many
    /// hosts may append to one log: `expectedLatest` is decided by PostgreSQL, each log's
    /// writers taking turns on its row's lock. Subscriptions are woken by `LISTEN/NOTIFY` (one
    /// connection per process and database) and poll every `Options.subscriptionPollInterval`.
    /// They outlast a server restart or a lost connection: their reads are retried for up to two
    /// minutes, and they go on from where they were, with no gap and no duplicate; the listening
    /// connection reconnects by itself. A call of the synchronous API that loses its connection
    /// fails (an append says whether it was committed); the next call connects again.
    ///
    /// Every call of the log's synchronous API waits for the server on the calling thread: call
    /// it off Swift's cooperative pool (from a thread or queue of your own) where the server can
    /// be slow. Subscriptions do so themselves.
    ///
    /// What the options mean here: `Options.durability` (`ChangeLog.Durability.durable`:
    /// an append returns once PostgreSQL committed it with `synchronous_commit` as the server
    /// is set; the relaxed modes commit with `synchronous_commit = off`, made durable by
    /// `flush()`); `Options.readOnly` opens without writing anything, and works with a role
    /// that may only `SELECT`; `Options.createIfMissing`; `Options.untrusted` checks every
    /// record at open. The file and map options are LMDB's, and ignored.
    ///
    /// - Parameters:
    ///   - url: the log's URL; its password, if any, is never printed.
    ///   - passwordFile: a file whose first line is the password, used when neither the URL nor
    ///     `PGPASSWORD` gives one.
    ///   - options: how to open the log, as described above.
    /// - Throws: `ChangeLogError` naming the URL without its password:
    ///   `ChangeLogError.Code.invalidArgument` (not such a URL), `ChangeLogError.Code.cannotOpen`
    ///   (the server unreachable, a wrong password, no such database, TLS refused),
    ///   `ChangeLogError.Code.logNotFound` (no such log, and none may be created),
    ///   `ChangeLogError.Code.unsupportedFormat` (tables of a newer version).
    public convenience init(url: String, passwordFile: String? = nil, options: Options = Options())
        throws(ChangeLogError)
    {
        let address = try PostgresLogAddress(url: url, passwordFile: passwordFile)
        try self.init(address: address, options: options)
    }

    /// Opens the log at `address` (``init(url:passwordFile:options:)``).
    public convenience init(address: PostgresLogAddress, options: Options = Options()) throws(ChangeLogError) {
        let storage = try PostgresLogStorage.open(address: address, options: options)
        try self.init(storage: storage, options: options)
    }

    /// The logs of the database at `url` (whose `log=` is ignored), by name, with their latest
    /// revision (0 for an empty log). An empty list for a database without logs' tables.
    ///
    /// - Throws: `ChangeLogError` as ``init(url:passwordFile:options:)`` does.
    public static func postgresLogs(url: String, passwordFile: String? = nil) throws(ChangeLogError) -> [(
        name: String, latestRevision: UInt64
    )] {
        let address = try PostgresLogAddress(url: url, passwordFile: passwordFile)
        return try PostgresLogStorage.logs(at: address)
    }
}
