import ChangeLog
import Hummingbird
import Logging

/// The HTTP face of a `ChangeLog`: read-only routes for its revisions and Server-Sent Events
/// that follow it live. It never appends.
///
/// The routes, their answers and errors are a contract: <doc:HTTP> describes each with an
/// example.
///
/// ```swift
/// let server = LogServer(log: log, configuration: ServerConfiguration(port: 0))
/// try await server.run { url in print("listening on \(url)") }
/// ```
public struct LogServer: Sendable {
    /// The log served.
    public let log: ChangeLog
    /// How the server listens and paces its streams.
    public let configuration: ServerConfiguration

    /// Creates a server for `log`; nothing listens until ``run(onListening:)``.
    public init(log: ChangeLog, configuration: ServerConfiguration = ServerConfiguration()) {
        self.log = log
        self.configuration = configuration
    }

    /// The router with every route and the server's middleware: the security headers on every
    /// response (see <doc:HTTP>), `HEAD` answered as `GET` without the body, JSON errors,
    /// the `Host` check (421 for a name that is not this server's, when
    /// ``ServerConfiguration/allowedHosts`` says it applies), request limits, the bearer token
    /// when ``ServerConfiguration/token`` is set (every route needs it but the viewer's page at
    /// `/` and its style sheet and scripts under `/viewer/`, which hold no log data; the page asks
    /// for the token itself), then 405 for any method but `GET` and `HEAD`.
    ///
    /// A route may set its own `Content-Security-Policy`; every other response gets
    /// `default-src 'none'; frame-ancestors 'none'`.
    ///
    /// The router's event streams share the log's one reading of its live revisions (with the
    /// log's own subscriptions), which runs only while something follows it, and encode each
    /// live revision once per kind of stream.
    public func router() -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: HeadWithoutBodyMiddleware())
        router.add(middleware: JSONErrorMiddleware())
        if configuration.checksHost {
            router.add(middleware: HostCheckMiddleware(allowed: configuration.allowedHosts))
        }
        router.add(middleware: RequestLimitsMiddleware(maxTargetLength: configuration.maxRequestTargetLength))
        if let token = configuration.token, !token.isEmpty {
            router.add(middleware: BearerTokenMiddleware(token: token, openPaths: ViewerFiles.openPaths))
        }
        router.add(middleware: GetOnlyMiddleware())
        LogRoute.register(on: router, log: log)
        RevisionRoutes.register(on: router, log: log, batchSize: configuration.batchSize)
        HistoryRoutes.register(on: router, log: log)
        SubscribeRoute.register(on: router, events: LiveEvents(log: log), configuration: configuration)
        ViewerRoute.register(on: router)
        return router
    }

    /// The application: the router on an HTTP/1.1 server bound to the configured host and port,
    /// whose connections are bounded in number (``ServerConfiguration/maxConnections``) and in
    /// the time they may keep the server waiting (``ServerConfiguration/idleTimeout``,
    /// ``ServerConfiguration/requestHeadTimeout``, ``ServerConfiguration/requestBodyTimeout``,
    /// ``ServerConfiguration/stalledClientTimeout``).
    ///
    /// - Parameter onListening: called once the server listens, with its URL (the actual port
    ///   when the configuration asked for port 0).
    /// - Throws: ``LogServerError`` when the configuration is refused
    ///   (``ServerConfiguration/validate()``).
    public func application(
        onListening: @escaping @Sendable (String) async -> Void = { _ in }
    ) throws(LogServerError) -> some ApplicationProtocol {
        try configuration.validate()
        var logger = Logger(label: "replay-serve")
        logger.logLevel = .warning
        let host = configuration.host
        let stallTimeout = configuration.stalledClientTimeout
        let registry = ConnectionRegistry(limit: configuration.maxConnections, logger: logger)
        let timeouts = RequestDeadlineHandler.Timeouts(
            idle: .init(configuration.idleTimeout), head: .init(configuration.requestHeadTimeout),
            body: .init(configuration.requestBodyTimeout))
        return Application(
            router: router(),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [
                        SecurityHeadersHandler(), RequestDeadlineHandler(timeouts: timeouts, registry: registry),
                        StalledConnectionHandler(timeout: stallTimeout),
                    ],
                    httpDecoderConfiguration: .init(
                        maxHeaderFieldSize: configuration.maxRequestHeaderBytes,
                        maxHeaderListSize: configuration.maxRequestHeaderBytes, maxHeaderFieldCount: 100))),
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: configuration.port), serverName: nil, backlog: 1024,
                availableConnectionsDelegate: registry.delegate),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
                await onListening("http://\(shownHost):\(port)/")
            },
            logger: logger)
    }

    /// Serves until the process receives SIGINT or SIGTERM, then closes every event stream (each
    /// with a final comment) and returns.
    ///
    /// - Parameter onListening: called once the server listens, with its URL.
    /// - Throws: ``LogServerError`` when the configuration is refused; the server's error when
    ///   it cannot bind.
    public func run(onListening: @escaping @Sendable (String) async -> Void = { _ in }) async throws {
        try await application(onListening: onListening).runService()
    }
}
