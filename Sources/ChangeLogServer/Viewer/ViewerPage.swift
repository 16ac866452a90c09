/// The history viewer: one HTML page, its style sheet and its JavaScript modules (the files of
/// `Sources/ChangeLogServer/Viewer/Files`, built into the binary), which show a log's timeline
/// and the list at any revision.
///
/// `replay serve` answers `GET /` with ``servedPage``, which loads `viewer/style.css` and the
/// module `viewer/app.mjs` from the server and reads the log through the server's routes; every
/// one of these answers carries ``contentSecurityPolicy``, under which the page runs: it has no
/// inline script, style or event handler. `replay view` writes a static page with the revisions
/// embedded: ``staticPageHead(from:to:filter:)``, then each revision line passed through
/// ``embeddable(_:)`` and a newline, then ``staticPageTail``. Such a file holds the style sheet
/// and the scripts inside it, and works opened from disk, with no server.
///
/// The page's DOM is a contract that tests and users' scripts read: the element with
/// `data-revision` holds the revision shown; each section of the list is an element with
/// `data-section-title` (and `data-section-summary` where the section has one) holding its items
/// as elements with `data-item-id` (and `data-summary` where there is one), in display order, so
/// that reading those attributes in document order gives exactly the revision's snapshot. The
/// rows and sections the revision deleted are shown in their old place with
/// `data-deleted-item-id` and `data-deleted-section-title` instead. `#rev=N` in the URL chooses
/// revision N; `#rev=A&play=B&speed=8` plays from A to B at 8x; `skip=1` passes over revisions
/// with no operations; `follow=1` follows live revisions and `compare=R1..R2` shows two revisions
/// side by side (served page only), `where=CLAUSES` filters the timeline by metadata (the filter
/// box's text, percent-encoded); the HTTP article lists the rest of the contract. The body's
/// `data-state` is `ready` once the chosen revision is shown and no play is running, and a
/// revision whose changes do not apply to give its snapshot carries `data-failed-revision` on
/// the timeline.
///
/// The served page reads the timeline in windows of a few hundred revisions around the one shown
/// (the scrubber spans the whole log), so that opening it costs the same on a long history as on
/// a short one. When the server needs a token, the page takes it from `#token=T` (a fragment is
/// never sent to the server; the page removes it from the address) or asks for it in a form
/// (the body's `data-state` is then `needs-token`), keeps it for the tab in `sessionStorage`, and
/// sends it with every request, the event stream of follow mode included.
public enum ViewerPage {
    /// The page `replay serve` answers `GET /` with: it loads its style sheet and scripts, and
    /// reads the log through the server's routes, relative to its own address.
    public static let servedPage: String = ViewerFiles.page.text

    /// The `Content-Security-Policy` of the viewer's page, style sheet and scripts: everything
    /// from the server itself and nothing inline, no frame may hold the page, and the token form
    /// posts nowhere.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The start of a static page whose embedded revisions are `from` through `to` (the range
    /// the timeline shows); the lines written after it may begin with revision `from - 1`, which
    /// the page uses only to show what revision `from` deleted. With `filter` (the text of the
    /// page's filter box: `key=value` and `key~substring` clauses separated by spaces, a clause
    /// holding a space in double quotes), the timeline opens filtered by it unless the URL's
    /// `#where=` says otherwise.
    public static func staticPageHead(from: UInt64, to: UInt64, filter: String? = nil) -> String {
        let filterAttribute = filter.map { " data-where=\"\(attributeEscaped($0))\"" } ?? ""
        return staticParts.head
            + "<script type=\"application/x-ndjson\" id=\"embedded-revisions\" data-from=\"\(from)\" "
            + "data-to=\"\(to)\"\(filterAttribute)>\n"
    }

    /// `text` safe inside a double-quoted HTML attribute.
    static func attributeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "\"": escaped += "&quot;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The end of a static page, after its embedded revision lines: the viewer's scripts as one
    /// module, then the rest of the page.
    public static var staticPageTail: String { staticParts.tail }

    /// `line` (one revision line, JSON) made safe to embed in the page's script element: every
    /// `<` becomes `\u003c`, which JSON reads as the same character, so no `</script>` inside a
    /// title, id, summary or meta value can end the element.
    public static func embeddable(_ line: String) -> String {
        line.replacing("<", with: "\\u003c")
    }

    /// The served page's element that loads the style sheet, which a static page replaces with
    /// the style sheet itself.
    static let styleLink = #"<link rel="stylesheet" href="viewer/style.css">"#

    /// The served page's element that loads the scripts, which a static page replaces with its
    /// revisions and the scripts themselves.
    static let scriptElement = #"<script type="module" src="viewer/app.mjs"></script>"#

    /// The static page around its embedded revisions: the served page with the style sheet
    /// inline, and its scripts as one inline module (``bundledScript``) after the revisions.
    private static let staticParts: (head: String, tail: String) = {
        let page = servedPage.replacing(styleLink, with: "<style>\n" + ViewerFiles.style.text + "</style>")
        guard let script = page.range(of: scriptElement), page.contains("<style>") else {
            preconditionFailure("Viewer/Files/viewer.html lost \(styleLink) or \(scriptElement)")
        }
        let tail = "</script>\n<script type=\"module\">\n" + bundledScript + "</script>" + page[script.upperBound...]
        return (String(page[..<script.lowerBound]), tail)
    }()

    /// The viewer's modules as one script: each in ``ViewerFiles/scripts``'s order, its `import`
    /// lines dropped and the `export` before its declarations removed, so that a page opened
    /// from disk, where a browser fetches no module, runs the same code. The modules' top-level
    /// names are distinct, so that they can share one scope.
    static var bundledScript: String {
        ViewerFiles.scripts.map { file in
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
                line.hasPrefix("import ") ? nil : line.hasPrefix("export ") ? line.dropFirst(7) : line
            }
            return "// \(file.path.dropFirst("/viewer/".count))\n" + lines.joined(separator: "\n")
        }.joined()
    }
}
