import ChangeLog
import Hummingbird

/// `GET /api/log`: what the log holds, as `{"oldest":F,"latest":L,"revisions":N,"bytesInUse":B}`
/// (`oldest` and `latest` are 0 for an empty log).
enum LogRoute {
    static func register(on router: Router<BasicRequestContext>, log: ChangeLog) {
        router.get("/api/log") { _, _ in try await log.reading { try summary(of: log) } }
    }

    static func summary(of log: ChangeLog) throws -> Response {
        let latest = try log.latestRevision
        let first = latest == 0 ? 0 : try log.firstRevision
        let count = latest == 0 ? 0 : latest - first + 1
        let body = "{\"oldest\":\(first),\"latest\":\(latest),\"revisions\":\(count),\"bytesInUse\":\(log.bytesInUse)}"
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
