import ChangeLog
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ChangeLogServer

@Suite struct ViewerRouteTests {
    /// The paths the page loads, found by reading it: its style sheet and module script, then
    /// every module each module imports, resolved against the module's own path.
    static func referencedPaths(fetch: (String) async throws -> String) async throws -> [String] {
        let page = ViewerPage.servedPage
        var found = page.matches(of: /(?:src|href)="([^"]+)"/).map { "/" + String($0.output.1) }
        var queue = found.filter { $0.hasSuffix(".mjs") }
        while let script = queue.popLast() {
            let directory = script[...script.lastIndex(of: "/")!]
            for match in try await fetch(script).matches(
                of: /^import [^\n]* from "\.\/([a-z-]+\.mjs)";$/.anchorsMatchLineEndings())
            {
                let path = String(directory + match.output.1)
                if !found.contains(path) {
                    found.append(path)
                    queue.append(path)
                }
            }
        }
        return found
    }

    @Test(
        "GET / answers the viewer's page, which has no inline script, style or handler and loads only the server's files"
    )
    func servesViewer() async throws {
        try await ServerFixtures.withLog { log in
            let router = LogServer(log: log).router()
            try await Application(router: router).test(.router) { client in
                let response = try await client.execute(uri: "/", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.contentSecurityPolicy] == ViewerPage.contentSecurityPolicy)
                let page = String(buffer: response.body)
                #expect(page == ViewerPage.servedPage)
                #expect(page.hasPrefix("<!DOCTYPE html>"))
                #expect(page.contains(#"<main id="view" data-revision="">"#))
                // Under the strict policy: every script has a src, no style element or attribute, no handler.
                #expect(page.matches(of: /<script(?![^>]*\ssrc=)/).isEmpty)
                #expect(!page.contains("<style"))
                #expect(!page.contains("style="))
                #expect(page.matches(of: /\son[a-z]+=/).isEmpty)
                // Nothing is fetched from another place.
                #expect(!page.contains("://"))
                #expect(!page.contains("embedded-revisions"))
            }
        }
    }

    @Test("the style sheet and every module the page imports are served with their type, the policy and an entity tag")
    func servesFiles() async throws {
        try await ServerFixtures.withLog { log in
            let router = LogServer(log: log).router()
            try await Application(router: router).test(.router) { client in
                let paths = try await Self.referencedPaths { path in
                    String(buffer: try await client.execute(uri: path, method: .get).body)
                }
                #expect(paths.contains("/viewer/style.css"))
                #expect(paths.contains("/viewer/app.mjs"))
                #expect(paths.contains("/viewer/format.mjs"))
                // Every file served is one the page loads: none is left unused, none is missing.
                #expect(Set(paths + ["/"]) == ViewerFiles.openPaths)
                for path in paths {
                    let response = try await client.execute(uri: path, method: .get)
                    #expect(response.status == .ok, "\(path)")
                    let type = path.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
                    #expect(response.headers[.contentType] == type, "\(path)")
                    #expect(response.headers[.contentSecurityPolicy] == ViewerPage.contentSecurityPolicy, "\(path)")
                    #expect(response.headers[.cacheControl] == "no-cache", "\(path)")
                    let tag = try #require(response.headers[.eTag], "\(path)")
                    #expect(tag.wholeMatch(of: /"[0-9a-f]{16}"/) != nil, "\(path): \(tag)")
                    #expect(response.body.readableBytes > 0, "\(path)")
                }
            }
        }
    }

    @Test("a request naming the file's entity tag is answered 304 with no body; another tag gets the file")
    func revalidation() async throws {
        try await ServerFixtures.withLog { log in
            let router = LogServer(log: log).router()
            try await Application(router: router).test(.router) { client in
                for path in ["/", "/viewer/app.mjs", "/viewer/style.css"] {
                    let first = try await client.execute(uri: path, method: .get)
                    let tag = try #require(first.headers[.eTag])
                    for condition in [tag, "W/" + tag, "\"0000000000000000\", " + tag, " \t" + tag + " ", "*"] {
                        let again = try await client.execute(
                            uri: path, method: .get, headers: [.ifNoneMatch: condition])
                        #expect(again.status == .notModified, "\(path) with \(condition)")
                        #expect(again.body.readableBytes == 0, "\(path)")
                        #expect(again.headers[.eTag] == tag, "\(path)")
                    }
                    for condition in ["\"0000000000000000\"", tag.replacing("\"", with: ""), "", ","] {
                        let fresh = try await client.execute(
                            uri: path, method: .get, headers: [.ifNoneMatch: condition])
                        #expect(fresh.status == .ok, "\(path) with \(condition)")
                        #expect(fresh.body == first.body, "\(path)")
                    }
                }
                // Different files have different tags.
                var tags: Set<String> = []
                for file in ViewerFiles.all { tags.insert(file.entityTag) }
                #expect(tags.count == ViewerFiles.all.count)
            }
        }
    }

    @Test("behind a token, the page and exactly the files it loads are open while every API route still answers 401")
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
                let files = try await Self.referencedPaths { path in
                    let response = try await client.execute(uri: path, method: .get)
                    #expect(response.status == .ok, "\(path) without a token")
                    return String(buffer: response.body)
                }
                #expect(files.count == ViewerFiles.all.count - 1)
                for uri in [
                    "/api/log", "/api/revisions/1", "/api/revisions?from=1&to=3", "/api/subscribe?from=1",
                    "/api/unknown", "//", "/index.html", "/viewer", "/viewer/", "/viewer/missing.mjs",
                    "/viewer/app.mjs/", "/viewer//app.mjs", "/viewer/../api/log", "/Viewer/app.mjs", "/app.mjs",
                    "/viewer/app.js",
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
                // Only reading is open: another method on the page or a file still needs the token.
                for uri in ["/", "/viewer/app.mjs"] {
                    let posted = try await client.execute(uri: uri, method: .post)
                    #expect(posted.status == .unauthorized, "\(uri)")
                }
            }
        }
    }
}
