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
/// Version 2 adds the function an append is one request to (``PostgresLogStorage``'s
/// `appendInOneStep`): it locks the log's row as a transaction does, checks that the log still
/// ends where the append was prepared after (its latest record byte for byte, its largest chunk
/// identifier), puts the rows and notifies, or returns false having written nothing. It runs
/// with its caller's rights (`SECURITY INVOKER`): a read-only role can call it and write nothing.
///
/// ```sql
/// CREATE FUNCTION changelog_append(p_log bigint, p_after_revision bigint, p_after_record bytea,
///     p_next_chunk bigint, p_chunk_ids bigint[], p_chunks bytea[], p_revisions bigint[],
///     p_records bytea[], p_compressed boolean, p_relaxed boolean, p_channel text)
///     RETURNS boolean LANGUAGE plpgsql; -- the body: in migrateTo2 below
/// UPDATE changelog_schema SET version = 2;
/// ```
///
/// A database of version 1 is migrated to version 2 by the first process that opens a log of
/// it for writing with a role that may create the function; a writer whose role may not
/// appends through transactions and leaves it at version 1; a reader reads either.
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
    static let version = 2
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

    /// From version 1 to 2: the one-request append.
    static let migrateTo2 = [
        """
        CREATE OR REPLACE FUNCTION changelog_append(p_log bigint, p_after_revision bigint, p_after_record bytea,
            p_next_chunk bigint, p_chunk_ids bigint[], p_chunks bytea[], p_revisions bigint[], p_records bytea[],
            p_compressed boolean, p_relaxed boolean, p_channel text)
        RETURNS boolean LANGUAGE plpgsql SECURITY INVOKER AS $$
        DECLARE
            v_latest bigint;
            v_record bytea;
            v_chunk bigint;
        BEGIN
            IF p_relaxed THEN
                PERFORM set_config('synchronous_commit', 'off', true);
            END IF;
            -- Writers take turns; each statement after the wait reads the log as it is now.
            PERFORM 1 FROM changelog_logs WHERE id = p_log FOR UPDATE;
            IF NOT FOUND THEN
                RETURN false;
            END IF;
            SELECT revision, record INTO v_latest, v_record FROM changelog_records
                WHERE log_id = p_log ORDER BY revision DESC LIMIT 1;
            SELECT max(chunk_id) INTO v_chunk FROM changelog_chunks WHERE log_id = p_log;
            IF coalesce(v_latest, 0) <> p_after_revision OR v_record IS DISTINCT FROM p_after_record
                OR coalesce(v_chunk, 0) + 1 <> p_next_chunk THEN
                RETURN false;
            END IF;
            IF p_compressed THEN
                UPDATE changelog_logs SET compressed = true WHERE id = p_log AND NOT compressed;
            END IF;
            INSERT INTO changelog_chunks (log_id, chunk_id, chunk)
                SELECT p_log, u.id, u.bytes FROM unnest(p_chunk_ids, p_chunks) AS u(id, bytes);
            INSERT INTO changelog_records (log_id, revision, record)
                SELECT p_log, u.revision, u.bytes FROM unnest(p_revisions, p_records) AS u(revision, bytes);
            PERFORM pg_notify(p_channel, p_log || ':' || p_revisions[cardinality(p_revisions)]);
            RETURN true;
        END
        $$
        """,
        "UPDATE changelog_schema SET version = 2",
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
    /// ones. A reader only checks: it creates and migrates nothing. A writer whose role may not
    /// migrate a version-1 database (no right to create the function) writes it as it is.
    ///
    /// - Returns: whether the database has `changelog_append` (version 2).
    /// - Throws: ``ChangeLogError/Code/unsupportedFormat`` for a newer schema,
    ///   ``ChangeLogError/Code/logNotFound`` for a reader of a database without logs,
    ///   ``PostgresEngineError`` for the server's failures.
    @discardableResult
    static func prepare(on connection: PostgresConnection, address: PostgresLogAddress, readOnly: Bool) throws
        -> Bool
    {
        let what = "creating or migrating the log tables of \(address)"
        let installed = try installedVersion(on: connection, address: address)
        if let installed {
            try check(installed, address: address)
            if installed == version || readOnly { return installed >= 2 }
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
            // Another process may have created or migrated them while this one waited for the lock.
            let installed = try installedVersion(on: connection, address: address)
            if let installed { try check(installed, address: address) }
            var statements = installed == nil ? createVersion1 : []
            if (installed ?? 1) < 2 { statements += migrateTo2 }
            for statement in statements {
                _ = try connection.run(PostgresQuery(unsafeSQL: statement), address: address, what: what)
            }
            _ = try connection.run("COMMIT", address: address, what: what)
            return true
        } catch let error as PostgresEngineError where installed == 1 && error.sqlState == "42501" {
            // Not allowed to create the function (insufficient_privilege): version 1 stays.
            _ = try? connection.run("ROLLBACK", address: address, what: what)
            return false
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
