import Synchronization

/// A bounded queue from one producer task to one consumer task: the producer waits while
/// `capacity` elements wait for the consumer, so however far ahead the producer could run, at
/// most `capacity` elements are held.
///
/// The consumer takes everything waiting at once (``next()``), so the two tasks meet once per
/// run of elements rather than once per element. The producer ends the queue with
/// ``finish(throwing:)``; the consumer, when it stops early (its client went away), closes it
/// with ``close()``, which drops what waits and makes every later ``push(_:)`` return `false`.
///
/// A `Mutex`-guarded state machine: each method decides under the lock, and a waiting task is
/// resumed after the lock is released.
final class HandoffQueue<Element: Sendable>: Sendable {
    /// What ``next()`` hands the consumer.
    enum Taken {
        /// The elements pushed since the last take, in order.
        case elements([Element])
        /// The producer failed with this error after the elements already taken.
        case failed(any Error)
    }

    private struct State {
        var elements: [Element] = []
        /// The producer called ``finish(throwing:)``.
        var finished = false
        var failure: (any Error)?
        /// The consumer called ``close()``.
        var closed = false
        var consumer: CheckedContinuation<Void, Never>?
        var producer: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    /// The most elements that wait for the consumer.
    let capacity: Int

    /// Creates an empty queue that holds at most `capacity` elements (at least 1).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Queues `element`, first waiting while the queue is full. Returns `false`, without queuing
    /// it, once the consumer has closed the queue: the producer should stop.
    func push(_ element: Element) async -> Bool {
        while true {
            let (pushed, consumer): (Bool?, CheckedContinuation<Void, Never>?) = state.withLock { state in
                if state.closed { return (false, nil) }
                guard state.elements.count < capacity else { return (nil, nil) }
                state.elements.append(element)
                defer { state.consumer = nil }
                return (true, state.consumer)
            }
            consumer?.resume()
            if let pushed { return pushed }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.closed || state.elements.count < capacity { return true }
                    state.producer = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    /// Ends the queue: once the consumer has taken what waits, ``next()`` returns `failure`
    /// (as ``Taken/failed(_:)``) when there is one, then `nil`.
    func finish(throwing failure: (any Error)? = nil) {
        let consumer: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            state.failure = failure
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume()
    }

    /// Drops what waits and refuses every later push: the consumer stops taking.
    func close() {
        let producer: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.closed = true
            state.elements = []
            defer { state.producer = nil }
            return state.producer
        }
        producer?.resume()
    }

    /// Everything waiting, once something is; the producer's failure once it finished with one
    /// and nothing else waits; `nil` once it finished and everything was taken.
    func next() async -> Taken? {
        while true {
            let (taken, done, producer): (Taken?, Bool, CheckedContinuation<Void, Never>?) = state.withLock {
                state in
                if !state.elements.isEmpty {
                    let elements = state.elements
                    state.elements = []
                    defer { state.producer = nil }
                    return (.elements(elements), false, state.producer)
                }
                guard state.finished else { return (nil, false, nil) }
                defer { state.failure = nil }
                return (state.failure.map { .failed($0) }, true, nil)
            }
            producer?.resume()
            if taken != nil || done { return taken }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if !state.elements.isEmpty || state.finished { return true }
                    state.consumer = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }
}
