import Hummingbird

/// Refuses every method but `GET` with 405 and `Allow: GET`, before any route runs: the server
/// is read-only and each of its routes answers `GET` only, so another method is a client's
/// mistake, not a path the server does not know (which would be 404).
struct GetOnlyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get else {
            throw APIError(
                status: .methodNotAllowed,
                message: "method \(request.method.rawValue) is not allowed: this server answers GET only",
                headers: [.allow: "GET"])
        }
        return try await next(request, context)
    }
}
