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

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
        guard maxBuffer > 0 else { throw ValidationError("--max-buffer must be a positive number of bytes") }
        let exposure = ServerConfiguration(host: host, token: tokenFile == nil ? nil : "given")
        do {
            try exposure.validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        try await failingWithBadInput {
            let token = try tokenFile.map(Self.readToken(from:))
            let log = try logOptions.openExisting()
            let server = LogServer(
                log: log,
                configuration: ServerConfiguration(
                    host: host, port: port, token: token, subscriberBufferLimit: maxBuffer))
            try await server.run { url in
                StandardOutput.writeLine("listening on \(url)")
                try? StandardOutput.flush()
            }
        }
    }

    /// The token in `path`, without surrounding white space.
    /// - Throws: ``InputError`` when the file cannot be read or holds no token.
    static func readToken(from path: String) throws -> String {
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
