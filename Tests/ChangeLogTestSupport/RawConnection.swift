import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to 127.0.0.1 that sends exactly the bytes a test gives it, for requests no
/// well-behaved client sends: none at all, half a head, a byte at a time, another `Host`.
/// Blocking calls run on threads of their own (``LoopbackHTTP/onThread(_:)``).
package struct RawConnection: Sendable {
    package let descriptor: Int32

    /// Connects to 127.0.0.1:`port`.
    package init(port: Int) throws(LoopbackHTTP.Failure) {
        descriptor = try LoopbackHTTP.connect(port: port)
    }

    /// Sends `text`; false when the peer has closed the connection.
    @discardableResult package func send(_ text: String) -> Bool {
        LoopbackHTTP.send(Array(text.utf8)[...], to: descriptor)
    }

    /// Reads until the server closes the connection, for at most `seconds` of silence; returns
    /// what it sent and whether it closed (or reset) the connection. Does not close the socket.
    package func readUntilClosed(seconds: Int = 120) -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        var silent = 0
        while silent < seconds {
            let ready = poll(&entry, 1, 1000)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                silent += 1
                continue
            }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return (bytes, true) }
            bytes += chunk[0..<count]
            silent = 0
        }
        return (bytes, false)
    }

    /// Whether the server closed the connection, waiting up to `seconds` of silence.
    package func waitUntilClosed(seconds: Int = 120) async -> Bool {
        let connection = self
        return await LoopbackHTTP.onThread { connection.readUntilClosed(seconds: seconds).closed }
    }

    package func close() {
        Glibc.close(descriptor)
    }

    /// Opens `count` connections to 127.0.0.1:`port`, on a thread of their own (a connect waits
    /// while the server's backlog is full).
    package static func open(port: Int, count: Int) async throws -> [RawConnection] {
        let opened = await LoopbackHTTP.onThread { () -> Result<[RawConnection], LoopbackHTTP.Failure> in
            var connections: [RawConnection] = []
            for _ in 0..<count {
                do throws(LoopbackHTTP.Failure) {
                    connections.append(try RawConnection(port: port))
                } catch {
                    for connection in connections { connection.close() }
                    return .failure(error)
                }
            }
            return .success(connections)
        }
        return try opened.get()
    }

    /// Sends `request` (which should ask for `Connection: close`) on a new connection and parses
    /// the response the server sends before closing it.
    package static func exchange(port: Int, _ request: String) async throws -> LoopbackHTTP.Response {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        connection.send(request)
        let (bytes, closed) = await LoopbackHTTP.onThread { connection.readUntilClosed() }
        guard closed else { throw LoopbackHTTP.Failure(description: "the server kept the connection open") }
        return try LoopbackHTTP.parse(bytes)
    }

    /// `GET` (or `method`) of `target` with `Host: host` and `Connection: close`, and its response.
    package static func request(
        port: Int, _ target: String, method: String = "GET", host: String? = nil, headers: [String: String] = [:]
    ) async throws -> LoopbackHTTP.Response {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        return try await exchange(port: port, text + "\r\n")
    }
}
