import NIOCore
import NIOHTTPTypes

/// Closes a connection that keeps the server waiting for a request, and one whose event stream
/// ended.
///
/// Three deadlines, one at a time, from ``ServerConfiguration``:
/// - idle: while the connection waits for a request and no byte of one came, from when it was
///   accepted or its last response ended (``ServerConfiguration/idleTimeout``);
/// - head: from the first byte of a request until its head is complete
///   (``ServerConfiguration/requestHeadTimeout``); more bytes do not extend it, so a client that
///   sends its head a byte at a time is closed all the same;
/// - body: from a request's head until its end (``ServerConfiguration/requestBodyTimeout``).
///
/// While the server answers a request none runs: a response that the client does not take is
/// ``StalledConnectionHandler``'s concern. The handler also tells the ``ConnectionRegistry``
/// when its connection is idle, so that the connection limit can close it to make room.
///
/// A response of type `text/event-stream` ends only when the server ends the stream (the
/// server is shutting down, the subscriber read too slowly, the log could not be read): once
/// its end has been handed to the kernel the connection is closed, rather than kept for another
/// request that a client of an ended stream does not send on it.
///
/// It sits after the HTTP codec, and puts a ``RequestByteObserver`` at the front of the
/// pipeline to learn when the first raw byte of a request arrives.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The three deadlines.
    struct Timeouts {
        var idle: TimeAmount
        var head: TimeAmount
        var body: TimeAmount
    }

    private let timeouts: Timeouts
    private let registry: ConnectionRegistry?
    private var context: ChannelHandlerContext?
    /// A request's head came and its end did not yet.
    private var readingRequest = false
    /// Requests whose response has not ended.
    private var unanswered = 0
    /// Bytes of the next request came, and not yet its head.
    private var headStarted = false
    /// The response being written is an event stream.
    private var writingEventStream = false
    private var deadline: Scheduled<Void>?

    init(timeouts: Timeouts, registry: ConnectionRegistry?) {
        self.timeouts = timeouts
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        try? context.pipeline.syncOperations.addHandler(RequestByteObserver(owner: self), position: .first)
        rearm()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        registry?.forget(context.channel)
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        registry?.forget(context.channel)
        context.fireChannelInactive()
    }

    /// Called by the observer for every read of raw bytes.
    func bytesArrived() {
        guard !headStarted, !readingRequest else { return }
        headStarted = true
        // The head's deadline starts now, unless a response is being written: then it starts
        // when that response ends.
        if unanswered == 0 { rearm() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            headStarted = false
            readingRequest = true
            unanswered += 1
            rearm()
        case .body:
            break
        case .end:
            readingRequest = false
            headStarted = false
            rearm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            writingEventStream =
                response.headerFields[.contentType]?.lowercased().hasPrefix("text/event-stream") ?? false
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            unanswered = max(0, unanswered - 1)
            if writingEventStream {
                writingEventStream = false
                let written = promise ?? context.eventLoop.makePromise()
                let channel = context.channel
                written.futureResult.whenComplete { _ in channel.close(promise: nil) }
                context.writeAndFlush(data, promise: written)
            } else {
                context.write(data, promise: promise)
                rearm()
            }
        }
    }

    /// Cancels the deadline running and starts the one that applies now, if any.
    private func rearm() {
        deadline?.cancel()
        deadline = nil
        guard let context else { return }
        let timeout: TimeAmount?
        if readingRequest {
            timeout = timeouts.body
        } else if unanswered > 0 {
            timeout = nil
        } else if headStarted {
            timeout = timeouts.head
        } else {
            timeout = timeouts.idle
        }
        registry?.setIdle(context.channel, !readingRequest && unanswered == 0)
        guard let timeout else { return }
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }
}

/// Tells a ``RequestDeadlineHandler`` when raw bytes arrive, before the HTTP codec has made
/// anything of them.
final class RequestByteObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let owner: RequestDeadlineHandler

    init(owner: RequestDeadlineHandler) {
        self.owner = owner
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        owner.bytesArrived()
        context.fireChannelRead(data)
    }
}
