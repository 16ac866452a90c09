import ChangeLogTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PostgreSQL server of one test's own, which the test may stop and start without disturbing
/// the others: a cluster in a temporary directory, made with the server binaries of the shared
/// test server (`CHANGELOG_TEST_POSTGRES_CTL`, which scripts/with-postgres.sh exports: the
/// `pg_ctl` command, behind `runuser -u nobody --` when the tests run as root), on a free
/// loopback port, trusting local connections of the role `changelog`.
///
/// The server runs in the foreground, a child of the test process (`pg_ctl start` would leave it
/// holding what Foundation watches to learn that its child ended, so that no wait would end).
final class PrivateServer: @unchecked Sendable {
    /// The cluster's folder: `data`, the server's log and its socket.
    let directory: URL
    /// The loopback port it listens on.
    let port: Int
    private let bindir: String
    /// The command that runs the binaries as the cluster's owner (empty when not root).
    private let owner: [String]
    /// The running server, between ``start()`` and ``stop()``; only the test's task uses it.
    private var server: Process?

    private init(directory: URL, port: Int, bindir: String, owner: [String]) {
        self.directory = directory
        self.port = port
        self.bindir = bindir
        self.owner = owner
    }

    /// The URL of the log named `name` on this server.
    func logURL(_ name: String) -> String {
        "postgres://changelog@127.0.0.1:\(port)/postgres?log=\(name)"
    }

    /// Makes and starts a private server, runs `body` with it, and removes it, however `body`
    /// ends; returns `nil` without calling `body` when the tests run without a server (the
    /// shared server's skip or CI failure applies: ``TestServer/url``).
    static func with<R>(_ body: (PrivateServer) async throws -> R) async throws -> R? {
        guard TestServer.url != nil else { return nil }
        guard let command = ProcessInfo.processInfo.environment["CHANGELOG_TEST_POSTGRES_CTL"],
            let control = command.split(separator: " ").firstIndex(where: { $0.hasSuffix("/pg_ctl") })
        else {
            Issue.record(
                "CHANGELOG_TEST_POSTGRES_CTL does not name pg_ctl: run the tests through scripts/with-postgres.sh")
            return nil
        }
        let words = command.split(separator: " ").map(String.init)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let server = PrivateServer(
            directory: directory, port: try freeLoopbackPort(),
            bindir: (words[control] as NSString).deletingLastPathComponent, owner: Array(words[..<control]))
        if !server.owner.isEmpty {
            try await execute("/bin/chown", ["nobody", directory.path])
        }
        do {
            try await server.run(
                "initdb", ["-D", server.data, "-U", "changelog", "--auth=trust", "-E", "UTF8", "--locale=C"])
            try await server.start()
            let result = try await body(server)
            await server.remove()
            return result
        } catch {
            await server.remove()
            throw error
        }
    }

    private var data: String { directory.appendingPathComponent("data").path }

    /// Starts the server and waits until it accepts connections.
    func start() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: owner.isEmpty ? bindir + "/postgres" : "/usr/bin/env")
        process.arguments =
            (owner.isEmpty ? [] : owner + [bindir + "/postgres"])
            + ["-D", data, "-c", "listen_addresses=127.0.0.1", "-p", "\(port)", "-k", directory.path]
        process.standardInput = FileHandle.nullDevice
        let log = directory.appendingPathComponent("server.log")
        if !FileManager.default.fileExists(atPath: log.path) { try Data().write(to: log) }
        let output = try FileHandle(forWritingTo: log)
        try output.seekToEnd()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        server = process
        // Ready when pg_isready says so (status 0); 2 means not answering yet.
        while true {
            if (try? await run("pg_isready", ["-h", "127.0.0.1", "-p", "\(port)", "-q"])) != nil { return }
            guard process.isRunning else {
                throw PrivateServerError(
                    description: "the server ended while starting: "
                        + ((try? String(contentsOf: log, encoding: .utf8)) ?? ""))
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Stops the server the way an administrator's restart does (`-m fast`: every session is
    /// terminated), and waits until it is down.
    func stop() async throws {
        try await run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "120", "stop"])
        await server?.exited()
        server = nil
    }

    /// Stops the server at once and removes its folder.
    private func remove() async {
        if let server {
            try? await run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
            await server.exited()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs the server binary `name` as the cluster's owner, to its end; throws when it fails.
    private func run(_ name: String, _ arguments: [String]) async throws {
        let path = bindir + "/" + name
        if owner.isEmpty {
            try await Self.execute(path, arguments)
        } else {
            try await Self.execute("/usr/bin/env", owner + [path] + arguments)
        }
    }

    private static func execute(_ executable: String, _ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = await output.fileHandleForReading.readToEndOffThePool()
        await process.exited()
        guard process.terminationStatus == 0 else {
            throw PrivateServerError(
                description: "\(([executable] + arguments).joined(separator: " ")) ended with status "
                    + "\(process.terminationStatus): \(String(decoding: printed, as: UTF8.self))")
        }
    }

    /// A loopback port nothing listens on now.
    private static func freeLoopbackPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A server binary that failed, with what it printed.
struct PrivateServerError: Error, CustomStringConvertible {
    var description: String
}
