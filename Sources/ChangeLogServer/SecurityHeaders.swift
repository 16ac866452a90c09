import Hummingbird
import NIOCore
import NIOHTTPTypes

/// The headers every response carries, errors and 401s included, so that a browser neither
/// runs, embeds, sniffs nor hands to other sites what the server sends:
///
/// - `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'`, unless the response
///   has a policy of its own (the viewer's page sets one that its scripts satisfy);
/// - `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`
///   and `Cross-Origin-Resource-Policy: same-origin`, where the response does not set them.
enum SecurityHeaders {
    /// The policy of a response that sets none: nothing may load, nothing may frame it.
    static let defaultContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"

    static let fields: [(HTTPFields.Element.Name, String)] = [
        (HTTPFields.Element.Name.contentSecurityPolicy, defaultContentSecurityPolicy),
        (.xContentTypeOptions, "nosniff"),
        (HTTPFields.Element.Name("X-Frame-Options")!, "DENY"),
        (HTTPFields.Element.Name("Referrer-Policy")!, "no-referrer"),
        (.crossOriginResourcePolicy, "same-origin"),
    ]

    /// Adds each header `headers` lacks.
    static func apply(to headers: inout HTTPFields) {
        for (name, value) in fields where headers[name] == nil {
            headers[name] = value
        }
    }
}

/// Adds ``SecurityHeaders`` to every response of the router, whatever answered: a route, an
/// error, the token's 401. It is the router's outermost middleware.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        SecurityHeaders.apply(to: &response.headers)
        return response
    }
}

/// Adds ``SecurityHeaders`` to every response head written on a connection, including those the
/// router never sees: the 400 that answers a request the HTTP parser refused.
final class SecurityHeadersHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var response) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        SecurityHeaders.apply(to: &response.headerFields)
        context.write(wrapOutboundOut(.head(response)), promise: promise)
    }
}
