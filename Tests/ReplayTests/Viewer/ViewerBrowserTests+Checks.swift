import ChangeLog
import ChangeLogTestSupport
import Foundation
import Testing

/// The viewer checks every revision it shows, however it got there, and finds failing revisions
/// without playing: on a log whose revision 7 stores a wrong move (``BrokenMoveHistory``).
extension ViewerBrowserTests {
    /// A served log holding ``BrokenMoveHistory``, stored changes as given.
    static func serveBrokenMoveHistory() async throws -> (TemporaryDirectory, ToolRunner.Running, port: Int) {
        let directory = try TemporaryDirectory()
        let path = directory.path("broken.lmdb")
        try await BrokenMoveHistory.append(to: ChangeLog(path: path))
        let (server, port) = try await ToolRunner.serve(["--log", path])
        return (directory, server, port)
    }

    @Test("opened at #rev=7, the page marks the broken revision without playing and names the moved item at from")
    func brokenRevisionOpenedDirectly() async throws {
        let (directory, server, port) = try await Self.serveBrokenMoveHistory()
        defer { directory.remove() }
        defer { server.process.terminate() }
        let ready = #"document.body.getAttribute("data-state") === "ready""#
        let (check, operations, failure, html) = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=7")
        {
            page in
            let html = try await page.dom(when: ready)
            return (
                try await page.evaluate(#"document.getElementById("view").getAttribute("data-check")"#),
                try await page.evaluate(#"document.getElementById("panel-operations").textContent"#),
                try await page.evaluate(#"document.getElementById("panel-failure").textContent"#), html
            )
        }
        let dom = ViewerDOM(html: html)
        #expect(dom.error == nil, "\(dom.error ?? "")")
        #expect(dom.revision == "7")
        #expect(check == "failed")
        #expect(dom.failedRevisions == ["7"])
        #expect(failure.contains("does not give the stored snapshot"), "\(failure)")
        #expect(
            operations
                == "Moved item \u{201C}\(BrokenMoveHistory.movedItem)\u{201D} from [0, 2] (in \u{201C}Inbox\u{201D}) "
                + "to [0, 5] (in \u{201C}Inbox\u{201D}, where the snapshot has "
                + "\u{201C}\(BrokenMoveHistory.itemAtWrongTo)\u{201D})",
            "\(operations)")
        await Self.stop(server)
    }

    @Test("f from revision 1 lands on the broken revision, checking on the way; shift F from the end too")
    func nextFailureKeys() async throws {
        let (directory, server, port) = try await Self.serveBrokenMoveHistory()
        defer { directory.remove() }
        defer { server.process.terminate() }
        let ready = #"document.body.getAttribute("data-state") === "ready""#
        let shown = #"document.getElementById("view").getAttribute("data-revision")"#
        let (fromStart, check, fromEnd, none) = try await HeadlessChromium.withPage("http://127.0.0.1:\(port)/#rev=1") {
            page in
            _ = try await page.dom(when: ready)
            #expect(try await page.evaluate(#"document.getElementById("view").getAttribute("data-check")"#) == "passed")
            try await page.press("f")
            _ = try await page.dom(when: "\(shown) === \"7\"")
            let fromStart = try await page.evaluate(shown)
            let check = try await page.evaluate(#"document.getElementById("view").getAttribute("data-check")"#)
            try await page.press("End")
            _ = try await page.dom(when: "\(shown) === \"10\"")
            try await page.press("F")
            _ = try await page.dom(when: "\(shown) === \"7\"")
            let fromEnd = try await page.evaluate(shown)
            try await page.press("f")
            _ = try await page.dom(
                when: #"document.getElementById("status").textContent.startsWith("No next failure")"#)
            return (
                fromStart, check, fromEnd, try await page.evaluate(#"document.getElementById("status").textContent"#)
            )
        }
        #expect(fromStart == "7")
        #expect(check == "failed")
        #expect(fromEnd == "7")
        #expect(none == "No next failure: every revision after 7 passes its check", "\(none)")
        await Self.stop(server)
    }
}
