import ChangeLog
import PostgresNIO

/// The tables a database of logs holds, created and migrated by the library, and their version.
///
/// What version 1 creates (all in the connection's current schema, `public` by default):
///
/// ```sql
/// CREATE TABLE changelog_schema (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
///     version integer NOT NULL);
/// CREATE TABLE changelog_logs (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
///     name text NOT NULL UNIQUE, compressed boolean NOT NULL DEFAULT false,
///     created_at timestamptz NOT NULL DEFAULT now());
/// CREATE TABLE changelog_records (log_id bigint NOT NULL REFERENCES changelog_logs (id),
///     revision bigint NOT NULL CHECK (revision >= 1), record bytea NOT NULL,
///     PRIMARY KEY (log_id, revision));
/// CREATE TABLE changelog_chunks (log_id bigint NOT NULL REFERENCES changelog_logs (id),
///     chunk_id bigint NOT NULL CHECK (chunk_id >= 0), chunk bytea NOT NULL,
///     PRIMARY KEY (log_id, chunk_id));
/// -- Stored records and chunks are never rewritten: an UPDATE of them does nothing.
/// CREATE RULE changelog_records_no_update AS ON UPDATE TO changelog_records DO INSTEAD NOTHING;
/// CREATE RULE changelog_chunks_no_update AS ON UPDATE TO changelog_chunks DO INSTEAD NOTHING;
/// ```
///
/// A record and a chunk are stored as the same sealed bytes as on LMDB (RecordFormat.md), as
/// `bytea`. Each log is a row of `changelog_logs`; its records and chunks are keyed by its id.
/// Appends lock the log's row (`SELECT ... FOR UPDATE`), so writers of one log take turns, and
/// the primary key (log_id, revision) refuses a second record of a revision whatever happens.
/// Each commit that appends sends `NOTIFY changelog, 'LOG_ID:LATEST'`.
///
/// The creating or migrating transaction runs under a session-level advisory lock
/// (``advisoryLock``), so that processes opening an empty database at once create it once. A
/// database whose `changelog_schema` says a version after ``version`` is refused: it was
/// migrated by a newer library, whose layout this one cannot read.
enum PostgresSchema {
    /// The version this library creates and reads.
    static let version = 1
    /// The advisory lock key held while the schema is created or migrated.
    static let advisoryLock: Int64 = 0x4368_616E_6765_4C6F  // "ChangeLo"
    /// The channel each appending commit notifies.
    static let channel = "changelog"

    static let createVersion1 = [
        """
        CREATE TABLE changelog_schema (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            version integer NOT NULL)
        """,
        """
        CREATE TABLE changelog_logs (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name text NOT NULL UNIQUE, compressed boolean NOT NULL DEFAULT false,
            created_at timestamptz NOT NULL DEFAULT now())
        """,
        """
        CREATE TABLE changelog_records (log_id bigint NOT NULL REFERENCES changelog_logs (id),
            revision bigint NOT NULL CHECK (revision >= 1), record bytea NOT NULL,
            PRIMARY KEY (log_id, revision))
        """,
        """
        CREATE TABLE changelog_chunks (log_id bigint NOT NULL REFERENCES changelog_logs (id),
            chunk_id bigint NOT NULL CHECK (chunk_id >= 0), chunk bytea NOT NULL,
            PRIMARY KEY (log_id, chunk_id))
        """,
        "CREATE RULE changelog_records_no_update AS ON UPDATE TO changelog_records DO INSTEAD NOTHING",
        "CREATE RULE changelog_chunks_no_update AS ON UPDATE TO changelog_chunks DO INSTEAD NOTHING",
        "INSERT INTO changelog_schema (version) VALUES (1)",
    ]

    /// The schema's version in the database, or `nil` when it holds no logs' tables.
    static func installedVersion(
        on connection: PostgresConnection, address: PostgresLogAddress
    ) throws(PostgresEngineError) -> Int? {
        let exists = try connection.run(
            "SELECT to_regclass('changelog_schema') IS NOT NULL", address: address,
            what: "reading the schema of \(address)")
        do {
            guard try exists.first?.decode(Bool.self, context: .default) == true else { return nil }
            let rows = try connection.run(
                "SELECT version FROM changelog_schema", address: address, what: "reading the schema of \(address)")
            return try rows.first.map { row in Int(try row.decode(Int32.self, context: .default)) }
        } catch {
            throw PostgresEngineError.from(error, while: "reading the schema of \(address)", address: address)
        }
    }

    /// Creates the tables when the database has none, migrates older ones, and refuses newer
    /// ones. A reader only checks: it creates nothing.
    ///
    /// - Throws: ``ChangeLogError/Code/unsupportedFormat`` for a newer schema,
    ///   ``ChangeLogError/Code/logNotFound`` for a reader of a database without logs,
    ///   ``PostgresEngineError`` for the server's failures.
    static func prepare(on connection: PostgresConnection, address: PostgresLogAddress, readOnly: Bool) throws {
        let what = "creating the log tables of \(address)"
        if let version = try installedVersion(on: connection, address: address) {
            try check(version, address: address)
            return
        }
        guard !readOnly else {
            throw ChangeLogError(
                code: .logNotFound,
                message: "the database of \(address) holds no change logs (no changelog_schema table)",
                path: address.description)
        }
        // A session lock taken before the transaction begins: a transaction that begins after
        // another process created the tables sees them (a lock taken inside the transaction would
        // leave it with the catalog as it was before the wait).
        _ = try connection.run("SELECT pg_advisory_lock(\(advisoryLock))", address: address, what: what)
        defer { _ = try? connection.run("SELECT pg_advisory_unlock(\(advisoryLock))", address: address, what: what) }
        _ = try connection.run("BEGIN", address: address, what: what)
        do {
            if let version = try installedVersion(on: connection, address: address) {
                // Another process created them while this one waited for the lock.
                try check(version, address: address)
            } else {
                for statement in createVersion1 {
                    _ = try connection.run(PostgresQuery(unsafeSQL: statement), address: address, what: what)
                }
            }
            _ = try connection.run("COMMIT", address: address, what: what)
        } catch {
            _ = try? connection.run("ROLLBACK", address: address, what: what)
            throw error
        }
    }

    /// Refuses a schema version this library cannot read.
    static func check(_ version: Int, address: PostgresLogAddress) throws(ChangeLogError) {
        guard version <= Self.version else {
            throw ChangeLogError(
                code: .unsupportedFormat,
                message: "the database of \(address) holds change logs in schema version \(version), made by a newer "
                    + "version of ChangeLog; this one reads version \(Self.version): upgrade ChangeLog",
                path: address.description)
        }
    }
}
