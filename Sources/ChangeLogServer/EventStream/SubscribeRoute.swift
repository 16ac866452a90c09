import ChangeLog
import Hummingbird
import ServiceLifecycle

/// `GET /api/subscribe?from=R`: the revisions from R as Server-Sent Events, stored ones first,
/// then live ones as any process appends them. `Last-Event-ID: N` resumes at N+1 and wins over
/// `from`; without either the stream starts at the oldest revision.
enum SubscribeRoute {
    static func register(on router: Router<BasicRequestContext>, log: ChangeLog, configuration: ServerConfiguration) {
        router.get("/api/subscribe") { request, _ in
            try subscribe(request, log: log, configuration: configuration)
        }
    }

    static func subscribe(_ request: Request, log: ChangeLog, configuration: ServerConfiguration) throws -> Response {
        let start = try startRevision(of: request, log: log)
        let changesOnly = ChangesOnly.requested(by: request)
        let headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-cache",
            HTTPFields.Element.Name("X-Accel-Buffering")!: "no",
        ]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await stream(log, from: start, changesOnly: changesOnly, configuration: configuration, to: &writer)
            })
    }

    /// The first revision to send: after `Last-Event-ID`, else `from`, else the oldest.
    /// - Throws: ``APIError``: 400 for a value that is not a revision number, 404 when the start
    ///   was dropped from the log.
    static func startRevision(of request: Request, log: ChangeLog) throws -> UInt64 {
        let start: UInt64
        if let lastEventID = request.headers[HTTPFields.Element.Name("Last-Event-ID")!] {
            guard let delivered = UInt64(lastEventID) else {
                throw APIError.badRequest("Last-Event-ID must be a revision number, not '\(lastEventID.prefix(40))'")
            }
            start = delivered + 1
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
    /// saying why, when the client can still receive it.
    static func stream(
        _ log: ChangeLog, from start: UInt64, changesOnly: Bool, configuration: ServerConfiguration,
        to writer: inout any ResponseBodyWriter
    ) async throws {
        let buffer = SubscriberBuffer(limit: configuration.subscriberBufferLimit)
        _ = buffer.push(ServerSentEvents.retry(configuration.retryInterval), overflowComment: ByteBuffer())
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await produce(log, from: start, changesOnly: changesOnly, into: buffer) }
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

    /// Reads the log's subscription into `buffer` until it ends or is closed: the stored
    /// revisions as fast as the subscriber takes them, live ones as they come, closing the stream
    /// when more than the buffer's limit of them waits for the subscriber.
    static func produce(_ log: ChangeLog, from start: UInt64, changesOnly: Bool, into buffer: SubscriberBuffer) async {
        let limit = buffer.limit
        var live = false
        do {
            for try await event in log.subscribe(from: start) {
                let record: RevisionRecord
                switch event {
                case .caughtUp:
                    live = true
                    continue
                case .revision(let revision): record = revision
                }
                let line = changesOnly ? RevisionLines.changesOnlyLine(record) : RevisionLines.line(record)
                let message = ServerSentEvents.revision(record.revision, line: line)
                let pushed =
                    live
                    ? buffer.push(
                        message,
                        overflowComment: ServerSentEvents.comment(
                            "closed: this subscriber reads too slowly; more than \(limit) bytes of events were "
                                + "waiting for it; reconnect with Last-Event-ID to resume after the last revision "
                                + "received"))
                    : await buffer.pushWaitingForRoom(message)
                if pushed == .closed { return }
            }
        } catch {
            buffer.finish(comment: ServerSentEvents.comment("closed: the log could not be read: \(error)"))
        }
    }

    /// Sends a keep-alive comment into `buffer` whenever a whole `interval` passed without an event.
    static func keepAlive(_ buffer: SubscriberBuffer, every interval: Duration) async {
        while (try? await Task.sleep(for: interval)) != nil {
            buffer.pushIfIdle(ServerSentEvents.keepAlive)
        }
    }
}
