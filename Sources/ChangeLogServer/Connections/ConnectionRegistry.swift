import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// The server's open connections, counted against ``ServerConfiguration/maxConnections``, and
/// which of them are idle: waiting for a request, with none in progress.
///
/// Hummingbird's accepting handler asks ``isAcceptingNewConnections()`` before each accept.
/// Below the limit the answer is yes. At the limit it is no, and the connection idle the longest
/// is closed; its closing lets the next one in. A flood of connections that send nothing (or
/// send a request's head a byte at a time) thus cannot keep a real request out: each new
/// connection displaces one of them. Only when every connection has a request in progress does
/// a new one wait, in the listening socket's backlog, until one ends. The server never holds
/// more descriptors than the limit allows, so `accept` never fails for want of one (which would
/// leave the listening socket readable and the event loop spinning on it).
final class ConnectionRegistry: Sendable {
    /// The most connections open at once.
    let limit: Int
    private let logger: Logger

    private struct State {
        var open = 0
        /// Idle connections, by identity, with the order in which they became idle.
        var idle: [ObjectIdentifier: (channel: any Channel, order: UInt64)] = [:]
        var nextOrder: UInt64 = 0
        var warned = false
    }

    private let state = Mutex(State())

    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// The number of connections open.
    var openCount: Int { state.withLock { $0.open } }

    /// Counts a connection the server accepted; logs once when the count reaches the limit.
    func connectionOpened() {
        let reached = state.withLock { state in
            state.open += 1
            guard state.open >= limit, !state.warned else { return false }
            state.warned = true
            return true
        }
        if reached {
            logger.warning(
                """
                \(limit) connections are open, the most this server keeps (--max-connections; by default below \
                the limit of open files, ulimit -n): from now on each new connection closes the one idle the \
                longest, or waits while every connection has a request in progress
                """)
        }
    }

    /// Counts a connection that closed.
    func connectionClosed() {
        state.withLock { $0.open -= 1 }
    }

    /// Whether the server may accept another connection now. At the limit, closes the connection
    /// idle the longest, if any, so that the next call says yes once it has closed.
    func isAcceptingNewConnections() -> Bool {
        let evicted: (any Channel)? = state.withLock { state in
            guard state.open >= limit else { return nil }
            guard let oldest = state.idle.min(by: { $0.value.order < $1.value.order }) else { return nil }
            state.idle[oldest.key] = nil
            return oldest.value.channel
        }
        if let evicted { evicted.close(promise: nil) }
        return state.withLock { $0.open < limit }
    }

    /// Records whether `channel` is idle: waiting for the head of a request (some of it may have
    /// come), with no request in progress. Only idle connections are closed to make room.
    func setIdle(_ channel: any Channel, _ idle: Bool) {
        let key = ObjectIdentifier(channel)
        state.withLock { state in
            if idle {
                guard state.idle[key] == nil else { return }
                state.idle[key] = (channel, state.nextOrder)
                state.nextOrder += 1
            } else {
                state.idle[key] = nil
            }
        }
    }

    /// Forgets `channel`, which closed.
    func forget(_ channel: any Channel) {
        setIdle(channel, false)
    }

    /// The delegate that lets Hummingbird's accepting handler consult this registry.
    var delegate: Delegate { Delegate(registry: self) }

    /// Hummingbird's hook on the listening socket, forwarding to the registry.
    struct Delegate: AvailableConnectionsDelegate {
        let registry: ConnectionRegistry

        mutating func connectionOpened() { registry.connectionOpened() }
        mutating func connectionClosed() { registry.connectionClosed() }
        func isAcceptingNewConnections() -> Bool { registry.isAcceptingNewConnections() }
    }
}
