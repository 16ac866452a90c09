import ChangeLog
import Foundation
import Hummingbird

/// Reads the history routes' parameters and the questions every range route accepts: `since`
/// and `until` (times), `where` (metadata conditions). A bad one is a 400 naming it.
enum QueryParameters {
    /// The `where` conditions of `request`, each `key=value` or `key~substring`.
    static func filters(_ request: Request) throws(APIError) -> [MetaFilter] {
        var filters: [MetaFilter] = []
        for condition in request.uri.queryParameters.getAll("where") {
            do {
                filters.append(try MetaFilter(parsing: condition))
            } catch {
                throw .badRequest("where: \(error.message)")
            }
        }
        return filters
    }

    /// The `since` and `until` times of `request`, in milliseconds since 1970.
    static func times(_ request: Request) throws(APIError) -> (since: Int64?, until: Int64?) {
        let now = TimeExpression.now
        func time(_ name: String) throws(APIError) -> Int64? {
            guard let text = request.uri.queryParameters.get(name) else { return nil }
            do {
                return try TimeExpression.milliseconds(parsing: text, now: now)
            } catch {
                throw .badRequest("\(name): \(error.message)")
            }
        }
        let times = (since: try time("since"), until: try time("until"))
        if let since = times.since, let until = times.until, since > until {
            throw .badRequest("since is after until")
        }
        return times
    }

    /// A path segment with its percent-encoding removed (`a%2Fb` is `a/b`).
    static func segment(_ raw: String?, name: String) throws(APIError) -> String {
        guard let raw, let decoded = raw.removingPercentEncoding else {
            throw .badRequest("the \(name) in the path is not percent-encoded UTF-8")
        }
        return decoded
    }

    /// The revisions `request` asks for: `from` and `to` (each must be held: 404 otherwise),
    /// narrowed to the times `since` and `until`; `nil` when none is left or the log is empty.
    static func range(_ request: Request, in log: ChangeLog) throws -> ClosedRange<UInt64>? {
        let from = try RevisionParameters.parse(request.uri.queryParameters.get("from"), name: "from")
        let to = try RevisionParameters.parse(request.uri.queryParameters.get("to"), name: "to")
        if let from, let to, from > to { throw APIError.badRequest("from (\(from)) is after to (\(to))") }
        let (since, until) = try times(request)
        let latest = try log.latestRevision
        let first = latest == 0 ? 0 : try log.firstRevision
        for bound in [from, to].compactMap({ $0 }) where latest == 0 || !(first...latest).contains(bound) {
            throw APIError.notFound(
                "revision \(bound) is not in the log: \(RevisionParameters.holdings(first: first, latest: latest))")
        }
        guard latest > 0 else { return nil }
        let range = (from ?? first)...(to ?? latest)
        if since == nil && until == nil { return range }
        return try log.revisions(since: since, until: until, within: range)
    }
}
