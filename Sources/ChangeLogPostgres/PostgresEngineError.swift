import ChangeLog
import NIOCore
import NIOSSL
import PostgresNIO

/// A failure of the PostgreSQL engine itself: connecting, authenticating, a statement the
/// server refused, a connection lost. It keeps the server's SQLSTATE and message (never the
/// password, which no statement holds).
struct PostgresEngineError: StorageEngineError, CustomStringConvertible {
    /// What failed, as in "connecting to postgres://app@db:5432/logs?log=orders".
    var what: String
    /// The server's or the client's account of the failure.
    var reason: String
    /// The server's SQLSTATE, when the server answered.
    var sqlState: String?
    /// Whether the connection was lost or refused (the operation may be retried once it is back).
    var isConnectionFailure: Bool = false

    var engineName: String { "PostgreSQL" }
    var reportsDamage: Bool { false }
    /// A lost or refused connection may pass: the server restarts, the network comes back.
    var isTransient: Bool { isConnectionFailure }
    var description: String { reason }

    func changeLogError(path: String, revision: UInt64?, during operation: String) -> ChangeLogError {
        ChangeLogError(
            code: .storage, message: "the PostgreSQL log \(path) failed while \(operation) it: \(reason)",
            revision: revision, path: path, cause: self)
    }

    /// This error with `note` after its reason, as in "the connection was closed: nothing was
    /// committed".
    func adding(_ note: String) -> PostgresEngineError {
        var error = self
        error.reason += ": " + note
        return error
    }

    /// The error for `error`, thrown while doing `what`: the server's message and SQLSTATE, or
    /// the client's account of a connection or TLS failure, in one line.
    static func from(_ error: any Error, while what: String, address: PostgresLogAddress) -> PostgresEngineError {
        if let error = error as? PostgresEngineError { return error }
        guard let error = error as? PSQLError else {
            return PostgresEngineError(what: what, reason: Self.describe(error), isConnectionFailure: true)
        }
        if let state = error.serverInfo?[.sqlState] {
            let message = error.serverInfo?[.message] ?? "the server refused"
            let reason: String
            switch state {
            case "28P01", "28000":
                reason = "the server refused the role \(address.user): wrong password or no access (\(message))"
            case "3D000":
                reason = "the database \(address.database) does not exist (\(message))"
            case "42501":
                reason = "permission denied (\(message)); a read-only role opens the log with readOnly"
            default:
                reason = "\(message) (SQLSTATE \(state))"
            }
            // Class 08 is a connection exception; 57P01 to 57P03 are the server shutting down,
            // crashing or still starting (a terminated backend gets 57P01): each ends the
            // connection, and a new one may work.
            return PostgresEngineError(
                what: what, reason: reason, sqlState: state,
                isConnectionFailure: state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state))
        }
        let reason: String
        switch error.code {
        case .sslUnsupported:
            reason = "the server does not offer TLS, and sslmode=\(address.tlsMode.rawValue) requires it"
        case .authMechanismRequiresPassword:
            reason =
                "the server asks for a password for \(address.user): give it in the URL, PGPASSWORD or a password file"
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            reason = "the connection to \(address.host):\(address.port) was closed"
        case .connectionError:
            reason =
                "cannot connect to \(address.host):\(address.port): \(error.underlying.map(describe) ?? "connection failed")"
        case .failedToAddSSLHandler:
            reason = "cannot set up TLS: \(error.underlying.map(describe) ?? "unknown reason")"
        default:
            reason = "\(error.code)\(error.underlying.map { ": " + describe($0) } ?? "")"
        }
        return PostgresEngineError(what: what, reason: reason, isConnectionFailure: true)
    }

    /// One line for an error of NIO or of TLS.
    static func describe(_ error: any Error) -> String {
        if let error = error as? NIOSSLError {
            switch error {
            case .handshakeFailed(let reason): return "the TLS handshake failed (\(reason))"
            default: return "TLS failed (\(error))"
            }
        }
        if let error = error as? PostgresEngineError { return error.reason }
        if let error = error as? PSQLError { return String(reflecting: error) }
        return String(describing: error)
    }
}
