import ChangeLog
import PostgresNIO

extension PostgresLogStorage {
    /// Opens the log at `address`: connects, creates or checks the tables
    /// (``PostgresSchema/prepare(on:address:readOnly:)``) and finds (or creates) the log's row.
    ///
    /// - Throws: ``ChangeLogError`` naming the address without its password.
    static func open(address: PostgresLogAddress, options: ChangeLog.Options) throws(ChangeLogError)
        -> PostgresLogStorage
    {
        let connector = try PostgresConnector(address: address)
        let readOnly = options.readOnly
        do {
            let (logID, hasAppendFunction) = try connector.withConnection { connection -> (Int64, Bool) in
                let hasAppendFunction = try PostgresSchema.prepare(on: connection, address: address, readOnly: readOnly)
                if let id = try findLog(on: connection, address: address) { return (id, hasAppendFunction) }
                guard options.createIfMissing, !readOnly else {
                    throw ChangeLogError(
                        code: .logNotFound, message: "there is no log \(address.logName) in \(address)",
                        path: address.description)
                }
                _ = try connection.run(
                    "INSERT INTO changelog_logs (name) VALUES (\(address.logName)) ON CONFLICT (name) DO NOTHING",
                    address: address, what: "creating \(address)")
                guard let id = try findLog(on: connection, address: address) else {
                    throw PostgresEngineError(what: "creating \(address)", reason: "the log's row vanished")
                }
                return (id, hasAppendFunction)
            }
            return PostgresLogStorage(
                address: address, connector: connector, logID: logID, readOnly: readOnly,
                durability: options.durability, appendsInOneStep: hasAppendFunction)
        } catch let error as ChangeLogError {
            throw error
        } catch {
            throw openingFailure(error, address: address)
        }
    }

    /// The error of an open that failed on the server or the connection: one line.
    static func openingFailure(_ error: any Error, address: PostgresLogAddress) -> ChangeLogError {
        let engine = PostgresEngineError.from(error, while: "opening \(address)", address: address)
        return ChangeLogError(
            code: .cannotOpen, message: "cannot open the PostgreSQL log \(address): \(engine.reason)",
            path: address.description, cause: engine)
    }

    private static func findLog(on connection: PostgresConnection, address: PostgresLogAddress) throws -> Int64? {
        let rows = try connection.run(
            "SELECT id FROM changelog_logs WHERE name = \(address.logName)", address: address,
            what: "opening \(address)")
        return try rows.first?.decode(Int64.self, context: .default)
    }

    /// The database's logs by name with their latest revisions.
    static func logs(at address: PostgresLogAddress) throws(ChangeLogError) -> [(name: String, latestRevision: UInt64)]
    {
        let connector = try PostgresConnector(address: address)
        defer { connector.closeIdle() }
        do {
            return try connector.withConnection { connection in
                guard let version = try PostgresSchema.installedVersion(on: connection, address: address) else {
                    return []
                }
                try PostgresSchema.check(version, address: address)
                let rows = try connection.run(
                    """
                    SELECT l.name, coalesce((SELECT max(r.revision) FROM changelog_records r WHERE r.log_id = l.id), 0)
                    FROM changelog_logs l ORDER BY l.name
                    """, address: address, what: "listing the logs of \(address)")
                return try rows.map { row in
                    let (name, latest) = try row.decode((String, Int64).self, context: .default)
                    return (name, UInt64(latest))
                }
            }
        } catch let error as ChangeLogError {
            throw error
        } catch {
            throw PostgresLogStorage.openingFailure(error, address: address)
        }
    }
}

/// Statements run on a database outside any log, for the tests' set-up.
package enum PostgresAdministration {
    /// Runs `sql` (one statement, no parameters) on the database of `url`, for the tests'
    /// set-up: databases to create, a schema version to change.
    ///
    /// - Throws: ``ChangeLogError`` as an open does.
    package static func execute(_ sql: String, url: String) throws(ChangeLogError) {
        let address = try PostgresLogAddress(url: url)
        let connector = try PostgresConnector(address: address)
        defer { connector.closeIdle() }
        do {
            try connector.withConnection { connection in
                _ = try connection.run(PostgresQuery(unsafeSQL: sql), address: address, what: "running \(sql)")
            }
        } catch let error as ChangeLogError {
            throw error
        } catch {
            throw PostgresLogStorage.openingFailure(error, address: address)
        }
    }
}
