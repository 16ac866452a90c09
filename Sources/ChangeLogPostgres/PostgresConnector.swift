import ChangeLog
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// Connections to one PostgreSQL database, made and used synchronously: every call waits for
/// the server on the calling thread (never an event loop's, never one of the cooperative pool's:
/// see ``PostgresReadExecutor``), and keeps idle connections for the next caller.
final class PostgresConnector: Sendable {
    /// Where the log lives; its password is given to the server only.
    let address: PostgresLogAddress
    let configuration: PostgresConnection.Configuration
    private let idle = Mutex<[PostgresConnection]>([])
    private let nextID = Atomic<Int>(1)
    /// A logger that logs nothing: the log reports failures through its errors.
    static let logger = Logger(label: "ChangeLogPostgres", factory: { _ in SwiftLogNoOpLogHandler() })
    /// How many idle connections are kept.
    static let keptIdle = 8

    /// A connector for `address`.
    ///
    /// - Throws: ``ChangeLogError/Code/invalidArgument`` when the TLS settings cannot be made
    ///   (an unreadable `sslrootcert`).
    init(address: PostgresLogAddress) throws(ChangeLogError) {
        self.address = address
        let tls: PostgresConnection.Configuration.TLS
        do {
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
                if let file = address.rootCertificateFile {
                    configuration.trustRoots = .file(file)
                }
                tls = .require(try NIOSSLContext(configuration: configuration))
            }
        } catch {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "cannot set up TLS for \(address): \(PostgresEngineError.describe(error))",
                path: address.description)
        }
        var configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password,
            database: address.database, tls: tls)
        configuration.options.connectTimeout = .seconds(Int64(address.connectTimeout))
        configuration.options.additionalStartupParameters = [("application_name", address.applicationName)]
        self.configuration = configuration
    }

    /// A new connection, waited for.
    ///
    /// - Throws: ``PostgresEngineError`` naming the address without its password.
    func connect() throws(PostgresEngineError) -> PostgresConnection {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        do {
            return try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: id,
                logger: Self.logger
            ).wait()
        } catch {
            throw PostgresEngineError.from(error, while: "connecting to \(address)", address: address)
        }
    }

    /// Lends an idle connection (or a new one) to `body`, and keeps it for the next caller
    /// unless `body` threw a connection failure or left it closed. A connection that `body`
    /// leaves inside a transaction must not be returned: `body` ends its transactions.
    ///
    /// With `begin`, the connection first runs it (the transaction's `BEGIN`), and an idle
    /// connection that the server closed meanwhile (a restart, `pg_terminate_backend`, a cut)
    /// is replaced by a new one: nothing was sent on it yet, so nothing can have happened twice,
    /// and the next caller after a cut gets a working connection instead of the cut's error.
    func withConnection<R>(beginning begin: PostgresQuery? = nil, _ body: (PostgresConnection) throws -> R)
        throws -> R
    {
        let connection = try ready(beginning: begin)
        do {
            let result = try body(connection)
            keep(connection)
            return result
        } catch {
            if let engine = error as? PostgresEngineError, engine.isConnectionFailure {
                connection.closeSoon()
            } else {
                keep(connection)
            }
            throw error
        }
    }

    /// An idle connection that is still open, or a new one, that ran `begin` when given. When an
    /// idle one fails `begin` as a lost connection, the others kept with it are dropped too (they
    /// were most likely lost together, as in a server restart), and a new one runs it.
    private func ready(beginning begin: PostgresQuery?) throws(PostgresEngineError) -> PostgresConnection {
        while let connection = idle.withLock({ $0.popLast() }) {
            if connection.isClosed {
                connection.closeSoon()
                continue
            }
            guard let begin else { return connection }
            do {
                _ = try connection.run(begin, address: address, what: "beginning a transaction on \(address)")
                return connection
            } catch  where error.isConnectionFailure {
                connection.closeSoon()
                closeIdle()
            } catch {
                keep(connection)
                throw error
            }
        }
        let connection = try connect()
        if let begin {
            do {
                _ = try connection.run(begin, address: address, what: "beginning a transaction on \(address)")
            } catch {
                if error.isConnectionFailure { connection.closeSoon() } else { keep(connection) }
                throw error
            }
        }
        return connection
    }

    private func keep(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return }
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < Self.keptIdle else { return false }
            idle.append(connection)
            return true
        }
        if !kept { connection.closeSoon() }
    }

    /// Closes the idle connections.
    func closeIdle() {
        for connection in idle.withLock({ idle in
            defer { idle = [] }; return idle
        }) {
            connection.closeSoon()
        }
    }

    deinit {
        closeIdle()
    }
}

extension PostgresConnection {
    /// Runs `query` and waits for all its rows.
    ///
    /// - Throws: ``PostgresEngineError`` for what the server refused or a lost connection.
    func run(_ query: PostgresQuery, address: PostgresLogAddress, what: @autoclosure () -> String)
        throws(PostgresEngineError) -> [PostgresRow]
    {
        do {
            return Array(try self.query(query, logger: PostgresConnector.logger).wait().rows)
        } catch {
            throw PostgresEngineError.from(error, while: what(), address: address)
        }
    }
}

extension PostgresConnection {
    /// Starts closing the connection, without waiting; the connection lives until it is closed
    /// (postgres-nio requires a connection to be closed before it is freed).
    func closeSoon() {
        let closing: EventLoopFuture<Void> = close()
        closing.whenComplete { _ in withExtendedLifetime(self) {} }
    }
}
