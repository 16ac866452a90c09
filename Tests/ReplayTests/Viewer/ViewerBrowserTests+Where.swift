import Foundation
import Testing

/// `replay view --where`: the written page opens with its timeline filtered as `--where` filters
/// `replay log`, and `#where=` in the URL sets another filter.
extension ViewerBrowserTests {
    /// The timeline's rows not hidden, by revision.
    static let visibleRows =
        ##"[...document.querySelectorAll("#revisions [data-timeline-revision]")].filter(r => !r.hidden).map(r => r.getAttribute("data-timeline-revision")).join(",")"##

    @Test("view --where writes a page whose timeline opens filtered; #where= in its URL sets another filter")
    func viewWhere() async throws {
        let history = try await Self.trickyHistory()
        defer { history.directory.remove() }
        let file = history.directory.path("sync.html")
        let written = try await ToolRunner.run([
            "view", "--log", history.log, "--where", "job=sync job", "--where", "step~", "--out", file,
        ])
        #expect(written.status == 0, "\(written)")
        #expect(
            written.stdout.contains(
                #"; its timeline lists the revisions whose metadata satisfy "job=sync job" step~)"#),
            "\(written)")
        let log = try await ToolRunner.run(["log", "--log", history.log, "--where", "job=sync job", "--where", "step~"])
        let logged = log.stdout.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first.map { $0.trimmingCharacters(in: .decimalDigits.inverted) }
        }
        #expect(logged.reversed().joined(separator: ",") == "2,4,6", "\(log)")
        let (opened, box, hash) = try await HeadlessChromium.withPage("file://\(file)#rev=4") { page in
            _ = try await page.dom(when: #"document.body.getAttribute("data-state") === "ready""#)
            return (
                try await page.evaluate(Self.visibleRows),
                try await page.evaluate(#"document.getElementById("filter").value"#),
                try await page.evaluate("location.hash")
            )
        }
        #expect(opened == "2,4,6")
        #expect(box == #""job=sync job" step~"#)
        #expect(hash == "#rev=4&where=" + (try Self.uriComponent(box)))
        let encoded = try Self.uriComponent("job=app step~")
        let (reopened, newHash) = try await HeadlessChromium.withPage("file://\(file)#rev=3&where=\(encoded)") { page in
            _ = try await page.dom(when: #"document.body.getAttribute("data-state") === "ready""#)
            try await page.press("ArrowRight")
            _ = try await page.dom(when: #"document.getElementById("view").getAttribute("data-revision") === "4""#)
            return (try await page.evaluate(Self.visibleRows), try await page.evaluate("location.hash"))
        }
        #expect(reopened == "1,3,5,7")
        #expect(newHash == "#rev=4&where=" + encoded)
    }

    /// `text` percent-encoded as JavaScript's `encodeURIComponent` encodes it.
    static func uriComponent(_ text: String) throws -> String {
        try #require(
            text.addingPercentEncoding(
                withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_.!~*'()"))))
    }
}
