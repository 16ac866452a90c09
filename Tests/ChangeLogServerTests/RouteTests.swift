import ChangeLog
import ChangeLogServer
import ChangeLogTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct RouteTests {
    private func router(_ log: ChangeLog, token: String? = nil) -> Router<BasicRequestContext> {
        LogServer(log: log, configuration: ServerConfiguration(token: token)).router()
    }

    private func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test func logSummary() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...3, to: log)
            let bytes = log.bytesInUse
            try await Application(router: router(log)).test(.router) { client in
                let response = try await client.execute(uri: "/api/log", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(text(response) == #"{"oldest":1,"latest":3,"revisions":3,"bytesInUse":\#(bytes)}"#)
            }
        }
    }

    @Test func emptyLog() async throws {
        try await ServerFixtures.withLog { log in
            try await Application(router: router(log)).test(.router) { client in
                let summary = try await client.execute(uri: "/api/log", method: .get)
                #expect(text(summary).hasPrefix(#"{"oldest":0,"latest":0,"revisions":0,"#))
                let all = try await client.execute(uri: "/api/revisions", method: .get)
                #expect(all.status == .ok)
                #expect(text(all) == "")
                let one = try await client.execute(uri: "/api/revisions/1", method: .get)
                #expect(one.status == .notFound)
                #expect(text(one) == #"{"error":"revision 1 is not in the log: the log is empty"}"#)
            }
        }
    }

    @Test func oneRevision() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...3, to: log)
            let expected = try log.record(at: 2).jsonLine() + "\n"
            try await Application(router: router(log)).test(.router) { client in
                let response = try await client.execute(uri: "/api/revisions/2", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(text(response) == expected)
                let decoded = try RevisionRecord(jsonLine: Array(expected.utf8.dropLast()))
                #expect(decoded == (try log.record(at: 2)))
            }
        }
    }

    @Test(arguments: [
        (
            "/api/revisions/9", HTTPResponse.Status.notFound,
            #"{"error":"revision 9 is not in the log: the log holds revisions 1 to 3"}"#
        ),
        (
            "/api/revisions/0", .badRequest,
            #"{"error":"the revision must be a revision number (an integer from 1), not '0'"}"#
        ),
        (
            "/api/revisions/abc", .badRequest,
            #"{"error":"the revision must be a revision number (an integer from 1), not 'abc'"}"#
        ),
        (
            "/api/revisions/-1", .badRequest,
            #"{"error":"the revision must be a revision number (an integer from 1), not '-1'"}"#
        ),
        (
            "/api/revisions?from=x", .badRequest,
            #"{"error":"from must be a revision number (an integer from 1), not 'x'"}"#
        ),
        ("/api/revisions?from=3&to=2", .badRequest, #"{"error":"from (3) is after to (2)"}"#),
        (
            "/api/revisions?to=10", .notFound,
            #"{"error":"revision 10 is not in the log: the log holds revisions 1 to 3"}"#
        ),
        (
            "/api/subscribe?from=%2B1", .badRequest,
            #"{"error":"from must be a revision number (an integer from 1), not '+1'"}"#
        ),
        ("/api/nothing", .notFound, #"{"error":"not found"}"#),
        ("/../../etc/passwd", .notFound, #"{"error":"not found"}"#),
    ])
    func errors(uri: String, status: HTTPResponse.Status, body: String) async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...3, to: log)
            try await Application(router: router(log)).test(.router) { client in
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == status)
                #expect(response.headers[.contentType] == "application/json")
                #expect(text(response) == body)
            }
        }
    }

    @Test func rangeAsJSONLines() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...5, to: log)
            let expected = try (2...4).map { try log.record(at: $0).jsonLine() + "\n" }.joined()
            let all = try (1...5).map { try log.record(at: $0).jsonLine() + "\n" }.joined()
            try await Application(router: router(log)).test(.router) { client in
                let response = try await client.execute(uri: "/api/revisions?from=2&to=4", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-ndjson")
                #expect(text(response) == expected)
                #expect(text(try await client.execute(uri: "/api/revisions", method: .get)) == all)
                #expect(
                    text(try await client.execute(uri: "/api/revisions?from=4", method: .get)).hasPrefix(
                        try log.record(at: 4).jsonLine()))
            }
        }
    }

    @Test func changesOnlyLeavesOutSnapshots() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...3, to: log)
            try await Application(router: router(log)).test(.router) { client in
                let response = try await client.execute(uri: "/api/revisions?from=2&changes-only=1", method: .get)
                let lines = text(response).split(separator: "\n")
                #expect(lines.count == 2)
                for (offset, line) in lines.enumerated() {
                    let record = try log.record(at: UInt64(offset + 2))
                    #expect(
                        line == #"{"revision":\#(record.revision),"time":"\#(record.timeString)","meta":"#
                            + #"{"n":"\#(offset + 2)","path":"a/b"},"changes":\#(record.changes.formatJSON())}"#)
                }
            }
        }
    }

    @Test func oversizedRequestsAreRefused() async throws {
        try await ServerFixtures.withLog { log in
            try await Application(router: router(log)).test(.router) { client in
                let long = try await client.execute(
                    uri: "/api/log?padding=" + String(repeating: "x", count: 9000), method: .get)
                #expect(long.status == .uriTooLong)
                #expect(text(long) == #"{"error":"the request target is longer than 8192 bytes"}"#)
                let withBody = try await client.execute(
                    uri: "/api/log", method: .get, body: ByteBuffer(string: "{}"))
                #expect(withBody.status == .contentTooLarge)
                #expect(text(withBody) == #"{"error":"requests to this server take no body"}"#)
            }
        }
    }

    @Test(arguments: [HTTPRequest.Method.post, .put, .delete, .patch, .options])
    func methodsOtherThanGetAreNotAllowed(method: HTTPRequest.Method) async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...3, to: log)
            try await Application(router: router(log, token: "s3cret")).test(.router) { client in
                for uri in ["/api/log", "/api/revisions/1", "/api/revisions", "/api/subscribe", "/"] {
                    let response = try await client.execute(
                        uri: uri, method: method, headers: [.authorization: "Bearer s3cret"])
                    #expect(response.status == .methodNotAllowed)
                    #expect(response.headers[.allow] == "GET, HEAD")
                    #expect(response.headers[.contentType] == "application/json")
                    #expect(
                        text(response)
                            == #"{"error":"method \#(method.rawValue) is not allowed: this server answers GET and HEAD only"}"#
                    )
                }
            }
        }
    }

    @Test func headAnswersAsGetWithoutTheBody() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...3, to: log)
            try await Application(router: router(log, token: "s3cret")).test(.router) { client in
                let bearer: HTTPFields = [.authorization: "Bearer s3cret"]
                for uri in ["/api/log", "/api/revisions/2", "/api/revisions?from=2", "/"] {
                    let get = try await client.execute(uri: uri, method: .get, headers: bearer)
                    let head = try await client.execute(uri: uri, method: .head, headers: bearer)
                    #expect(head.status == .ok, "\(uri)")
                    #expect(head.headers[.contentType] == get.headers[.contentType], "\(uri)")
                    #expect(head.body.readableBytes == 0, "\(uri)")
                    if let length = get.headers[.contentLength] { #expect(head.headers[.contentLength] == length) }
                }
                // The event stream's head, without starting the stream (which never ends).
                let stream = try await client.execute(uri: "/api/subscribe", method: .head, headers: bearer)
                #expect(stream.status == .ok)
                #expect(stream.headers[.contentType] == "text/event-stream")
                #expect(stream.body.readableBytes == 0)
                for (uri, status) in [("/api/revisions/9", HTTPResponse.Status.notFound), ("/api/nothing", .notFound)] {
                    let head = try await client.execute(uri: uri, method: .head, headers: bearer)
                    #expect(head.status == status)
                    #expect(head.headers[.contentType] == "application/json")
                    #expect(head.body.readableBytes == 0)
                }
                let refused = try await client.execute(uri: "/api/log", method: .head)
                #expect(refused.status == .unauthorized)
                #expect(refused.body.readableBytes == 0)
            }
        }
    }

    @Test func tokenIsRequiredWhenConfigured() async throws {
        try await ServerFixtures.withLog { log in
            try await Application(router: router(log, token: "s3cret")).test(.router) { client in
                for headers: HTTPFields in [
                    [:], [.authorization: "Bearer wrong"], [.authorization: "Bearer s3cre"],
                    [.authorization: "Basic s3cret"],
                ] {
                    let refused = try await client.execute(uri: "/api/log", method: .get, headers: headers)
                    #expect(refused.status == .unauthorized)
                    #expect(refused.headers[.wwwAuthenticate] == "Bearer")
                    #expect(
                        text(refused)
                            == #"{"error":"this server needs a token: send 'Authorization: Bearer <token>'"}"#)
                }
                let allowed = try await client.execute(
                    uri: "/api/log", method: .get, headers: [.authorization: "Bearer s3cret"])
                #expect(allowed.status == .ok)
            }
        }
    }

    @Test(arguments: ["Bearer s3cret", "bearer s3cret", "BEARER s3cret", "Bearer   s3cret", "Bearer\ts3cret"])
    func bearerSchemeInAnyCaseAndSpacing(value: String) async throws {
        try await ServerFixtures.withLog { log in
            try await Application(router: router(log, token: "s3cret")).test(.router) { client in
                let response = try await client.execute(
                    uri: "/api/log", method: .get, headers: [.authorization: value])
                #expect(response.status == .ok)
            }
        }
    }

    @Test func exposureNeedsAToken() throws {
        #expect(throws: Never.self) { try ServerConfiguration(host: "127.0.0.1").validate() }
        #expect(throws: Never.self) { try ServerConfiguration(host: "::1").validate() }
        #expect(throws: Never.self) { try ServerConfiguration(host: "localhost").validate() }
        #expect(throws: Never.self) { try ServerConfiguration(host: "0.0.0.0", token: "t").validate() }
        for host in ["0.0.0.0", "192.168.1.2", "::", "127.0.0.1.example.com"] {
            let error = #expect(throws: LogServerError.self) { try ServerConfiguration(host: host).validate() }
            #expect(error?.description.hasPrefix("refusing to listen on \(host) without a token") == true)
        }
    }

    @Test func rangeStreamsOverARealConnection() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...200, to: log)
            let expected = try (1...200).map { try log.record(at: $0).jsonLine() + "\n" }.joined()
            let server = LogServer(log: log, configuration: ServerConfiguration(batchSize: 7))
            // A client that waits for the server's bytes, not for a clock that load can outrun.
            try await ServerFixtures.withRunningServer(server) { port in
                let response = try await RawConnection.request(port: port, "/api/revisions")
                #expect(response.status == 200)
                #expect(response.headers["content-length"] == nil)
                #expect(response.headers["transfer-encoding"] == "chunked")
                #expect(response.body == expected)
            }
        }
    }
}
