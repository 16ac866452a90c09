import Foundation
import Testing

/// The served viewer under its Content-Security-Policy: the page loads, asks for the token,
/// plays, follows and exports with no violation, while the policy is in force.
extension ViewerBrowserTests {
    @Test("under its Content-Security-Policy the served page opens, takes a token, plays and follows with no violation")
    func contentSecurityPolicy() async throws {
        let history = try await DemoHistory(revisions: 30)
        defer { history.directory.remove() }
        let (server, port) = try await Self.serveWithToken(history)
        defer { server.process.terminate() }
        let (violations, blocked, afterInjection) = try await HeadlessChromium.withPage(
            "http://127.0.0.1:\(port)/#rev=10&follow=1"
        ) { page in
            // Asked for the token in the form, then given it.
            _ = try await page.dom(when: #"document.body.getAttribute("data-state") === "needs-token""#)
            _ = try await page.evaluate(
                """
                (() => {
                  document.getElementById("token-input").value = "\(Self.token)";
                  document.getElementById("token-form").requestSubmit();
                  return true;
                })()
                """)
            _ = try await page.dom(when: #"document.body.getAttribute("data-state") === "ready""#)
            // Played to the end, at 8x, and a marker searched for.
            _ = try await page.evaluate(
                ##"(() => { location.hash = "#rev=20&play=30&speed=8"; return true; })()"##)
            try await page.press("n")
            try await page.press(" ")
            _ = try await page.dom(
                when: #"document.body.getAttribute("data-state") === "ready" && "#
                    + #"document.getElementById("view").getAttribute("data-revision") === "30""#)
            let appended = try await ToolRunner.run(["demo", "--log", history.log, "--revisions", "2", "--seed", "5"])
            #expect(appended.status == 0, "\(appended)")
            let followed = try await page.dom(
                when: #"document.getElementById("view").getAttribute("data-revision") === "32""#)
            #expect(ViewerDOM(html: followed).revision == "32")
            #expect(ViewerDOM(html: followed).error == nil)
            let violations = try await page.evaluate("JSON.stringify(window.policyViolations)")
            // The policy is in force: an inline script added now does not run, and is reported.
            let blocked = try await page.evaluate(
                """
                (() => {
                  const script = document.createElement("script");
                  script.textContent = "window.inlineRan = true";
                  document.body.append(script);
                  return window.inlineRan !== true;
                })()
                """)
            _ = try await page.dom(when: "Array.isArray(window.policyViolations) && window.policyViolations.length > 0")
            return (violations, blocked, try await page.evaluate("JSON.stringify(window.policyViolations)"))
        }
        #expect(violations == "[]")
        #expect(blocked == "true")
        #expect(afterInjection.contains("script-src-elem inline"), "\(afterInjection)")
        await Self.stop(server)
    }
}
