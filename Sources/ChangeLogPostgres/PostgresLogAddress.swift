import ChangeLog
import Foundation

/// Where a log lives on PostgreSQL, as a URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE?log=NAME`
/// (also `postgresql://`), as libpq spells it.
///
/// - The password comes from the URL, else from `PGPASSWORD`, else from a password file
///   (`passwordFile`, `--password-file` for the tool). It is never shown: ``description``
///   and every error name the URL without it.
/// - `log=NAME` names the log in the database (many logs share one database); `default` when
///   absent. A name is 1 to 200 characters.
/// - `sslmode=disable|prefer|require|verify-ca|verify-full` as libpq: `disable` never uses TLS,
///   `prefer` (the default, as libpq's) tries TLS and falls back to plain TCP, `require`
///   insists on TLS without checking the certificate, `verify-ca` and `verify-full` check it
///   against the system's trust roots or `sslrootcert=FILE` (`verify-full` also checks the host
///   name).
/// - `connect_timeout=SECONDS` bounds connecting (10 by default).
/// - `application_name=NAME` names the log's connections in the server's `pg_stat_activity`
///   (`ChangeLog` by default), so that an administrator can tell them apart.
public struct PostgresLogAddress: Sendable, Hashable, CustomStringConvertible {
    /// TLS as libpq's `sslmode` spells it.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, plain TCP otherwise.
        case prefer
        /// TLS, the certificate unchecked.
        case require
        /// TLS, the certificate checked against the trust roots, not the host name.
        case verifyCA = "verify-ca"
        /// TLS, the certificate checked against the trust roots and the host name.
        case verifyFull = "verify-full"
    }

    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The role to connect as.
    public var user: String
    /// The role's password, when one was given; never printed.
    public var password: String?
    /// The database.
    public var database: String
    /// The log's name in the database.
    public var logName: String
    /// How TLS is used.
    public var tlsMode: TLSMode
    /// The certificate authorities to trust instead of the system's (`sslrootcert=`).
    public var rootCertificateFile: String?
    /// The longest connecting may take, in seconds.
    public var connectTimeout: Int
    /// The name the connections give the server (`application_name`), `ChangeLog` by default.
    public var applicationName: String

    /// Whether `string` is a PostgreSQL URL (`postgres://` or `postgresql://`): such a string
    /// is never taken for a path.
    public static func isPostgresURL(_ string: String) -> Bool {
        let lowered = string.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// Reads `url`, taking the password from the URL, else from `environment["PGPASSWORD"]`,
    /// else from the first line of `passwordFile`.
    ///
    /// - Throws: `ChangeLogError.Code.invalidArgument` naming the URL without its password:
    ///   not a PostgreSQL URL, no host, no user, no database, a bad port, log name, `sslmode`
    ///   or parameter; an unreadable password file.
    public init(
        url: String, passwordFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ChangeLogError) {
        let shown = Self.redacted(url)
        func invalid(_ why: String) -> ChangeLogError {
            ChangeLogError(
                code: .invalidArgument, message: "\(shown) is not a PostgreSQL log's URL: \(why)", path: shown)
        }
        guard Self.isPostgresURL(url), let components = URLComponents(string: url) else {
            throw invalid("write postgres://USER@HOST:PORT/DATABASE?log=NAME")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("it names no host") }
        guard let user = components.user, !user.isEmpty else { throw invalid("it names no user (USER@HOST)") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw invalid("it names no database (postgres://USER@HOST:PORT/DATABASE)")
        }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        self.port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw invalid("the port \(port) is not from 1 to 65535") }
        self.user = user
        self.database = database
        logName = "default"
        tlsMode = .prefer
        rootCertificateFile = nil
        connectTimeout = 10
        applicationName = "ChangeLog"
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "log":
                guard (1...200).contains(value.count), !value.utf8.contains(0) else {
                    throw invalid("the log name must be 1 to 200 characters")
                }
                logName = value
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw invalid(
                        "sslmode=\(value) is none of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tlsMode = mode
            case "sslrootcert":
                rootCertificateFile = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds > 0 else {
                    throw invalid("connect_timeout=\(value) is not a positive number of seconds")
                }
                connectTimeout = seconds
            case "application_name":
                guard (1...63).contains(value.utf8.count), !value.utf8.contains(0) else {
                    throw invalid("the application name must be 1 to 63 bytes")
                }
                applicationName = value
            case "password": continue
            default:
                throw invalid(
                    "the parameter \(item.name) is not one of log, sslmode, sslrootcert, connect_timeout, "
                        + "application_name")
            }
        }
        if let password = components.password, !password.isEmpty {
            self.password = password
        } else if let password = components.queryItems?.first(where: { $0.name == "password" })?.value {
            self.password = password
        } else if let password = environment["PGPASSWORD"], !password.isEmpty {
            self.password = password
        } else if let passwordFile {
            guard let text = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                throw ChangeLogError(
                    code: .invalidArgument, message: "cannot read the password file \(passwordFile)", path: shown)
            }
            self.password = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        } else {
            self.password = nil
        }
    }

    /// The URL without its password, as every message shows it.
    public var description: String {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = user
        components.host = host.contains(":") ? "[\(host)]" : host
        components.port = port
        components.path = "/" + database
        var items = [URLQueryItem(name: "log", value: logName)]
        if tlsMode != .prefer { items.append(URLQueryItem(name: "sslmode", value: tlsMode.rawValue)) }
        if let rootCertificateFile { items.append(URLQueryItem(name: "sslrootcert", value: rootCertificateFile)) }
        if applicationName != "ChangeLog" {
            items.append(URLQueryItem(name: "application_name", value: applicationName))
        }
        components.queryItems = items
        return components.string ?? "postgres://\(user)@\(host):\(port)/\(database)?log=\(logName)"
    }

    /// `url` with its password, if any, replaced by `***`, whatever else is wrong with it.
    public static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://"),
            let at = url[schemeEnd.upperBound...].firstIndex(of: "@")
        else {
            return redactingPasswordParameter(url)
        }
        let credentials = url[schemeEnd.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return redactingPasswordParameter(url) }
        return redactingPasswordParameter(
            String(url[..<colon]) + ":***" + String(url[at...]))
    }

    private static func redactingPasswordParameter(_ url: String) -> String {
        guard let range = url.range(of: "password=") else { return url }
        let end = url[range.upperBound...].firstIndex(of: "&") ?? url.endIndex
        return String(url[..<range.upperBound]) + "***" + String(url[end...])
    }
}
