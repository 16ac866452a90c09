import Hummingbird

/// `GET /`: the history viewer (``ViewerPage/servedPage``), and `GET /viewer/…`: its style
/// sheet and scripts, all from the binary itself, each with an entity tag (`If-None-Match`
/// answers `304 Not Modified`) and the viewer's ``ViewerPage/contentSecurityPolicy``.
enum ViewerRoute {
    static func register(on router: Router<BasicRequestContext>) {
        for file in ViewerFiles.all {
            router.get(RouterPath(file.path)) { request, _ in response(for: file, to: request) }
        }
    }

    static func response(for file: ViewerFile, to request: Request) -> Response {
        var headers: HTTPFields = [
            .contentType: file.contentType, .cacheControl: "no-cache", .eTag: file.entityTag,
            .contentSecurityPolicy: ViewerPage.contentSecurityPolicy,
        ]
        if let condition = request.headers[.ifNoneMatch], file.isMatched(byIfNoneMatch: condition) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
