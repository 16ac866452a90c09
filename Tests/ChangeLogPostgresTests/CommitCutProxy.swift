import ChangeLogTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy on 127.0.0.1 in front of the test server that can cut the connection of the next
/// appending transaction at its `COMMIT`: either before the `COMMIT` reaches the server (which
/// then rolls the transaction back) or after the server has committed and before its reply
/// reaches the client. Everything else is relayed unchanged. An appending transaction is
/// recognised by its `pg_notify` (PostgresLogStorage notifies just before it commits), an append
/// in one request by its call of `changelog_append`, which the proxy cuts as it would a `COMMIT`.
///
/// Its threads are its own (blocking sockets), never the cooperative pool's. It lives as long
/// as the process: tests make one each, and its sockets close with the process.
final class CommitCutProxy: Sendable {
    /// Where the next appending transaction's connection is cut.
    enum Cut: Int, Sendable {
        /// Not armed.
        case none = 0
        /// The `COMMIT` is dropped and the connection closed: the server never commits.
        case beforeCommit = 1
        /// The `COMMIT` is relayed, the server's reply dropped and the connection closed: the
        /// server committed, the client cannot know.
        case afterCommit = 2
    }

    /// The proxy's port.
    let port: Int
    private let armed = Atomic<Int>(0)
    private let cuts = Atomic<Int>(0)
    private let callCuts = Atomic<Int>(0)
    private static let bufferSize = 1 << 16

    /// A proxy to 127.0.0.1:`upstream`.
    init(upstream: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 64) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptForever(listener, upstream: upstream) }
        thread.start()
    }

    /// Cuts the next appending transaction's connection at its commit, as `cut` says.
    func arm(_ cut: Cut) {
        armed.store(cut.rawValue, ordering: .sequentiallyConsistent)
    }

    /// How many connections were cut so far.
    var cutCount: Int { cuts.load(ordering: .sequentiallyConsistent) }

    /// How many of those cuts were of an append in one request (`SELECT changelog_append(...)`)
    /// rather than of a transaction's `COMMIT`.
    var oneRequestCutCount: Int { callCuts.load(ordering: .sequentiallyConsistent) }

    private func acceptForever(_ listener: Int32, upstream: Int) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            guard let server = try? LoopbackHTTP.connect(port: upstream) else {
                close(client)
                continue
            }
            let connection = Connection(client: client, server: server)
            Thread { [self] in relayRequests(connection) }.start()
            Thread { [self] in relayReplies(connection) }.start()
        }
    }

    /// One relayed connection: its two sockets, and whether its `COMMIT` is being cut.
    private final class Connection: Sendable {
        let client: Int32
        let server: Int32
        /// Whether the transaction under way notified (it appends).
        let notified = Atomic(false)
        /// A `COMMIT` was relayed and the server's next reply is to be dropped.
        let dropsReply = Atomic(false)
        let closed = Atomic(false)
        /// How many of the two relaying threads have ended; the last closes the sockets.
        let ended = Atomic(0)

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        func closeBoth() {
            guard !closed.exchange(true, ordering: .sequentiallyConsistent) else { return }
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
        }

        /// Called by each relaying thread as it ends: shuts both directions, and the last one
        /// closes the sockets.
        func end() {
            closeBoth()
            if ended.add(1, ordering: .sequentiallyConsistent).newValue == 2 {
                close(client)
                close(server)
            }
        }
    }

    private func relayRequests(_ connection: Connection) {
        var buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        while let bytes = Self.receive(connection.client, into: &buffer) {
            if Self.contains(bytes, "pg_notify") { connection.notified.store(true, ordering: .sequentiallyConsistent) }
            // An append in one request commits as its statement ends.
            let call = Self.contains(bytes, "SELECT changelog_append(")
            if call
                || (Self.contains(bytes, "COMMIT")
                    && connection.notified.exchange(false, ordering: .sequentiallyConsistent))
            {
                let cut = Cut(rawValue: armed.exchange(0, ordering: .sequentiallyConsistent)) ?? .none
                if call && cut != .none { callCuts.add(1, ordering: .sequentiallyConsistent) }
                if cut == .beforeCommit {
                    cuts.add(1, ordering: .sequentiallyConsistent)
                    break
                }
                if cut == .afterCommit { connection.dropsReply.store(true, ordering: .sequentiallyConsistent) }
            }
            guard LoopbackHTTP.send(bytes, to: connection.server) else { break }
        }
        connection.end()
    }

    private func relayReplies(_ connection: Connection) {
        var buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        while let bytes = Self.receive(connection.server, into: &buffer) {
            if connection.dropsReply.load(ordering: .sequentiallyConsistent) {
                // The server replied to the COMMIT: it committed. The client never learns it.
                cuts.add(1, ordering: .sequentiallyConsistent)
                break
            }
            guard LoopbackHTTP.send(bytes, to: connection.client) else { break }
        }
        connection.end()
    }

    private static func contains(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        var index = bytes.startIndex
        while index + needle.count <= bytes.endIndex {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    private static func receive(_ descriptor: Int32, into buffer: inout [UInt8]) -> ArraySlice<UInt8>? {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            return buffer[0..<count]
        }
    }
}
