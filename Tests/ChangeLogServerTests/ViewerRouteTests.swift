import ChangeLog
import ChangeLogServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct ViewerRouteTests {
    @Test("GET / answers the viewer: one HTML page that loads nothing from elsewhere")
    func servesViewer() async throws {
        try await ServerFixtures.withLog { log in
            let router = LogServer(log: log).router()
            try await Application(router: router).test(.router) { client in
                let response = try await client.execute(uri: "/", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let page = String(buffer: response.body)
                #expect(page == ViewerPage.servedPage)
                #expect(page.hasPrefix("<!DOCTYPE html>"))
                #expect(page.contains(#"<main id="view" data-revision="">"#))
                // Self-contained: no script, style sheet or image is fetched from another place.
                #expect(!page.contains("src="))
                #expect(!page.contains("<link"))
                #expect(!page.contains("://"))
                #expect(!page.contains("embedded-revisions\" data-from"))
            }
        }
    }

    @Test("behind a token, GET / answers the page without it while every API route still answers 401")
    func pageIsOpenBehindAToken() async throws {
        try await ServerFixtures.withLog { log in
            try await ServerFixtures.append(1...3, to: log)
            let router = LogServer(log: log, configuration: ServerConfiguration(token: "s3cret")).router()
            try await Application(router: router).test(.router) { client in
                let page = try await client.execute(uri: "/", method: .get)
                #expect(page.status == .ok)
                #expect(String(buffer: page.body) == ViewerPage.servedPage)
                let withQuery = try await client.execute(uri: "/?rev=2", method: .get)
                #expect(withQuery.status == .ok)
                for uri in [
                    "/api/log", "/api/revisions/1", "/api/revisions?from=1&to=3", "/api/subscribe?from=1",
                    "/api/unknown", "//", "/index.html",
                ] {
                    for headers: HTTPFields in [[:], [.authorization: "Bearer s3cre"]] {
                        let refused = try await client.execute(uri: uri, method: .get, headers: headers)
                        #expect(refused.status == .unauthorized, "\(uri)")
                        #expect(refused.headers[.wwwAuthenticate] == "Bearer", "\(uri)")
                    }
                }
                let allowed = try await client.execute(
                    uri: "/api/log", method: .get, headers: [.authorization: "Bearer s3cret"])
                #expect(allowed.status == .ok)
                // Only reading the page is open: another method on / still needs the token.
                let posted = try await client.execute(uri: "/", method: .post)
                #expect(posted.status == .unauthorized)
            }
        }
    }

    @Test("a static page is the served page with the revision lines embedded, markup in them escaped")
    func staticPage() {
        let head = ViewerPage.staticPageHead(from: 4, to: 9)
        let line = #"{"revision":4,"meta":{"note":"</script><!--"}}"#
        let page = head + ViewerPage.embeddable(line) + "\n" + ViewerPage.staticPageTail
        #expect(
            head.hasSuffix(
                #"<script type="application/x-ndjson" id="embedded-revisions" data-from="4" data-to="9">"# + "\n"))
        #expect(ViewerPage.embeddable(line) == #"{"revision":4,"meta":{"note":"\u003c/script>\u003c!--"}}"#)
        #expect(
            page.components(separatedBy: "</script>").count == ViewerPage.servedPage.components(
                separatedBy: "</script>"
            ).count + 1)
        #expect(
            page.replacing(/<script type="application\/x-ndjson"[^>]*>\n[^\n]*\n<\/script>\n/, with: "")
                == ViewerPage.servedPage)
    }
}
