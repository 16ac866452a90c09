import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A plain HTTP/1.1 client over TCP to 127.0.0.1, on POSIX sockets, for tests that need what a
/// higher-level client hides: a response that never ends (Server-Sent Events), a client that
/// does not read, a thousand connections at once. Blocking calls run on their own threads, never
/// on the Swift concurrency pool the server under test shares.
package enum LoopbackHTTP {
    /// A failure of the client itself (connecting, sending), with the system's error number.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// A response read to its end: status code, headers (names in lower case) and body.
    package struct Response: Sendable {
        package var status: Int
        package var headers: [String: String]
        package var body: String
    }

    /// A TCP connection to 127.0.0.1:`port`, its socket's receive buffer (`SO_RCVBUF`) set to
    /// `receiveBuffer` before connecting when given, so that the TCP window stays that small.
    package static func connect(port: Int, receiveBuffer: Int32? = nil) throws(Failure) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let number = errno
            close(descriptor)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(number)")
        }
        return descriptor
    }

    /// Sends all of `bytes` on `descriptor`, retrying after signals; `false` when the peer has
    /// closed the connection.
    package static func send(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Bool {
        var sent = bytes.startIndex
        while sent < bytes.endIndex {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Opens a connection to 127.0.0.1:`port` and sends `GET target` with `headers`.
    ///
    /// - Parameters:
    ///   - receiveBuffer: when given, the socket's receive buffer size (`SO_RCVBUF`), set before
    ///     connecting so that the TCP window stays that small.
    ///   - keepAlive: whether the request leaves the connection open for another one, as browsers
    ///     and `curl` do, rather than asking the server to close it after the response.
    package static func open(
        port: Int, target: String, headers: [String: String] = [:], receiveBuffer: Int32? = nil,
        keepAlive: Bool = false
    ) throws(Failure) -> Int32 {
        let descriptor = try connect(port: port, receiveBuffer: receiveBuffer)
        var request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if !keepAlive { request += "Connection: close\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        guard send(Array(request.utf8)[...], to: descriptor) else {
            let number = errno
            close(descriptor)
            throw Failure(description: "send: errno \(number)")
        }
        return descriptor
    }

    /// Sends `GET target` and reads the whole response (the server closes the connection after it).
    package static func get(port: Int, target: String, headers: [String: String] = [:]) async throws -> Response {
        let descriptor = try open(port: port, target: target, headers: headers)
        let bytes = await onThread { readToEnd(descriptor) }
        return try parse(bytes)
    }

    /// Reads `descriptor` until the peer closes it, then closes it.
    package static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        readToEndNotingReset(descriptor).bytes
    }

    /// Reads `descriptor` until the peer closes the connection, then closes it; `reset` tells
    /// whether the connection ended with a reset (`ECONNRESET`) rather than in order, `failure`
    /// the errno of a read that failed otherwise (`EBADF`: something else closed the descriptor).
    package static func readToEndNotingReset(_ descriptor: Int32) -> (bytes: [UInt8], reset: Bool, failure: Int32?) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var reset = false
        var failure: Int32?
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            let number = errno
            if count < 0 && number == EINTR { continue }
            if count <= 0 {
                reset = count < 0 && number == ECONNRESET
                if count < 0 && !reset { failure = number }
                break
            }
            bytes += chunk[0..<count]
        }
        close(descriptor)
        return (bytes, reset, failure)
    }

    /// Runs the blocking `body` on a thread of its own and returns its result.
    package static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.start()
        }
    }

    /// A response's status, headers and body (chunked transfer decoded).
    package static func parse(_ bytes: [UInt8]) throws -> Response {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else {
            throw Failure(description: "no complete response head in \(text.prefix(200))")
        }
        let lines = text[..<headEnd.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line \(lines[0])")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = String(text[headEnd.upperBound...])
        if headers["transfer-encoding"] == "chunked" { body = dechunk(body) }
        return Response(status: status, headers: headers, body: body)
    }

    /// The body of a chunked transfer: the chunks' data joined.
    package static func dechunk(_ text: String) -> String {
        var bytes = Array(text.utf8)[...]
        var out: [UInt8] = []
        while let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\r")) {
            let sizeText = String(decoding: bytes[bytes.startIndex..<lineEnd], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16), size > 0 else { break }
            let start = lineEnd + 2
            guard start + size <= bytes.endIndex else {
                out += bytes[start...]
                break
            }
            out += bytes[start..<(start + size)]
            bytes = bytes[min(start + size + 2, bytes.endIndex)...]
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension LoopbackHTTP {
    /// Reads `descriptor` until the end of the chunk that holds `marker`, or until the peer closes
    /// it; leaves it open.
    package static func readUntil(_ descriptor: Int32, marker: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        let markerBytes = Array(marker.utf8)
        var markerSeen = false
        while !(markerSeen && bytes.ends(with: EventStreams.messageEnd)) {
            guard recv(descriptor, &byte, 1, 0) == 1 else { break }
            bytes.append(byte)
            if !markerSeen && bytes.ends(with: markerBytes) { markerSeen = true }
        }
        return bytes
    }

    /// ``readUntil(_:marker:)`` reading as much as has arrived at each call rather than a byte at
    /// a time: for a stream that holds nothing after the awaited message (the server sends the
    /// next one only after the caller acts), where reading 40 KB events a byte at a time costs a
    /// system call per byte.
    package static func readWholeMessagesUntil(_ descriptor: Int32, marker: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let markerBytes = Array(marker.utf8)
        var markerSeen = false
        while !(markerSeen && bytes.ends(with: EventStreams.messageEnd)) {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
            if !markerSeen && bytes.contains(markerBytes) { markerSeen = true }
        }
        return bytes
    }
}

extension LoopbackHTTP {
    /// Waits, without reading, until the peer of `descriptor` closes or resets the connection;
    /// returns whether it was reset (`POLLERR`), as opposed to closed in order. Gives up, and
    /// returns `false`, after `seconds` without either: a peer that never hangs up fails the
    /// caller's expectation instead of holding the test run.
    package static func waitForHangUp(_ descriptor: Int32, seconds: Int = 300) -> Bool {
        // POLLRDHUP (Linux; Glibc declares it only under _GNU_SOURCE): the peer closed its side.
        let peerClosed: Int16 = 0x2000
        var entry = pollfd(fd: descriptor, events: peerClosed, revents: 0)
        for _ in 0..<seconds {
            if poll(&entry, 1, 1000) > 0 && entry.revents != 0 {
                return entry.revents & Int16(POLLERR) != 0
            }
        }
        return false
    }
}
