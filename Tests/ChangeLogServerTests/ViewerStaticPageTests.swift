import Testing

@testable import ChangeLogServer

@Suite struct ViewerStaticPageTests {
    @Test("a static page is the served page with its style sheet and scripts inside and the revision lines embedded")
    func staticPage() throws {
        let head = ViewerPage.staticPageHead(from: 4, to: 9)
        let line = #"{"revision":4,"meta":{"note":"</script><!--"}}"#
        let page = head + ViewerPage.embeddable(line) + "\n" + ViewerPage.staticPageTail
        #expect(
            head.hasSuffix(
                #"<script type="application/x-ndjson" id="embedded-revisions" data-from="4" data-to="9">"# + "\n"))
        #expect(ViewerPage.embeddable(line) == #"{"revision":4,"meta":{"note":"\u003c/script>\u003c!--"}}"#)
        // Two script elements: the revisions, then the viewer's one module; nothing loaded from elsewhere.
        #expect(page.components(separatedBy: "</script>").count == 3)
        #expect(!page.contains(" src="))
        #expect(!page.contains("<link"))
        let style = "<style>\n" + ViewerFiles.style.text + "</style>"
        let script = "<script type=\"module\">\n" + ViewerPage.bundledScript + "</script>"
        let embedded = try #require(
            page.firstMatch(of: /<script type="application\/x-ndjson"[^>]*>\n[^\n]*\n<\/script>\n/))
        #expect(
            page.replacing(embedded.output, with: "").replacing(style, with: ViewerPage.styleLink).replacing(
                script, with: ViewerPage.scriptElement) == ViewerPage.servedPage)
    }

    @Test(
        "the static page's script is every module in an order where each follows its imports, with no import or export left"
    )
    func bundledScript() throws {
        let script = ViewerPage.bundledScript
        #expect(script.matches(of: #/^(import|export) /#.anchorsMatchLineEndings()).isEmpty)
        // Neither the script nor the style sheet can end its element early.
        #expect(!script.lowercased().contains("</script"))
        #expect(!script.contains("<!--"))
        #expect(!ViewerFiles.style.text.lowercased().contains("</style"))
        var evaluated: [String] = []
        for file in ViewerFiles.scripts {
            let name = String(file.path.dropFirst("/viewer/".count))
            let imports = file.text.matches(of: /^import [^\n]* from "\.\/([a-z-]+\.mjs)";$/.anchorsMatchLineEndings())
            let importLines = file.text.matches(of: #/^import /#.anchorsMatchLineEndings())
            #expect(imports.count == importLines.count, "\(name): an import on more than one line")
            for imported in imports.map({ String($0.output.1) }) {
                #expect(evaluated.contains(imported), "\(name) imports \(imported), which comes after it")
            }
            #expect(script.contains("// \(name)\n"), "\(name)")
            evaluated.append(name)
        }
        // Every top-level declaration of every module has a name no other module declares.
        let declared = ViewerFiles.scripts.flatMap { file in
            file.text.matches(
                of: /^(?:export )?(?:async )?(?:const|let|function|class) ([A-Za-z_$][A-Za-z0-9_$]*)/
                    .anchorsMatchLineEndings()
            ).map { String($0.output.1) }
        }
        #expect(declared.count == Set(declared).count, "\(declared)")
    }
}
