import ChangeLogTestSupport
import Foundation

/// A page open in a headless browser.
struct BrowserPage {
    let browser: DevToolsSession
    let session: String

    /// The value of `expression` in the page, as a string (a promise is awaited).
    func evaluate(_ expression: String) async throws -> String {
        try await browser.evaluate("Promise.resolve(\(expression)).then(String)", session: session)
    }

    /// The page's HTML once `condition` (an expression) is true; after 30 seconds, the HTML as it
    /// is, for the test to report.
    func dom(when condition: String) async throws -> String {
        try await evaluate(
            """
            new Promise(resolve => {
              const started = Date.now();
              const check = () => (\(condition)) || Date.now() - started > 30000
                ? resolve(document.documentElement.outerHTML) : setTimeout(check, 50);
              check();
            })
            """)
    }

    /// Sends a key press (`keydown`) with `key` to the document.
    func press(_ key: String) async throws {
        _ = try await evaluate(
            #"document.dispatchEvent(new KeyboardEvent("keydown", {key: "\#(key)", bubbles: true}))"#)
    }
}

/// One headless browser and its DevTools connection over a pipe. Its calls wait for the browser
/// off the cooperative pool (``offThePool(_:)``); one task uses it at a time.
final class DevToolsSession: @unchecked Sendable {
    private let process = Process()
    private let commands = Pipe()
    private let replies = Pipe()
    private let profile: URL
    private let log: URL
    private let watchdog: DispatchWorkItem
    private var buffer = Data()
    private var nextID = 0

    init() throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-chromium-\(UUID())")
        log = profile.appendingPathExtension("log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        // The shell gives the browser our pipes as descriptors 3 (commands) and 4 (replies).
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"exec "$@" 3<&0 4>&1 </dev/null >/dev/null"#, "sh", try HeadlessChromium.executable(),
            // --no-sandbox: the tests run as root in CI, where Chromium's sandbox refuses to start.
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--hide-scrollbars", "--user-data-dir=\(profile.path)", "--remote-debugging-pipe", "about:blank",
        ]
        process.standardInput = commands
        process.standardOutput = replies
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
    }

    /// Opens `url` in a new page of 1280×900 and returns the page's session id.
    func open(_ url: String) async throws -> String {
        try await offThePool { try self.openBlocking(url) }
    }

    /// ``open(_:)``, blocking the calling thread.
    func openBlocking(_ url: String) throws -> String {
        let target = try callBlocking("Target.createTarget", ["url": "about:blank"])
        let attached = try callBlocking(
            "Target.attachToTarget", ["targetId": target["targetId"] ?? "", "flatten": true])
        guard let session = attached["sessionId"] as? String else {
            throw HeadlessChromium.BrowserFailure(description: "no DevTools session for the page")
        }
        _ = try callBlocking(
            "Emulation.setDeviceMetricsOverride",
            ["width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false], session: session)
        // Every Content-Security-Policy violation of the page is kept, in order, for tests to read
        // (a script for new documents is run only once the Page domain is enabled).
        _ = try callBlocking("Page.enable", [:], session: session)
        _ = try callBlocking(
            "Page.addScriptToEvaluateOnNewDocument", ["source": Self.violationRecorder], session: session)
        _ = try callBlocking("Page.navigate", ["url": url], session: session)
        return session
    }

    /// Records the page's `securitypolicyviolation` events in `window.policyViolations`, each as
    /// `directive blocked-URI`, from before the page's own scripts run.
    static let violationRecorder = """
        window.policyViolations = [];
        document.addEventListener("securitypolicyviolation", event => {
          window.policyViolations.push(event.effectiveDirective + " " + event.blockedURI);
        });
        """

    /// The value of `expression` (a promise is awaited) in the page. An evaluation that the
    /// page's navigation interrupts is tried again, up to 100 times.
    func evaluate(_ expression: String, session: String) async throws -> String {
        try await offThePool { try self.evaluateBlocking(expression, session: session) }
    }

    /// ``evaluate(_:session:)``, blocking the calling thread.
    func evaluateBlocking(_ expression: String, session: String) throws -> String {
        var lastError = ""
        for _ in 0..<100 {
            do {
                let reply = try callBlocking(
                    "Runtime.evaluate", ["expression": expression, "awaitPromise": true, "returnByValue": true],
                    session: session)
                if let value = (reply["result"] as? [String: Any])?["value"] as? String { return value }
                lastError = "\(reply)"
            } catch let failure as HeadlessChromium.BrowserFailure where failure.description.contains("context") {
                lastError = failure.description
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw HeadlessChromium.BrowserFailure(description: "the page gave no value: \(lastError)")
    }

    /// Sends `method` with `parameters` and waits for its reply's `result`.
    /// - Throws: ``HeadlessChromium/BrowserFailure`` with the protocol's error, or when the
    ///   browser ended.
    func call(_ method: String, _ parameters: [String: Any], session: String? = nil) async throws -> [String: Any] {
        let parameters = JSONValue(parameters)
        return try await offThePool { JSONValue(try self.callBlocking(method, parameters.value, session: session)) }
            .value
    }

    /// ``call(_:_:session:)``, blocking the calling thread.
    private func callBlocking(_ method: String, _ parameters: [String: Any], session: String? = nil) throws
        -> [String: Any]
    {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
        if let session { message["sessionId"] = session }
        var bytes = try JSONSerialization.data(withJSONObject: message)
        bytes.append(0)
        try commands.fileHandleForWriting.write(contentsOf: bytes)
        while true {
            let reply = try nextMessage()
            guard reply["id"] as? Int == nextID else { continue }
            if let error = reply["error"] as? [String: Any] {
                throw HeadlessChromium.BrowserFailure(description: "\(method): \(error["message"] ?? error)")
            }
            return reply["result"] as? [String: Any] ?? [:]
        }
    }

    /// The next message from the browser (a reply or an event).
    private func nextMessage() throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = buffer[buffer.startIndex..<end]
                buffer = Data(buffer[(end + 1)...])
                if let object = try JSONSerialization.jsonObject(with: message) as? [String: Any] { return object }
                continue
            }
            let chunk = replies.fileHandleForReading.nextChunk()
            if chunk.isEmpty {
                let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw HeadlessChromium.BrowserFailure(
                    description: "the browser ended (or was ended after two minutes): \(printed.suffix(2_000))")
            }
            buffer.append(chunk)
        }
    }

    /// Closes the browser, waits for it and removes its profile.
    func close() {
        _ = try? callBlocking("Browser.close", [:])
        try? commands.fileHandleForWriting.close()
        process.waitUntilExit()
        watchdog.cancel()
        try? FileManager.default.removeItem(at: profile)
        try? FileManager.default.removeItem(at: log)
    }
}

/// A JSON object of the DevTools protocol, handed between a task and the thread that waits for
/// the browser: its values (strings, numbers, arrays and objects of them) are never changed.
private struct JSONValue<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
