import Hummingbird
import Synchronization

/// The events waiting to be sent to one subscriber, at most `limit` bytes of them.
///
/// One producer (the task reading the log) pushes, one consumer (the response writer) takes.
/// While catching up, the producer waits for room (``pushWaitingForRoom(_:)``). Live, when a
/// push would go over the limit, the waiting events are dropped and the buffer ends with a final
/// comment saying why (``push(_:overflowComment:)``): the subscriber is too slow, and the
/// server's memory stays bounded however long it does not read. One event larger than the limit
/// is let through when nothing else waits. A ``finish(comment:)`` (shutdown, a read error) ends it the
/// same way, after what is already waiting.
///
/// A `Mutex`-guarded state machine: each method decides under the lock, and a waiting consumer
/// is resumed after the lock is released.
final class SubscriberBuffer: Sendable {
    /// What a push did.
    enum PushResult: Equatable {
        /// The event is queued.
        case queued
        /// The buffer was over its limit or had ended: the producer should stop.
        case closed
    }

    private struct State {
        var queue: [ByteBuffer] = []
        var queuedBytes = 0
        var finished = false
        /// Whether anything was pushed since the last keep-alive check.
        var active = false
        var waiter: CheckedContinuation<ByteBuffer?, Never>?
        /// The producer waiting for room (``pushWaitingForRoom(_:)``).
        var roomWaiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    /// The most bytes that may wait.
    let limit: Int

    /// Creates an empty buffer that holds at most `limit` bytes.
    init(limit: Int) {
        self.limit = limit
    }

    /// Queues `event`, or, when the bytes waiting would go over the limit, drops them and ends
    /// the buffer with `overflowComment`.
    func push(_ event: ByteBuffer, overflowComment: @autoclosure () -> ByteBuffer) -> PushResult {
        let (result, resume): (PushResult, (CheckedContinuation<ByteBuffer?, Never>, ByteBuffer?)?) = state.withLock {
            state in
            guard !state.finished else { return (.closed, nil) }
            state.active = true
            if state.queuedBytes + event.readableBytes > limit && !state.queue.isEmpty {
                state.queue = [overflowComment()]
                state.queuedBytes = state.queue[0].readableBytes
                state.finished = true
                return (.closed, Self.takeForWaiter(&state))
            }
            state.queue.append(event)
            state.queuedBytes += event.readableBytes
            return (.queued, Self.takeForWaiter(&state))
        }
        if let (waiter, value) = resume { waiter.resume(returning: value) }
        return result
    }

    /// Queues `event` once the bytes waiting leave room for it (or nothing waits), waiting for
    /// the consumer as long as needed: the back-pressure of a catch-up, which reads the log only
    /// as fast as the subscriber takes what was read.
    ///
    /// - Returns: ``PushResult/closed`` when the buffer ended or the task was cancelled.
    func pushWaitingForRoom(_ event: ByteBuffer) async -> PushResult {
        while true {
            let hasRoom = state.withLock { state in
                state.finished || state.queue.isEmpty || state.queuedBytes + event.readableBytes <= limit
            }
            if hasRoom { return push(event, overflowComment: event) }
            if Task.isCancelled { return .closed }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let waits = state.withLock { state in
                        let full =
                            !state.finished && !state.queue.isEmpty
                            && state.queuedBytes + event.readableBytes > limit
                        if full && !Task.isCancelled { state.roomWaiter = continuation }
                        return full && !Task.isCancelled
                    }
                    if !waits { continuation.resume() }
                }
            } onCancel: {
                wakeRoomWaiter()
            }
        }
    }

    /// Resumes the producer waiting for room, if any.
    private func wakeRoomWaiter() {
        let waiter = state.withLock { state in
            defer { state.roomWaiter = nil }
            return state.roomWaiter
        }
        waiter?.resume()
    }

    /// Ends the buffer: what waits is still delivered, then `comment` when given, then the end.
    func finish(comment: ByteBuffer? = nil) {
        let resume: (CheckedContinuation<ByteBuffer?, Never>, ByteBuffer?)? = state.withLock { state in
            guard !state.finished else { return nil }
            if let comment { state.queue.append(comment) }
            state.finished = true
            return Self.takeForWaiter(&state)
        }
        if let (waiter, value) = resume { waiter.resume(returning: value) }
        wakeRoomWaiter()
    }

    /// Queues `event` when nothing was pushed since the previous call (the stream was idle).
    func pushIfIdle(_ event: ByteBuffer) {
        let wasActive = state.withLock { state in
            defer { state.active = false }
            return state.active
        }
        if !wasActive { _ = push(event, overflowComment: event) }
    }

    /// The next event, waiting for one; `nil` once the buffer has ended and is empty, or when
    /// the calling task is cancelled.
    func next() async -> ByteBuffer? {
        defer { wakeRoomWaiter() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let value: ByteBuffer?? = state.withLock { state in
                    if !state.queue.isEmpty {
                        let event = state.queue.removeFirst()
                        state.queuedBytes -= event.readableBytes
                        return .some(event)
                    }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let value { continuation.resume(returning: value) }
            }
        } onCancel: {
            defer { wakeRoomWaiter() }
            let waiter = state.withLock { state in
                state.finished = true
                state.queue = []
                state.queuedBytes = 0
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Takes the waiting consumer and what to resume it with: the first event, or `nil` when
    /// the buffer has ended empty. `nil` when no consumer waits or nothing is ready for it.
    private static func takeForWaiter(
        _ state: inout State
    ) -> (CheckedContinuation<ByteBuffer?, Never>, ByteBuffer?)? {
        guard let waiter = state.waiter else { return nil }
        if !state.queue.isEmpty {
            state.waiter = nil
            let event = state.queue.removeFirst()
            state.queuedBytes -= event.readableBytes
            return (waiter, event)
        }
        if state.finished {
            state.waiter = nil
            return (waiter, nil)
        }
        return nil
    }
}
