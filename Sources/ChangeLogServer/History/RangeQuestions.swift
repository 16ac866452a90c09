import ChangeLog
import Hummingbird

/// `GET /api/revisions` with `since`, `until` or `where`: the revisions of the range appended
/// in that time and whose annotations satisfy every condition, streamed as the plain range is.
enum RangeQuestions {
    /// Whether `request` asks by time or metadata.
    static func asked(by request: Request) -> Bool {
        let parameters = request.uri.queryParameters
        return parameters.has("since") || parameters.has("until") || parameters.has("where")
    }

    /// The revision lines asked for; 404 for a `from` or `to` not held, 400 for a bad parameter.
    static func range(_ log: ChangeLog, request: Request, batchSize: Int) throws -> Response {
        let filters = try QueryParameters.filters(request)
        let range = try QueryParameters.range(request, in: log)
        var body = ResponseBody()
        if let range {
            let records = log.records(in: range, batchSize: batchSize).filter {
                MetaFilter.all(filters, match: $0.meta)
            }
            let changesOnly = ChangesOnly.requested(by: request)
            body = ResponseBody { writer in
                try await RevisionRangeStream.write(
                    records, changesOnly: changesOnly, queueCapacity: batchSize, to: &writer)
            }
        }
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: body)
    }
}
