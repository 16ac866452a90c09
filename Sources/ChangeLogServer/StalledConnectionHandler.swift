import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Drops a connection whose client has taken nothing for `timeout` while the server has more to
/// send it than the channel's write buffer holds.
///
/// A channel stops being writable when its pending writes pass the high water mark, which
/// happens only once the kernel's send buffer and the client's receive window are full: the
/// client is not reading. Every write waiting on such a channel waits until the client reads
/// again, so without this handler a client that never reads would hold its connection, its
/// task and the bytes queued for it as long as it stays connected, and would hold up a graceful
/// shutdown as long. When the channel has stayed unwritable for `timeout`, the handler resets
/// the connection (`SO_LINGER` of 0, then close): the kernel discards what it holds for the
/// client at once, the waiting write fails, and the stream that made it ends. A client that
/// reads, however slowly, makes the channel writable again and restarts the clock.
final class StalledConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: TimeAmount
    private var reset: Scheduled<Void>?

    /// Creates a handler that resets its connection after `timeout` without writability (at
    /// most a year: a longer one is a year).
    init(timeout: Duration) {
        let bounded = min(timeout, .seconds(365 * 86_400)).components
        self.timeout = .nanoseconds(bounded.seconds * 1_000_000_000 + bounded.attoseconds / 1_000_000_000)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if !context.channel.isWritable { schedule(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            cancel()
        } else if reset == nil {
            schedule(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func schedule(context: ChannelHandlerContext) {
        let channel = context.channel
        reset = context.eventLoop.scheduleTask(in: timeout) {
            Self.resetConnection(channel)
        }
    }

    private func cancel() {
        reset?.cancel()
        reset = nil
    }

    /// Closes `channel` with a reset rather than an orderly shutdown, so that the kernel keeps
    /// nothing for a client that does not read.
    private static func resetConnection(_ channel: any Channel) {
        guard let socket = channel as? any SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
