import ChangeLog
import Hummingbird
import ServiceLifecycle

/// `GET /api/subscribe?from=R`: the revisions from R as Server-Sent Events, stored ones first,
/// then live ones as any process appends them. `Last-Event-ID: N` resumes at N+1 and wins over
/// `from`; without either the stream starts at the oldest revision.
enum SubscribeRoute {
    /// Adds the route; its streams share `events`, and through it the log's live feed.
    static func register(
        on router: Router<BasicRequestContext>, events: LiveEvents, configuration: ServerConfiguration
    ) {
        router.get("/api/subscribe") { request, _ in
            try await events.log.reading { try subscribe(request, events: events, configuration: configuration) }
        }
    }

    static func subscribe(_ request: Request, events: LiveEvents, configuration: ServerConfiguration) throws
        -> Response
    {
        let start = try startRevision(of: request, log: events.log)
        let variant = EventVariant.requested(by: request)
        let headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-cache",
            HTTPFields.Element.Name("X-Accel-Buffering")!: "no",
        ]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await stream(events, from: start, variant: variant, configuration: configuration, to: &writer)
            })
    }

    /// The first revision to send: after `Last-Event-ID` (unless empty), else `from`, else the oldest.
    /// - Throws: ``APIError``: 400 for a value that is not a revision number, 404 when the start
    ///   was dropped from the log.
    static func startRevision(of request: Request, log: ChangeLog) throws -> UInt64 {
        let start: UInt64
        // An empty value is the standard's "no last event ID" (`id:` with no value resets it).
        if let lastEventID = request.headers[HTTPFields.Element.Name("Last-Event-ID")!], !lastEventID.isEmpty {
            guard let delivered = UInt64(lastEventID) else {
                throw APIError.badRequest("Last-Event-ID must be a revision number, not '\(lastEventID.prefix(40))'")
            }
            // Revision numbers never reach UInt64.max; a client's claim to have it waits forever.
            start = delivered == .max ? .max : delivered + 1
        } else {
            start = try RevisionParameters.parse(request.uri.queryParameters.get("from"), name: "from") ?? 1
        }
        let first = try log.firstRevision
        if start > 1 && start < first {
            let latest = try log.latestRevision
            throw APIError.notFound(
                "revision \(start) was dropped from the log: \(RevisionParameters.holdings(first: first, latest: latest))"
            )
        }
        return start
    }

    /// Writes the event stream until the client goes away, the subscriber falls too far behind,
    /// the log cannot be read, or the server shuts down; each ends the stream with a comment
    /// saying why, when the client can still receive it. Stored revisions are read by the stream
    /// itself, live ones come from the log's feed (``LiveEvents/follow(from:variant:as:into:)``).
    static func stream(
        _ events: LiveEvents, from start: UInt64, variant: EventVariant, configuration: ServerConfiguration,
        to writer: inout any ResponseBodyWriter
    ) async throws {
        let buffer = SubscriberBuffer(limit: configuration.subscriberBufferLimit)
        let member = events.makeMemberID(variant)
        // After the task group: the follow task, which joins, has ended by then.
        defer { events.leave(member, variant) }
        _ = buffer.push(ServerSentEvents.retry(configuration.retryInterval), overflowComment: ByteBuffer())
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await events.follow(from: start, variant: variant, as: member, into: buffer) }
                group.addTask { await keepAlive(buffer, every: configuration.keepAliveInterval) }
                defer { group.cancelAll() }
                while let event = await buffer.next() {
                    try await writer.write(event)
                }
            }
        } onGracefulShutdown: {
            buffer.finish(comment: ServerSentEvents.comment("closed: the server is shutting down"))
        }
        try await writer.finish(nil)
    }

    /// Sends a keep-alive comment into `buffer` whenever a whole `interval` passed without an event.
    static func keepAlive(_ buffer: SubscriberBuffer, every interval: Duration) async {
        while (try? await Task.sleep(for: interval)) != nil {
            buffer.pushIfIdle(ServerSentEvents.keepAlive)
        }
    }
}
