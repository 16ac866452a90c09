/// The files of the viewer that `replay serve` answers, built into the binary as SwiftPM
/// resources (`Viewer/Files`): the page at `/`, its style sheet and its JavaScript modules under
/// `/viewer/`. None holds log data, so none needs the server's token.
enum ViewerFiles {
    /// The scripts, each after every module it imports: the order in which a browser evaluates
    /// them, and the order of the one script of a static page (``ViewerPage/staticPageTail``).
    static let scripts: [ViewerFile] = [
        script("format.mjs", PackageResources.format_mjs),
        script("auth.mjs", PackageResources.auth_mjs),
        script("http.mjs", PackageResources.http_mjs),
        script("meta-filter.mjs", PackageResources.meta_filter_mjs),
        script("api.mjs", PackageResources.api_mjs),
        script("sse.mjs", PackageResources.sse_mjs),
        script("life.mjs", PackageResources.life_mjs),
        script("source.mjs", PackageResources.source_mjs),
        script("list.mjs", PackageResources.list_mjs),
        script("compare.mjs", PackageResources.compare_mjs),
        script("timeline.mjs", PackageResources.timeline_mjs),
        script("timeline-view.mjs", PackageResources.timeline_view_mjs),
        script("checks.mjs", PackageResources.checks_mjs),
        script("jumps.mjs", PackageResources.jumps_mjs),
        script("life-view.mjs", PackageResources.life_view_mjs),
        script("compare-view.mjs", PackageResources.compare_view_mjs),
        script("export-file.mjs", PackageResources.export_file_mjs),
        script("files-view.mjs", PackageResources.files_view_mjs),
        script("app.mjs", PackageResources.app_mjs),
    ]

    /// The style sheet.
    static let style = ViewerFile(
        path: "/viewer/style.css", contentType: "text/css; charset=utf-8", bytes: PackageResources.style_css)

    /// The page, which loads ``style`` and the module `app.mjs` relative to its own address.
    static let page = ViewerFile(
        path: "/", contentType: "text/html; charset=utf-8", bytes: PackageResources.viewer_html)

    /// Every file served, the page first.
    static let all: [ViewerFile] = [page, style] + scripts

    /// The paths the bearer token does not guard: exactly those of ``all``.
    static var openPaths: Set<String> { Set(all.map(\.path)) }

    private static func script(_ name: String, _ bytes: [UInt8]) -> ViewerFile {
        ViewerFile(path: "/viewer/" + name, contentType: "text/javascript; charset=utf-8", bytes: bytes)
    }
}
