import ChangeLog
import Hummingbird

/// `GET /api/revisions/R` (one revision line, `application/json`) and
/// `GET /api/revisions?from=R&to=S` (revision lines as JSON Lines, streamed).
enum RevisionRoutes {
    static func register(on router: Router<BasicRequestContext>, log: ChangeLog, batchSize: Int) {
        // Each handler reads on the engine's read threads (`ChangeLog.reading`).
        router.get("/api/revisions/:revision") { _, context in
            try await log.reading { try one(log, revision: context.parameters.get("revision")) }
        }
        router.get("/api/revisions") { request, _ in
            try await log.reading { try range(log, request: request, batchSize: batchSize) }
        }
    }

    /// What `GET /api/revisions` answers: the range questions' answer when the request asks one,
    /// else the revision lines of the range.
    static func range(_ log: ChangeLog, request: Request, batchSize: Int) throws -> Response {
        try RangeQuestions.asked(by: request)
            ? RangeQuestions.range(log, request: request, batchSize: batchSize)
            : range(
                log, from: request.uri.queryParameters.get("from"), to: request.uri.queryParameters.get("to"),
                changesOnly: ChangesOnly.requested(by: request), batchSize: batchSize)
    }

    /// The revision line of `text`'s revision; 404 naming what the log holds when it has no such revision.
    static func one(_ log: ChangeLog, revision text: String?) throws -> Response {
        guard let revision = try RevisionParameters.parse(text, name: "the revision") else {
            throw APIError.badRequest("a revision number is needed: /api/revisions/R")
        }
        let latest = try log.latestRevision
        let first = latest == 0 ? 0 : try log.firstRevision
        guard latest > 0, (first...latest).contains(revision) else {
            throw APIError.notFound(
                "revision \(revision) is not in the log: \(RevisionParameters.holdings(first: first, latest: latest))")
        }
        var line: [UInt8] = []
        RevisionLines.append(try log.record(at: revision), changesOnly: false, to: &line)
        line.append(UInt8(ascii: "\n"))
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: line)))
    }

    /// The revision lines from `from` (default: the oldest) to `to` (default: the latest), one
    /// per line, read in batches as the client reads them (``RevisionRangeStream``): memory stays
    /// at about two batches of records and one chunk of lines however long the range. 404 when a
    /// bound is outside the log, 400 when `from` is after `to`.
    static func range(
        _ log: ChangeLog, from fromText: String?, to toText: String?, changesOnly: Bool, batchSize: Int
    ) throws -> Response {
        let from = try RevisionParameters.parse(fromText, name: "from")
        let to = try RevisionParameters.parse(toText, name: "to")
        if let from, let to, from > to { throw APIError.badRequest("from (\(from)) is after to (\(to))") }
        let latest = try log.latestRevision
        let first = latest == 0 ? 0 : try log.firstRevision
        let holdings = RevisionParameters.holdings(first: first, latest: latest)
        var body = ResponseBody()
        if latest > 0 || from != nil || to != nil {
            let lower = from ?? first
            let upper = to ?? latest
            for bound in [lower, upper] where latest == 0 || !(first...latest).contains(bound) {
                throw APIError.notFound("revision \(bound) is not in the log: \(holdings)")
            }
            if changesOnly {
                // No snapshot is written, so none is read.
                let changes = log.changes(in: lower...upper, batchSize: batchSize)
                body = ResponseBody { writer in
                    try await RevisionRangeStream.write(
                        changes, lines: ChangesOnlyLines(), queueCapacity: batchSize, to: &writer)
                }
            } else {
                let records = log.records(in: lower...upper, batchSize: batchSize)
                body = ResponseBody { writer in
                    try await RevisionRangeStream.write(
                        records, changesOnly: false, queueCapacity: batchSize, to: &writer)
                }
            }
        }
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: body)
    }
}

/// The `changes-only=1` query option: revision lines without their snapshots.
enum ChangesOnly {
    /// Whether `request` asks for changes only (`changes-only=1` or `=true`).
    static func requested(by request: Request) -> Bool {
        switch request.uri.queryParameters.get("changes-only") {
        case "1", "true": true
        default: false
        }
    }
}
