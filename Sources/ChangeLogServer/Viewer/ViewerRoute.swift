import Hummingbird

/// `GET /`: the history viewer (``ViewerPage/servedPage``), from the binary itself.
enum ViewerRoute {
    static func register(on router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: ViewerPage.servedPage)))
        }
    }
}
