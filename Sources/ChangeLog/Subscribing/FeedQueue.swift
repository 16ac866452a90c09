import Synchronization

/// The live revisions the ``LiveFeed`` gave one subscription (``LogSubscription``,
/// ``ChangesSubscription``), waiting for it to take them: at most `capacity` records, the subscription's batch size, counting the one it took
/// last until it asks for the next (as a batch read from the log counts until delivered).
///
/// The feed pushes on its own task and never waits: when the queue is full, the push is
/// refused and the queue marks its subscription as fallen behind, which then leaves the feed,
/// delivers what the queue holds, reads the rest from the log itself (as a slow subscription
/// always did) and joins the feed again. So a subscriber that does not keep up costs the feed
/// nothing, holds at most `capacity` records, and still receives every revision once, in order.
///
/// A `Mutex`-guarded state; a waiting subscription is resumed after the lock is released.
final class FeedQueue<Element: Sendable>: Sendable {
    /// What ``take()`` returns.
    enum Take: Sendable {
        /// The next live revision.
        case record(Element)
        /// Every queued revision was taken, and the queue refused a later one, or the feed
        /// stopped: read the log from the cursor, then join again.
        case fellBehind
        /// The waiting task was cancelled.
        case cancelled
    }

    private struct State {
        var records: [Element] = []
        var head = 0
        /// Whether the subscription holds the record it took last: it counts against the
        /// capacity until the subscription asks for the next one.
        var holdsOne = false
        var fellBehind = false
        var cancelled = false
        var waiter: CheckedContinuation<Take, Never>?

        var count: Int { records.count - head }
    }

    private let state = Mutex(State())
    /// The most records that wait.
    let capacity: Int

    /// An empty queue that holds at most `capacity` records.
    init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
    }

    /// Queues `record`, or hands it to the waiting subscription; `false` when the queue is full
    /// (it has now fallen behind) or its subscription is gone.
    func push(_ record: Element) -> Bool {
        let (accepted, waiter): (Bool, CheckedContinuation<Take, Never>?) = state.withLock { state in
            guard !state.fellBehind, !state.cancelled else { return (false, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                state.holdsOne = true
                return (true, waiter)
            }
            guard state.count + (state.holdsOne ? 1 : 0) < capacity else {
                state.fellBehind = true
                return (false, nil)
            }
            // Taken records leave the array in blocks: it holds fewer than 2 × capacity.
            if state.head >= capacity {
                state.records.removeFirst(state.head)
                state.head = 0
            }
            state.records.append(record)
            return (true, nil)
        }
        waiter?.resume(returning: .record(record))
        return accepted
    }

    /// Marks the queue fallen behind: the feed stopped.
    func fallBehind() {
        let waiter: CheckedContinuation<Take, Never>? = state.withLock { state in
            state.fellBehind = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .fellBehind)
    }

    /// The next queued record, waiting for one; ``Take/fellBehind`` once the queue is empty and
    /// fell behind.
    func take() async -> Take {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Take, Never>) in
                let ready: Take? = state.withLock { state in
                    // The record taken before is delivered: it no longer counts.
                    state.holdsOne = false
                    if state.count > 0 {
                        state.holdsOne = true
                        defer { state.head += 1 }
                        return .record(state.records[state.head])
                    }
                    if state.fellBehind { return .fellBehind }
                    if state.cancelled || Task.isCancelled {
                        state.cancelled = true
                        return .cancelled
                    }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Ends the queue: a waiting ``take()`` returns ``Take/cancelled``, and so does every later
    /// one that finds nothing queued; pushes are refused.
    func cancel() {
        let waiter: CheckedContinuation<Take, Never>? = state.withLock { state in
            state.cancelled = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .cancelled)
    }
}
