import Hummingbird

/// Answers 421 to a request whose `Host` is not a name of this server, before any route runs,
/// so that a web page cannot read the log through a name of its own that it makes resolve to
/// this machine (DNS rebinding): a browser sends the page's name as the `Host`.
///
/// The loopback names and addresses are always accepted (``HostNames/isLoopback(_:)``), and
/// `allowed` besides; a request without a `Host` (which no browser sends) is let through.
/// ``ServerConfiguration/allowedHosts`` says when the check applies.
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The names accepted besides the loopback ones, as ``HostNames/name(ofHost:)`` gives them.
    var allowed: Set<String>

    init(allowed: [String]) {
        self.allowed = Set(allowed.map(HostNames.name(ofHost:)))
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let host = request.head.authority {
            let name = HostNames.name(ofHost: host)
            guard HostNames.isLoopback(name) || allowed.contains(name) else {
                throw APIError(
                    status: .misdirectedRequest,
                    message: "the Host '\(host.prefix(100))' is not a name of this server: it answers localhost, "
                        + "127.0.0.1 and [::1]\(allowed.isEmpty ? "" : " and the names it was given"); "
                        + "to reach it by another name, start it with --allowed-host NAME")
            }
        }
        return try await next(request, context)
    }
}

/// Host names as the `Host` header carries them.
enum HostNames {
    /// The name of a `Host` value without its port, in lower case: `Example.COM:8080` is
    /// `example.com`, `[::1]:80` is `[::1]` (an IPv6 address keeps its brackets; a bare one gets
    /// them). Empty when `host` holds no name, or something no name holds (spaces, slashes, `@`).
    static func name(ofHost host: String) -> String {
        let host = host.lowercased()
        var name: Substring
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return "" }
            name = host[...close]
        } else if host.filter({ $0 == ":" }).count > 1 {
            name = "[" + host + "]"
        } else {
            name = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        let forbidden: Set<Character> = [" ", "\t", "/", "\\", "@", "?", "#"]
        return name.contains(where: { forbidden.contains($0) }) ? "" : String(name)
    }

    /// Whether `name` (as ``name(ofHost:)`` gives it) names this machine: `localhost`, a name
    /// under `.localhost` (which browsers resolve to loopback themselves), an address of
    /// 127.0.0.0/8 in dotted form, or `[::1]`.
    static func isLoopback(_ name: String) -> Bool {
        if name == "localhost" || name.hasSuffix(".localhost") || name == "[::1]" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
    }
}
