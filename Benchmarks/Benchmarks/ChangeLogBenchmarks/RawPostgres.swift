import ChangeLogPostgres
import PostgresNIO  // with NIO, NIOSSL and Logger

/// The PostgreSQL baseline: postgres-nio alone, on one connection made with the settings the
/// log's engine makes its own with (host, port, role, password, database, TLS mode), each call
/// waiting for the server on the calling thread as the engine's do.
///
/// It writes rows of a table of the same shape as the log's records
/// (`bench_raw_records (log_id, revision, record bytea)`, primary key (log_id, revision)), each
/// `INSERT` a transaction of its own, committed as the server is set (`synchronous_commit` on:
/// the commit waits for the WAL flush, as a durable append's does). It reads a log's own rows
/// (`changelog_records`, `changelog_chunks`) in one `SELECT` each.
final class RawPostgres: Sendable {
    let connection: PostgresConnection
    private static let logger = {
        var logger = Logger(label: "RawPostgres")
        logger.logLevel = .critical
        return logger
    }()

    init(address: PostgresLogAddress) throws {
        let tls: PostgresConnection.Configuration.TLS
        switch address.tlsMode {
        case .disable:
            tls = .disable
        case .prefer, .require:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            let context = try NIOSSLContext(configuration: configuration)
            tls = address.tlsMode == .prefer ? .prefer(context) : .require(context)
        case .verifyCA, .verifyFull:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification =
                address.tlsMode == .verifyFull ? .fullVerification : .noHostnameVerification
            if let file = address.rootCertificateFile { configuration.trustRoots = .file(file) }
            tls = .require(try NIOSSLContext(configuration: configuration))
        }
        let configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password,
            database: address.database, tls: tls)
        connection = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: Self.logger
        ).wait()
    }

    deinit {
        let connection = connection
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    @discardableResult
    func run(_ query: PostgresQuery) throws -> [PostgresRow] {
        Array(try connection.query(query, logger: Self.logger).wait().rows)
    }

    /// Creates the baseline's table, empty.
    func createTable() throws {
        try run("DROP TABLE IF EXISTS bench_raw_records")
        try run(
            """
            CREATE TABLE bench_raw_records (log_id bigint NOT NULL, revision bigint NOT NULL CHECK (revision >= 1),
                record bytea NOT NULL, PRIMARY KEY (log_id, revision))
            """)
    }

    /// Inserts `bytes` as the row (1, `revision`), in a transaction of its own.
    func insert(revision: Int64, bytes: ByteBuffer) throws {
        try run("INSERT INTO bench_raw_records (log_id, revision, record) VALUES (1, \(revision), \(bytes))")
    }

    /// The id of the log named `name` in `changelog_logs`.
    func logID(named name: String) throws -> Int64 {
        guard let row = try run("SELECT id FROM changelog_logs WHERE name = \(name)").first else {
            throw SetupFailure(description: "no log named \(name) in changelog_logs")
        }
        return try row.decode(Int64.self, context: .default)
    }

    /// The bytes the log `logID` stores: its records' and chunks'.
    func storedBytes(logID: Int64) throws -> Int {
        let rows = try run(
            """
            SELECT (SELECT coalesce(sum(octet_length(record)), 0) FROM changelog_records WHERE log_id = \(logID))
                 + (SELECT coalesce(sum(octet_length(chunk)), 0) FROM changelog_chunks WHERE log_id = \(logID))
            """)
        return Int(try rows.first?.decode(Int64?.self, context: .default) ?? 0)
    }

    /// Reads the records of `revisions` of the log `logID` in one `SELECT`, and (`chunks`) every
    /// chunk of the log in another, each row copied out of the connection's buffers as the
    /// engine copies it; returns the number of records.
    func readLog(logID: Int64, revisions: ClosedRange<Int64>, chunks: Bool = true) throws -> Int {
        var records = 0
        for row in try run(
            """
            SELECT revision, record FROM changelog_records
            WHERE log_id = \(logID) AND revision >= \(revisions.lowerBound) AND revision <= \(revisions.upperBound)
            ORDER BY revision
            """)
        {
            let (_, buffer) = try row.decode((Int64, ByteBuffer).self, context: .default)
            blackHoleBytes(Array(buffer.readableBytesView))
            records += 1
        }
        guard chunks else { return records }
        for row in try run(
            "SELECT chunk_id, chunk FROM changelog_chunks WHERE log_id = \(logID) ORDER BY chunk_id")
        {
            let (_, buffer) = try row.decode((Int64, ByteBuffer).self, context: .default)
            blackHoleBytes(Array(buffer.readableBytesView))
        }
        return records
    }
}

/// Keeps the optimizer from dropping a copy.
@inline(never)
func blackHoleBytes(_ bytes: [UInt8]) {
    withExtendedLifetime(bytes) {}
}
