import ChangeLog
import Hummingbird
import ListFormat

/// `GET /api/items/{id}/history`, `GET /api/sections/{title}/history` (an item's or a section's
/// events), `GET /api/items?search=TEXT&limit=N` (items ever stored) and
/// `GET /api/compare?from=R1&to=R2` (the changes between two revisions).
enum HistoryRoutes {
    /// The most items `/api/items` answers at once.
    static let maxItems = 1000

    static func register(on router: Router<BasicRequestContext>, log: ChangeLog) {
        router.get("/api/items/:id/history") { request, context in
            let id = try QueryParameters.segment(context.parameters.get("id"), name: "id")
            return try await log.reading { try history(of: .item(id), request: request, log: log) }
        }
        router.get("/api/sections/:title/history") { request, context in
            let title = try QueryParameters.segment(context.parameters.get("title"), name: "title")
            return try await log.reading { try history(of: .section(title), request: request, log: log) }
        }
        router.get("/api/items") { request, _ in
            try await log.reading { try items(request: request, log: log) }
        }
        router.get("/api/compare") { request, _ in
            try await log.reading { try compare(request: request, log: log) }
        }
    }

    /// `{"id": "...", "events": [...]}` (or `"title"` for a section).
    static func history(of subject: HistorySubject, request: Request, log: ChangeLog) throws -> Response {
        let filters = try QueryParameters.filters(request)
        let range = try QueryParameters.range(request, in: log)
        let events = try range.map { try log.history(of: subject, in: $0, where: filters).events } ?? []
        var bytes: [UInt8] = []
        switch subject {
        case .item(let id):
            bytes += Array(#"{"id":"#.utf8)
            JSONWriter.appending(to: &bytes) { $0.string(id) }
        case .section(let title):
            bytes += Array(#"{"title":"#.utf8)
            JSONWriter.appending(to: &bytes) { $0.string(title) }
        }
        bytes += Array(#","events":["#.utf8)
        for (index, event) in events.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            event.appendJSON(to: &bytes)
        }
        bytes += Array("]}\n".utf8)
        return json(bytes)
    }

    /// `{"items": [{"id": "...", "firstRevision": F, "lastRevision": L}, ...]}`.
    static func items(request: Request, log: ChangeLog) throws -> Response {
        let search = request.uri.queryParameters.get("search") ?? ""
        var limit = 50
        if let text = request.uri.queryParameters.get("limit") {
            guard let value = Int(text), (1...maxItems).contains(value),
                text.utf8.allSatisfy({ (48...57).contains($0) })
            else {
                let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
                throw APIError.badRequest("limit must be a number from 1 to \(maxItems), not '\(shown)'")
            }
            limit = value
        }
        var bytes = Array(#"{"items":["#.utf8)
        for (index, item) in try log.items(containing: search, limit: limit).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array(#"{"id":"#.utf8)
            JSONWriter.appending(to: &bytes) { $0.string(item.id) }
            bytes += Array(#","firstRevision":\#(item.firstRevision),"lastRevision":\#(item.lastRevision)}"#.utf8)
        }
        bytes += Array("]}\n".utf8)
        return json(bytes)
    }

    /// `{"from": R1, "to": R2, "changes": {...}}`: the changes that take R1's snapshot to R2's.
    static func compare(request: Request, log: ChangeLog) throws -> Response {
        let names = ["from", "to"]
        var revisions: [UInt64] = []
        for name in names {
            guard let revision = try RevisionParameters.parse(request.uri.queryParameters.get(name), name: name) else {
                throw APIError.badRequest("\(name) is needed: /api/compare?from=R1&to=R2")
            }
            revisions.append(revision)
        }
        let latest = try log.latestRevision
        let first = latest == 0 ? 0 : try log.firstRevision
        for revision in revisions where latest == 0 || !(first...latest).contains(revision) {
            throw APIError.notFound(
                "revision \(revision) is not in the log: \(RevisionParameters.holdings(first: first, latest: latest))")
        }
        let changes = try log.snapshot(at: revisions[0]).changes(to: try log.snapshot(at: revisions[1]))
        let body = #"{"from":\#(revisions[0]),"to":\#(revisions[1]),"changes":\#(changes.formatJSON())}"# + "\n"
        return json(Array(body.utf8))
    }

    private static func json(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
