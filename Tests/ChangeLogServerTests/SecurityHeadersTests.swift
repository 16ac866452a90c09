import ChangeLog
import ChangeLogTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ChangeLogServer

/// The headers that keep browsers from running, framing, sniffing or sharing what the server
/// sends, on every response: routes, errors, 401s, and what the HTTP parser refuses before any
/// route runs.
@Suite struct SecurityHeadersTests {
    private static let defaults: [String: String] = [
        "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "no-referrer",
        "cross-origin-resource-policy": "same-origin",
    ]

    private static func expectDefaults(_ response: LoopbackHTTP.Response, _ what: String) {
        for (name, value) in defaults {
            #expect(response.headers[name] == value, "\(name) on \(what)")
        }
    }

    @Test func everyResponseCarriesThem() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...2, to: log)
            let server = LogServer(log: log, configuration: ServerConfiguration(token: "s3cret-s3cret-s3cret"))
            try await ServerFixtures.withRunningServer(server) { port in
                let bearer = ["Authorization": "Bearer s3cret-s3cret-s3cret"]
                let cases: [(String, Int, LoopbackHTTP.Response)] = [
                    ("/api/log", 200, try await RawConnection.request(port: port, "/api/log", headers: bearer)),
                    ("a range", 200, try await RawConnection.request(port: port, "/api/revisions", headers: bearer)),
                    ("a 401", 401, try await RawConnection.request(port: port, "/api/log")),
                    ("a 404", 404, try await RawConnection.request(port: port, "/api/nothing", headers: bearer)),
                    (
                        "a 405", 405,
                        try await RawConnection.request(port: port, "/api/log", method: "POST", headers: bearer)
                    ),
                    ("a 421", 421, try await RawConnection.request(port: port, "/api/log", host: "evil.example")),
                    (
                        "a 400 from the parser", 400,
                        try await RawConnection.exchange(
                            port: port, "GET /api/log HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
                    ),
                ]
                for (what, status, response) in cases {
                    #expect(response.status == status, "\(what)")
                    Self.expectDefaults(response, what)
                }
            }
        }
    }

    @Test func theViewersPageKeepsItsOwnPolicy() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.withRunningServer(LogServer(log: log)) { port in
                let page = try await RawConnection.request(port: port, "/")
                #expect(page.status == 200)
                let policy = try #require(page.headers["content-security-policy"])
                #expect(policy != SecurityHeaders.defaultContentSecurityPolicy)
                #expect(policy.contains("frame-ancestors 'none'"))
                for name in [
                    "x-content-type-options", "x-frame-options", "referrer-policy", "cross-origin-resource-policy",
                ] {
                    #expect(page.headers[name] == Self.defaults[name], "\(name)")
                }
            }
        }
    }

    @Test func theRouterAddsThemToo() async throws {
        try await ServerFixtures.withLog { log in
            let router = LogServer(log: log).router()
            try await Application(router: router).test(.router) { client in
                for uri in ["/api/log", "/api/nothing"] {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect(response.headers[.contentSecurityPolicy] == SecurityHeaders.defaultContentSecurityPolicy)
                    #expect(response.headers[.xContentTypeOptions] == "nosniff")
                }
            }
        }
    }
}
