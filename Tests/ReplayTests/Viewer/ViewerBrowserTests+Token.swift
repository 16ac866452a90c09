import Foundation
import Testing

/// The viewer of a server started with `--token-file`: the page is served without the token,
/// takes it from `#token=` or a form, and sends it with every request, the event stream of
/// follow mode included (read with `fetch`, since `EventSource` sends no header).
extension ViewerBrowserTests {
    /// A token with the characters a fragment parser could get wrong (`+` is not a space here).
    static let token = "v1+t0k/3n=="

    /// Starts `replay serve` for `history` with ``token`` in a token file.
    static func serveWithToken(_ history: DemoHistory, port: Int = 0) async throws -> (ToolRunner.Running, port: Int) {
        let tokenFile = try history.directory.write("token.txt", token + "\n")
        return try await ToolRunner.serve(["--log", history.log, "--token-file", tokenFile], port: port)
    }

    @Test("behind --token-file, /#token=T&rev=N shows N exactly as replay export's snapshot, and T leaves the address")
    func tokenInFragment() async throws {
        let history = try await DemoHistory()
        defer { history.directory.remove() }
        let (server, port) = try await Self.serveWithToken(history)
        defer { server.process.terminate() }
        let revisions = try history.revisionsToCheck(in: 1...history.lines.count)
        #expect(revisions.count >= 5, "\(revisions)")
        for revision in revisions {
            try await Self.expectShows(
                "http://127.0.0.1:\(port)/#token=\(Self.token)&rev=\(revision)", revision: revision, of: history)
        }
        let (address, kept) = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=5&token=\(Self.token)")
        {
            page in
            (
                try await page.evaluate("location.href"),
                try await page.evaluate(#"sessionStorage.getItem("replay-viewer-token")"#)
            )
        }
        #expect(address == "http://127.0.0.1:\(port)/#rev=5")
        #expect(kept == Self.token)
        await Self.stop(server)
    }

    @Test("behind --token-file, no token shows the form and no list, a wrong one says so, the right one opens the log")
    func tokenForm() async throws {
        let history = try await DemoHistory(revisions: 20)
        defer { history.directory.remove() }
        let (server, port) = try await Self.serveWithToken(history)
        defer { server.process.terminate() }
        let formShown =
            #"!document.getElementById("token-form").hidden && document.getElementById("view").hidden"#
            + #" && document.querySelectorAll("[data-timeline-revision]").length === 0"#
        let message = #"document.getElementById("token-message").textContent"#
        let (asked, askedMessage, askedShown, opened) = try await HeadlessChromium.withPage(
            "http://127.0.0.1:\(port)/#rev=7"
        ) { page in
            let asked = try await page.dom(when: #"document.body.getAttribute("data-state") === "needs-token""#)
            let shown = try await page.evaluate(formShown)
            let text = try await page.evaluate(message)
            _ = try await page.evaluate(
                """
                (() => {
                  document.getElementById("token-input").value = "\(Self.token)";
                  document.getElementById("token-form").requestSubmit();
                  return true;
                })()
                """)
            let opened = try await page.dom(when: #"document.body.getAttribute("data-state") === "ready""#)
            return (asked, text, shown, opened)
        }
        let asking = ViewerDOM(html: asked)
        #expect(asking.state == "needs-token")
        #expect(asking.error == nil)
        #expect(askedShown == "true")
        #expect(asking.list.sections.isEmpty)
        #expect(asking.revision == "")
        #expect(askedMessage.hasPrefix("This server needs a token to show its log"), "\(askedMessage)")
        let shown = ViewerDOM(html: opened)
        #expect(shown.error == nil, "\(shown.error ?? "")")
        #expect(shown.revision == "7")
        #expect(shown.list == (try history.snapshot(7)))

        let (wrong, wrongMessage, wrongShown) = try await HeadlessChromium.withPage(
            "http://127.0.0.1:\(port)/#token=wrong&rev=7"
        ) { page in
            (try await page.dom(when: "true"), try await page.evaluate(message), try await page.evaluate(formShown))
        }
        let refused = ViewerDOM(html: wrong)
        #expect(refused.state == "needs-token")
        #expect(wrongShown == "true")
        #expect(refused.list.sections.isEmpty)
        #expect(wrongMessage.hasPrefix("The server refused the token given"), "\(wrongMessage)")
        #expect(refused.error == wrongMessage)
        await Self.stop(server)
    }

    @Test("behind --token-file, follow receives what another process appends, and resumes with Last-Event-ID")
    func followWithToken() async throws {
        let history = try await DemoHistory(revisions: 20)
        defer { history.directory.remove() }
        let (server, port) = try await Self.serveWithToken(history)
        defer { server.process.terminate() }
        let browser = try DevToolsSession()
        defer { browser.close() }
        let page = BrowserPage(
            browser: browser, session: try await browser.open("http://127.0.0.1:\(port)/#token=\(Self.token)&follow=1"))
        _ = try await page.evaluate(HeadlessChromium.readyDOM)
        let shown = #"document.getElementById("view").getAttribute("data-revision")"#
        #expect(try await page.evaluate(shown) == "20")
        let appended = try await ToolRunner.run(["demo", "--log", history.log, "--revisions", "3", "--seed", "5"])
        #expect(appended.status == 0, "\(appended)")
        let live = ViewerDOM(html: try await page.dom(when: "\(shown) === \"23\""))
        #expect(live.revision == "23")
        #expect(live.list == (try ShownList(snapshotOf: try await Self.exported(history, revision: 23))))

        // The server restarts on the same port: the page reconnects after the stream's retry interval
        // with Last-Event-ID 23, and takes the revisions appended meanwhile and after.
        _ = try await page.evaluate(
            """
            (() => {
              const original = window.fetch;
              window.resumedWith = [];
              window.fetch = (url, init) => {
                if (String(url).includes("api/subscribe")) window.resumedWith.push(init.headers["Last-Event-ID"] || "none");
                return original(url, init);
              };
              return true;
            })()
            """)
        await Self.stop(server)
        let closed = try await page.dom(
            when:
                #"document.getElementById("status").textContent.startsWith("Follow: closed: the server is shutting down")"#
        )
        #expect(closed.contains("reconnecting in 3 s"))
        let more = try await ToolRunner.run(["demo", "--log", history.log, "--revisions", "2", "--seed", "6"])
        #expect(more.status == 0, "\(more)")
        let (again, _) = try await Self.serveWithToken(history, port: port)
        defer { again.process.terminate() }
        let appendedLater = try await ToolRunner.run(["demo", "--log", history.log, "--revisions", "2", "--seed", "7"])
        #expect(appendedLater.status == 0, "\(appendedLater)")
        let resumed = ViewerDOM(html: try await page.dom(when: "\(shown) === \"27\""))
        #expect(resumed.revision == "27")
        #expect(resumed.error == nil, "\(resumed.error ?? "")")
        #expect(resumed.list == (try ShownList(snapshotOf: try await Self.exported(history, revision: 27))))
        #expect(resumed.failedRevisions.isEmpty)
        let resumedWith = try await page.evaluate(#"window.resumedWith.join(",")"#)
        #expect(!resumedWith.isEmpty && resumedWith.split(separator: ",").allSatisfy { $0 == "23" }, "\(resumedWith)")
        #expect(try await page.evaluate(#"document.querySelectorAll("[data-timeline-revision]").length"#) == "27")
        await Self.stop(again)
    }

    /// The line of `revision` as `replay export` writes it now.
    static func exported(_ history: DemoHistory, revision: Int) async throws -> String {
        let export = try await ToolRunner.run([
            "export", "--log", history.log, "--from", String(revision), "--to", String(revision),
        ])
        #expect(export.status == 0, "\(export)")
        return export.stdout
    }

    @Test("the page reads an event stream's fields as the HTML standard defines them, whatever the chunks")
    func eventStreamParser() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try await Self.page(with: Self.versionTwoLines, in: directory)
        let parsed = try await HeadlessChromium.withPage("file://\(file)") { page in
            try await page.evaluate(
                #"""
                (() => {
                  const state = { idBuffer: "", lastEventId: "", retry: 3000 };
                  const seen = [];
                  const parser = viewer.EventStream.parser(state, {
                    event: e => seen.push(e.type + "|" + e.data + "|" + e.lastEventId), comment: c => seen.push(":" + c) });
                  for (const chunk of ["retry: 1500\n\nid: 1\nevent: revision\ndata: {\"a\":", "1}\n\n: keep-alive\n\n",
                                       "id: 2\r\nevent: revision\r\ndata: x\r", "\ndata:y\r\rid: 3\u0000\ndata\n\nretry: soon\n",
                                       "no colon\ndata:  z\n\ndata: dropped\n"]) {
                    parser.push(chunk);
                  }
                  parser.end();
                  return JSON.stringify({ seen, retry: state.retry, last: state.lastEventId });
                })()
                """#)
        }
        let object = try JSONSerialization.jsonObject(with: Data(parsed.utf8)) as? [String: Any]
        #expect(
            object?["seen"] as? [String] == [
                "revision|{\"a\":1}|1", ":keep-alive", "revision|x\ny|2", "message||2", "message| z|2",
            ], "\(parsed)")
        #expect(object?["retry"] as? Int == 1500)
        #expect(object?["last"] as? String == "2")
    }
}
