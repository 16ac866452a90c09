import Hummingbird

/// Refuses oversized requests before any route runs: a request target longer than the limit
/// (414), and any request body (413), since every route is a `GET` that takes none.
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    var maxTargetLength: Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.uri.description.utf8.count > maxTargetLength {
            throw APIError(status: .uriTooLong, message: "the request target is longer than \(maxTargetLength) bytes")
        }
        let declaredLength = request.headers[.contentLength].flatMap { Int($0) } ?? 0
        if declaredLength > 0 || request.headers[.transferEncoding] != nil {
            throw APIError(status: .contentTooLarge, message: "requests to this server take no body")
        }
        return try await next(request, context)
    }
}
