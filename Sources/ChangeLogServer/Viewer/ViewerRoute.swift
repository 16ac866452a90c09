import Hummingbird

/// `GET /`: the history viewer (``ViewerPage/servedPage``), from the binary itself.
enum ViewerRoute {
    static func register(on router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-cache",
                    // The page's own policy, which its inline script and style satisfy; every other
                    // response gets the server's default, which allows nothing.
                    .contentSecurityPolicy:
                        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                        + "connect-src 'self'; base-uri 'none'; frame-ancestors 'none'",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: ViewerPage.servedPage)))
        }
    }
}
