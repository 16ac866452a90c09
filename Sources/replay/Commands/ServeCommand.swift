import ArgumentParser
import ChangeLog
import ChangeLogServer
import Foundation

/// `replay serve`: the log's revisions over HTTP, and live ones as Server-Sent Events.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a log's revisions over HTTP, live ones as Server-Sent Events, until interrupted.",
        discussion: """
            Read-only: the server never appends. It prints the URL it listens on (with --port 0, \
            the port the system chose), and on SIGINT or SIGTERM closes every stream and exits 0.

            Routes: GET / (the history viewer), /api/log, /api/revisions/R, \
            /api/revisions?from=R&to=S (JSON Lines), /api/subscribe?from=R (Server-Sent Events; \
            changes-only=1 leaves out snapshots).

            Listening on anything but loopback needs --token-file: a file holding the token \
            that clients send as 'Authorization: Bearer <token>'. Every route needs it but the \
            viewer's page, which asks for it: open http://HOST:PORT/#token=<token> to skip the \
            question.

            Bound to loopback, the server answers only requests whose Host is a loopback name or \
            address (localhost, 127.0.0.1, [::1]), so that a web page cannot read the log through \
            a name it makes resolve to this machine; others get 421. --allowed-host NAME adds a \
            name (and, off loopback, turns the check on).

            Connections are bounded: one that sends nothing is closed after --idle-timeout \
            seconds (30), one that takes longer than 10 seconds to send a request's head, or \
            the rest of the request, is closed, and one that takes nothing for 30 seconds while \
            data waits for it is reset. At most --max-connections are open (by default below \
            the limit of open files, ulimit -n); at the limit each new connection closes the one \
            idle the longest, and the server says once, on standard error, that it was reached.

            Every response carries Content-Security-Policy, X-Content-Type-Options, \
            X-Frame-Options, Referrer-Policy and Cross-Origin-Resource-Policy headers.

            Examples:
              replay serve --log app.lmdb
              replay serve --host 0.0.0.0 --port 8080 --token-file token.txt
            """
    )

    @OptionGroup var logOptions: LogOptions

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The TCP port; 0 lets the system choose one.", valueName: "port"))
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "A file holding the bearer token clients must send (required off loopback).", valueName: "file"))
    var tokenFile: String?

    @Option(
        help: ArgumentHelp(
            "The most bytes of live events that may wait for one subscriber; a subscriber that falls further behind "
                + "has its stream closed, with a final comment saying why.",
            valueName: "bytes"))
    var maxBuffer = ServerConfiguration().subscriberBufferLimit

    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "A name the Host header may carry besides the loopback ones (repeatable); a port is ignored.",
            valueName: "name"))
    var allowedHosts: [String] = []

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may stay open without sending a request before it is closed.",
            valueName: "seconds"))
    var idleTimeout: Double = 30

    @Option(
        help: ArgumentHelp(
            "The most connections open at once (default: the limit of open files, ulimit -n, less an eighth).",
            valueName: "count"))
    var maxConnections: Int?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
        guard maxBuffer > 0 else { throw ValidationError("--max-buffer must be a positive number of bytes") }
        guard idleTimeout.isFinite, idleTimeout > 0, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be a number of seconds above 0 and at most 86400")
        }
        if let maxConnections, maxConnections <= 0 {
            throw ValidationError("--max-connections must be a positive number")
        }
        let exposure = ServerConfiguration(
            host: host, token: tokenFile == nil ? nil : "given", allowedHosts: allowedHosts)
        do {
            try exposure.validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        try await failingWithBadInput(onCommandThreads: false) {
            let token = try tokenFile.map(Self.readToken(from:))
            let log = try logOptions.openExisting()
            let server = LogServer(
                log: log,
                configuration: ServerConfiguration(
                    host: host, port: port, token: token, subscriberBufferLimit: maxBuffer,
                    idleTimeout: .milliseconds(Int64((idleTimeout * 1000).rounded(.up))),
                    maxConnections: maxConnections, allowedHosts: allowedHosts))
            try await server.run { url in
                StandardOutput.writeLine("listening on \(url)")
                try? StandardOutput.flush()
            }
        }
    }

    /// The shortest token accepted without a warning.
    static let shortToken = 16

    /// The token in `path`, without surrounding white space. Warns, on standard error, when the
    /// token is shorter than ``shortToken`` characters (easy to guess) or the file may be read by
    /// other users than its owner; serves with it all the same, as a short token in a private
    /// file is the user's choice to make on a trusted network.
    /// - Throws: ``InputError`` when the file cannot be read or holds no token.
    static func readToken(from path: String) throws -> String {
        let token = try readTokenText(from: path)
        if token.count < shortToken {
            printError(
                "warning: the token in \(path) is \(token.count) character\(token.count == 1 ? "" : "s") long, "
                    + "which can be guessed; use at least \(shortToken) random characters "
                    + "(openssl rand -hex 32 > \(path))")
        }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
            mode & 0o077 != 0
        {
            printError(
                "warning: the token file \(path) may be read by other users (mode \(String(mode & 0o777, radix: 8))); "
                    + "chmod 600 \(path)")
        }
        return token
    }

    private static func readTokenText(from path: String) throws -> String {
        // Not FileManager.contents(atPath:), which answers nil for an empty file as for a missing one.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
            throw InputError("cannot read the token file \(path)")
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, !token.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw InputError("the token file \(path) must hold one token: no spaces, not empty")
        }
        return token
    }
}
