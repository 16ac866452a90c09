import Hummingbird

/// Refuses every method but `GET` and `HEAD` with 405 and `Allow: GET, HEAD`, before any route
/// runs: the server is read-only and each of its routes answers `GET` (and `HEAD`, as `GET`
/// without the body), so another method is a client's mistake, not a path the server does not
/// know (which would be 404).
struct GetOnlyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            throw APIError(
                status: .methodNotAllowed,
                message: "method \(request.method.rawValue) is not allowed: this server answers GET and HEAD only",
                headers: [.allow: "GET, HEAD"])
        }
        return try await next(request, context)
    }
}

/// Answers `HEAD` with what `GET` would answer, headers and status, without the body, whatever
/// answered: a route (the router generates a `HEAD` endpoint for each `GET` one) or an error. It
/// is among the router's outermost middleware, so that an error's JSON body is left out too.
struct HeadWithoutBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response = try await next(request, context)
        return request.method == .head ? response.createHeadResponse() : response
    }
}
