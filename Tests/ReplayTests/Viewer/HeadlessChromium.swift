import ChangeLogTestSupport
import Foundation

/// Debian's `chromium`, run headless as a subprocess and driven over the DevTools protocol on a
/// pipe (`--remote-debugging-pipe`: JSON messages ended by NUL on file descriptors 3 and 4). A
/// page is read once the viewer says it is ready (`data-state` on its body), so that what it
/// fetches from a server is in the DOM. Every run has its own profile and is ended after two
/// minutes at most (it takes seconds); that counts as a failure.
enum HeadlessChromium {
    /// A failure of the browser or of the protocol, with what the browser printed.
    struct BrowserFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// How to get the browser, said when it is missing.
    static let installAdvice =
        "install Debian's chromium package (scripts/bootstrap.sh --browser does: apt-get install -y chromium)"

    /// The browser's path: the first of `chromium` and `chromium-browser` on the `PATH`, or nil.
    static func find() -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories {
            for name in ["chromium", "chromium-browser"] {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// Whether the browser tests run: where the browser is, and always under CI (`CI=true`),
    /// which installs it, so that a browser missing there fails every test instead of skipping.
    static let testsRun = find() != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    /// The browser's path.
    /// - Throws: ``BrowserFailure`` saying how to install it when it is not on the `PATH`.
    static func executable() throws -> String {
        guard let path = find() else {
            throw BrowserFailure(
                description: "headless Chromium is needed for the viewer's browser tests and is not on the PATH: "
                    + installAdvice)
        }
        return path
    }

    /// The serialized DOM of `url` once its body's `data-state` is `ready`, `failed` or
    /// `needs-token` (or after 30 seconds, when the DOM is returned as it is, for the test to
    /// report).
    static func dumpDOM(_ url: String) async throws -> String {
        try await offThePool {
            let browser = try DevToolsSession()
            defer { browser.close() }
            let session = try browser.openBlocking(url)
            return try browser.evaluateBlocking(readyDOM, session: session)
        }
    }

    /// A 1280×900 PNG of `url` once it is ready, written to `file`.
    static func screenshot(_ url: String, to file: String) async throws {
        let browser = try DevToolsSession()
        defer { browser.close() }
        let session = try await browser.open(url)
        _ = try await browser.evaluate(readyDOM, session: session)
        let shot = try await browser.call("Page.captureScreenshot", ["format": "png"], session: session)
        guard let base64 = shot["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw BrowserFailure(description: "Page.captureScreenshot answered no image")
        }
        try png.write(to: URL(fileURLWithPath: file))
    }

    /// Opens `url`, waits until the viewer is ready and passes the page to `body`; the browser
    /// is closed after it.
    static func withPage<T>(
        _ url: String, downloadsTo directory: String? = nil, _ body: (BrowserPage) async throws -> T
    ) async throws -> T {
        let browser = try DevToolsSession()
        defer { browser.close() }
        if let directory {
            _ = try await browser.call("Browser.setDownloadBehavior", ["behavior": "allow", "downloadPath": directory])
        }
        let page = BrowserPage(browser: browser, session: try await browser.open(url))
        _ = try await browser.evaluate(readyDOM, session: page.session)
        return try await body(page)
    }

    /// A promise of the page's HTML once the viewer is ready (or failed, or asks for a token).
    static let readyDOM = """
        new Promise(resolve => {
          const started = Date.now();
          const check = () => {
            const state = document.body && document.body.getAttribute("data-state");
            if (state === "ready" || state === "failed" || state === "needs-token" || Date.now() - started > 30000) {
              resolve(document.documentElement.outerHTML);
            } else {
              setTimeout(check, 50);
            }
          };
          check();
        })
        """
}
