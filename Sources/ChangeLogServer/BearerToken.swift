import Hummingbird

/// Lets through only requests that carry `Authorization: Bearer <token>`; others get 401 with
/// `WWW-Authenticate: Bearer`. The comparison takes the same time wherever the tokens differ.
///
/// The one exception is a `GET` of a path in `openPaths`: the viewer's page at `/` and its files
/// hold no log data (the page reads the log through the API routes, with the token), and a
/// browser cannot add a header to the request that opens a page or loads its scripts.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    var token: String
    /// The paths served without the token, compared with the request's path exactly.
    var openPaths: Set<String> = []

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.method == .get, openPaths.contains(request.uri.path) {
            return try await next(request, context)
        }
        let presented = request.headers[.authorization].flatMap(Self.bearerToken(in:))
        guard let presented, Self.constantTimeEqual(presented, token) else {
            throw APIError(
                status: .unauthorized, message: "this server needs a token: send 'Authorization: Bearer <token>'",
                headers: [.wwwAuthenticate: "Bearer"])
        }
        return try await next(request, context)
    }

    /// The token of an `Authorization: Bearer <token>` value: the scheme in any case, then one or
    /// more spaces or tabs (RFC 9110's `1*SP`, as clients write it), then the token.
    static func bearerToken(in value: String) -> String? {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let end = value.firstIndex(where: blank), value[..<end].lowercased() == "bearer" else { return nil }
        let token = value[end...].drop(while: blank)
        return token.isEmpty ? nil : String(token)
    }

    /// Whether `a` and `b` have the same bytes, in a time that depends on their lengths only,
    /// not on where they first differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            let x = index < left.count ? left[index] : 0
            let y = index < right.count ? right[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
