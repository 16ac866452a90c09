/// The history viewer: one self-contained HTML page (its script and style inline, nothing
/// fetched but the log's own routes) that shows a log's timeline and the list at any revision.
///
/// `replay serve` answers `GET /` with ``servedPage``, which reads the log through the server's
/// routes. `replay view` writes a static page with the revisions embedded:
/// ``staticPageHead(from:to:)``, then each revision line passed through
/// ``embeddable(_:)`` and a newline, then ``staticPageTail``. Such a file works opened from
/// disk, with no server.
///
/// The page's DOM is a contract that tests and users' scripts read: the element with
/// `data-revision` holds the revision shown; each section of the list is an element with
/// `data-section-title` (and `data-section-summary` where the section has one) holding its items
/// as elements with `data-item-id` (and `data-summary` where there is one), in display order, so
/// that reading those attributes in document order gives exactly the revision's snapshot. The
/// rows and sections the revision deleted are shown in their old place with
/// `data-deleted-item-id` and `data-deleted-section-title` instead. `#rev=N` in the URL chooses
/// revision N; `#rev=A&play=B&speed=8` plays from A to B at 8x; `skip=1` passes over revisions
/// with no operations; `follow=1` follows live revisions (served page only). The body's
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
    /// The page `replay serve` answers `GET /` with: it reads the log through the server's
    /// routes, relative to its own address.
    public static let servedPage: String = page(embedded: "")

    /// The start of a static page whose embedded revisions are `from` through `to` (the range
    /// the timeline shows); the lines written after it may begin with revision `from - 1`, which
    /// the page uses only to show what revision `from` deleted.
    public static func staticPageHead(from: UInt64, to: UInt64) -> String {
        let marker = "\u{0}EMBEDDED\u{0}"
        let whole = page(
            embedded: "<script type=\"application/x-ndjson\" id=\"embedded-revisions\" data-from=\"\(from)\" "
                + "data-to=\"\(to)\">\n\(marker)")
        return String(whole[..<whole.range(of: marker)!.lowerBound])
    }

    /// The end of a static page, after its embedded revision lines.
    public static let staticPageTail: String = {
        let marker = "\u{0}EMBEDDED\u{0}"
        let whole = page(embedded: "<script type=\"application/x-ndjson\" id=\"embedded-revisions\">\n\(marker)")
        return "</script>\n" + String(whole[whole.range(of: marker)!.upperBound...])
    }()

    /// `line` (one revision line, JSON) made safe to embed in the page's script element: every
    /// `<` becomes `\u003c`, which JSON reads as the same character, so no `</script>` inside a
    /// title, id, summary or meta value can end the element.
    public static func embeddable(_ line: String) -> String {
        line.replacing("<", with: "\\u003c")
    }

    /// The whole page, with `embedded` (an open script element and its content, or nothing)
    /// placed before the viewer's own script.
    private static func page(embedded: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>List history viewer</title>
        <style>
        \(style)
        </style>
        </head>
        <body data-state="loading">
        \(body)
        \(embedded)<script>
        \(formatScript)
        \(listScript)
        \(timelineScript)
        \(timelineViewScript)
        \(sourceScript)
        \(eventStreamScript)
        \(authScript)
        \(appScript)
        </script>
        </body>
        </html>

        """
    }
}
