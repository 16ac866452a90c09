/// How a ``LogServer`` listens, whom it lets in, and how it paces its event streams.
public struct ServerConfiguration: Sendable {
    /// The address to bind: `127.0.0.1` (the default), `::1` or `localhost` keep the server on
    /// this machine; any other address needs a ``token``.
    public var host: String
    /// The TCP port; 0 lets the system choose a free one (``LogServer/run(onListening:)`` says which).
    public var port: Int
    /// The bearer token every request but the viewer's page (`GET /`) must carry
    /// (`Authorization: Bearer <token>`), or `nil` for none. Required when ``host`` is not a
    /// loopback address.
    public var token: String?
    /// How long an event stream may stay silent before the server sends a `: keep-alive` comment
    /// (15 seconds by default), so that proxies and clients do not take it for dead.
    public var keepAliveInterval: Duration
    /// The reconnection delay the server asks event-stream clients to wait, sent as the stream's
    /// `retry:` field (3 seconds by default).
    public var retryInterval: Duration
    /// The most bytes of live events a subscriber may have waiting to be sent (4 MiB by
    /// default; `replay serve --max-buffer`). Stored revisions are read only as fast as the
    /// subscriber takes them; a subscriber that reads live ones more slowly than they are
    /// appended reaches the limit, and its stream is then closed: the events waiting are
    /// dropped, a final comment saying why is sent when the client takes it, and the connection
    /// ends. Other subscribers are unaffected.
    ///
    /// Beside these bytes, a subscriber that does not read holds only what the connection's
    /// write buffer and the kernel's socket buffers hold, and for at most
    /// ``stalledClientTimeout``.
    public var subscriberBufferLimit: Int
    /// How long a client may take nothing while the server has data waiting for it before the
    /// server resets its connection (30 seconds by default). This bounds how long a client that
    /// stopped reading holds its connection and the bytes queued for it, whether its stream is
    /// catching up, live, or closing; a client that reads, however slowly, is never cut off by
    /// it.
    public var stalledClientTimeout: Duration
    /// The longest request target (path and query) accepted, in bytes; a longer one is answered
    /// with 414 (8 KiB by default).
    public var maxRequestTargetLength: Int
    /// The most bytes of request headers accepted, all fields together (16 KiB by default).
    public var maxRequestHeaderBytes: Int
    /// The most revisions read from the log in one read transaction while streaming.
    public var batchSize: Int
    /// How long a connection may stay open without sending a byte of a request (30 seconds by
    /// default; `replay serve --idle-timeout`): counted from when it is accepted, and again from
    /// the end of each response. An idle connection is then closed.
    public var idleTimeout: Duration
    /// How long a client may take to send a request's head (request line and headers) from its
    /// first byte (10 seconds by default). Bytes that trickle in do not extend it: a client that
    /// has not finished its head by then has its connection closed.
    public var requestHeadTimeout: Duration
    /// How long a client may take to send the rest of a request once its head arrived (10 seconds
    /// by default). The routes take no body and refuse one (413); a client that keeps sending one
    /// has its connection closed.
    public var requestBodyTimeout: Duration
    /// The most connections open at once (`replay serve --max-connections`); by default
    /// ``defaultMaxConnections``, below the process's limit of open files. At the limit the
    /// server closes its longest idle connection (one that has no request in progress) to make
    /// room for each new one, or, when every connection has a request in progress, accepts no
    /// more until one closes; the first time it is reached it logs one line saying so.
    public var maxConnections: Int
    /// More names that the `Host` header may carry, besides the loopback names and addresses that
    /// are always accepted (`replay serve --allowed-host NAME`); a port in a name is ignored.
    ///
    /// A server bound to loopback answers only requests whose `Host` is `localhost`, a name
    /// under `.localhost`, an address of 127.0.0.0/8, `[::1]`, or one of these names, and
    /// answers any other with 421: a web page cannot read the log through a name of its own that
    /// it makes resolve to 127.0.0.1 (DNS rebinding). A server bound to another address needs a
    /// ``token``, which a browser never sends on a page's behalf; it checks the `Host` only when
    /// this list is not empty.
    public var allowedHosts: [String]

    /// Creates a configuration; every parameter has the default its property states.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, token: String? = nil,
        keepAliveInterval: Duration = .seconds(15), retryInterval: Duration = .seconds(3),
        subscriberBufferLimit: Int = 4 << 20, stalledClientTimeout: Duration = .seconds(30),
        maxRequestTargetLength: Int = 8 << 10, maxRequestHeaderBytes: Int = 16 << 10, batchSize: Int = 64,
        idleTimeout: Duration = .seconds(30), requestHeadTimeout: Duration = .seconds(10),
        requestBodyTimeout: Duration = .seconds(10), maxConnections: Int? = nil, allowedHosts: [String] = []
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.keepAliveInterval = keepAliveInterval
        self.retryInterval = retryInterval
        self.subscriberBufferLimit = subscriberBufferLimit
        self.stalledClientTimeout = stalledClientTimeout
        self.maxRequestTargetLength = maxRequestTargetLength
        self.maxRequestHeaderBytes = maxRequestHeaderBytes
        self.batchSize = batchSize
        self.idleTimeout = idleTimeout
        self.requestHeadTimeout = requestHeadTimeout
        self.requestBodyTimeout = requestBodyTimeout
        self.maxConnections = maxConnections ?? Self.defaultMaxConnections
        self.allowedHosts = allowedHosts
    }

    /// Whether ``host`` names this machine only: `localhost`, `::1`, or an address of 127.0.0.0/8.
    public var isLoopback: Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Whether requests' `Host` is checked (``allowedHosts``): on loopback always, elsewhere when
    /// names are given.
    var checksHost: Bool { isLoopback || !allowedHosts.isEmpty }

    /// Checks that the configuration is safe to serve: a server reachable from other machines
    /// must require a token.
    ///
    /// - Throws: ``LogServerError`` when ``host`` is not a loopback address and ``token`` is `nil`
    ///   or empty.
    public func validate() throws(LogServerError) {
        if !isLoopback && (token ?? "").isEmpty {
            throw LogServerError(
                "refusing to listen on \(host) without a token: anyone who can reach it could read the log; "
                    + "pass --token-file FILE (clients then send 'Authorization: Bearer <token>'), "
                    + "or listen on 127.0.0.1")
        }
        if keepAliveInterval <= .zero || retryInterval < .zero || subscriberBufferLimit <= 0 || batchSize <= 0
            || stalledClientTimeout <= .zero
        {
            throw LogServerError(
                "the keep-alive interval, stalled-client timeout, buffer limit and batch size must be positive, "
                    + "and the retry interval not negative"
            )
        }
        if idleTimeout <= .zero || requestHeadTimeout <= .zero || requestBodyTimeout <= .zero || maxConnections <= 0 {
            throw LogServerError(
                "the idle, request-head and request-body timeouts and the connection limit must be positive")
        }
        for name in allowedHosts where HostNames.name(ofHost: name).isEmpty {
            throw LogServerError("an allowed host must be a name or an address, not '\(name)'")
        }
    }
}

/// A reason the server cannot start, said in words that tell what to do.
public struct LogServerError: Error, CustomStringConvertible, Sendable {
    /// What went wrong and what to do about it.
    public var description: String

    /// Creates an error with its message.
    public init(_ description: String) {
        self.description = description
    }
}
