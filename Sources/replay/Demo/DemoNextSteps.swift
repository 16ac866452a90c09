import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The commands the demo suggests trying next, written so that they work as printed from any
/// directory: the tool as `replay` when the first `replay` on the `PATH` is this very binary,
/// else by its absolute path; the log by its absolute path. Both are quoted for a POSIX shell where
/// they need it.
struct DemoNextSteps {
    /// How the suggested commands run the tool: `replay`, or the binary's absolute path, quoted.
    let tool: String
    /// The binary's absolute path, when `replay` on the `PATH` is not this binary; `nil` when it is.
    let offPath: String?
    /// Where the log is (``location(_:)``), quoted.
    let log: String

    /// The steps for the log at `path` (relative to the current directory), with the tool as
    /// this process was started (`arguments0`, found on the `PATH` when it holds no slash) and
    /// the `PATH` of `environment`.
    init(
        logPath path: String, arguments0: String = CommandLine.arguments[0],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let executable =
            arguments0.contains("/")
            ? Self.absolute(arguments0)
            : directories.map { Self.absolute($0 + "/" + arguments0) }.first {
                FileManager.default.isExecutableFile(atPath: $0)
            } ?? Self.absolute(arguments0)
        // `replay` runs this binary when the first `replay` the shell finds on the PATH is it.
        let onPath =
            directories.first { FileManager.default.isExecutableFile(atPath: $0 + "/replay") }.map {
                Self.sameFile($0 + "/replay", executable)
            } ?? false
        let shortest = Self.buildLink(to: executable) ?? executable
        offPath = onPath ? nil : shortest
        tool = onPath ? "replay" : shellQuoted(shortest)
        log = shellQuoted(Self.location(path))
    }

    /// The lines to print: the commands, and how to put the tool on the `PATH` when it is not.
    func lines(latest: UInt64) -> [String] {
        var lines = [
            "  \(tool) log -n 10 --log \(log)",
            "  \(tool) show \(latest) --log \(log)",
            "  \(tool) play --log \(log) --into text --from \(latest > 2 ? latest - 2 : 1)",
            "  \(tool) export --log \(log) > history.jsonl",
            "  \(tool) tail --log \(log) --follow",
        ]
        if let offPath {
            let directory = shellQuoted(URL(fileURLWithPath: offPath).deletingLastPathComponent().path)
            lines.append("replay is not on the PATH, so these name it by its path; to call it replay:")
            lines.append("  export PATH=\(directory):\"$PATH\"")
        }
        return lines
    }

    /// Where the log at `path` is, as the suggested commands name it: a PostgreSQL URL as given,
    /// without its password (the commands take it from `PGPASSWORD` or `--password-file`); a
    /// log file (`file:PATH`) or directory by its absolute path.
    static func location(_ path: String) -> String {
        if LogOptions.isPostgresURL(path) {
            guard var components = URLComponents(string: path), components.password != nil else {
                return LogOptions.shown(path)
            }
            components.password = nil
            return components.string ?? LogOptions.shown(path)
        }
        if path.hasPrefix("file:") { return "file:" + absolute(String(path.dropFirst("file:".count))) }
        return absolute(path)
    }

    /// `path` made absolute against the current directory, with `.` and `..` resolved; symbolic
    /// links are kept (`.build/release/replay` stays as it is).
    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// For a binary SwiftPM built (`…/.build/x86_64-unknown-linux-gnu/release/replay`), the
    /// shorter path through the link SwiftPM makes to its directory (`…/.build/release/replay`)
    /// when that is the same file; `nil` otherwise.
    static func buildLink(to executable: String) -> String? {
        let components = executable.split(separator: "/", omittingEmptySubsequences: false)
        guard components.count >= 4, components[components.count - 4] == ".build" else { return nil }
        let link = (components.dropLast(3) + components.suffix(2)).joined(separator: "/")
        return sameFile(link, executable) ? link : nil
    }

    /// Whether `a` and `b` are the same existing file (device and inode).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
