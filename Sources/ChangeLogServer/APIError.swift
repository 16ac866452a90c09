import Foundation
import Hummingbird

/// An HTTP error answered as `{"error": "<message>"}` with its status.
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, message: message) }
    static func notFound(_ message: String) -> APIError { APIError(status: .notFound, message: message) }

    /// The JSON response.
    var response: Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// `{"error":"…"}`, the message escaped as JSON.
    var body: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = (try? encoder.encode(["error": message])) ?? Data(#"{"error":"internal error"}"#.utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// Answers every error thrown by the routes, or by the router when no route matches, as JSON:
/// ``APIError`` as it says, Hummingbird's `HTTPError` with its status, anything else as 500
/// without details (which might name files).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let error as HTTPError {
            let message = error.body ?? error.status.reasonPhrase
            var headers = error.headers
            headers[.contentLength] = nil
            return APIError(status: error.status, message: message.lowercased(), headers: headers).response
        } catch {
            context.logger.error("request \(request.uri.path) failed: \(error)")
            return APIError(status: .internalServerError, message: "internal error").response
        }
    }
}
