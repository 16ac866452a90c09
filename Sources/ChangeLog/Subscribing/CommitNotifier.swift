import Synchronization

/// Tells the subscriptions of one ``ChangeLog`` that revisions were committed, as a single
/// number: the latest revision known to be committed.
///
/// Notifications coalesce. A listener never needs more than "something new up to revision *n*"
/// (it then reads the records from the log itself), so the notifier keeps one number, never a
/// queue: a listener that is busy elsewhere misses nothing and costs no memory, and publishing
/// never waits for a listener.
///
/// Two sources publish into it: the log's writer after each committed transaction (appends made
/// through this instance), and the engine's ``CommitWatcher`` (appends made by other processes, or by other
/// instances in this process), which runs while at least one listener is registered and stops
/// when the last one leaves.
///
/// The state is a `Mutex`-guarded state machine whose methods return what to do; continuations
/// are resumed, and watchers started or stopped, only after the lock is released.
final class CommitNotifier: Sendable {
    /// Identifies one registered listener.
    typealias ListenerID = UInt64
    /// Resumed with the latest published revision, or `nil` when the wait was cancelled.
    typealias Continuation = CheckedContinuation<UInt64?, Never>

    private let state = Mutex(StateMachine())
    private let makeWatcher: (@Sendable (CommitNotifier) -> any CommitWatcher)?

    /// Creates a notifier; `makeWatcher`, when given, creates the watcher that runs while
    /// listeners are registered.
    init(makeWatcher: (@Sendable (CommitNotifier) -> any CommitWatcher)? = nil) {
        self.makeWatcher = makeWatcher
    }

    /// The largest revision published so far (0 before the first).
    var latest: UInt64 { state.withLock { $0.latest } }
    /// The number of registered listeners.
    var listenerCount: Int { state.withLock { $0.listeners.count } }
    /// The number of listeners suspended in ``wait(_:after:)``.
    var waitingCount: Int { state.withLock { $0.waitingCount } }
    /// Whether a watcher is installed (it runs while listeners are registered).
    var isWatching: Bool { state.withLock { $0.watcher != nil } }

    /// Records that every revision up to `revision` is committed, and wakes the listeners
    /// waiting for a revision after the one they have. A smaller or equal number than the
    /// latest published changes nothing.
    ///
    /// - Complexity: O(*l*), where *l* is the number of registered listeners; never blocks on a
    ///   listener.
    func publish(_ revision: UInt64) {
        let ready = state.withLock { $0.publish(revision) }
        for continuation in ready {
            continuation.resume(returning: revision)
        }
    }

    /// Registers a listener, starting the watcher if it is the first one.
    func register() -> ListenerID {
        let (id, action) = state.withLock { $0.register() }
        switch action {
        case .none:
            break
        case .startWatching:
            guard let makeWatcher else { break }
            let watcher = makeWatcher(self)
            // The listeners may all have left meanwhile, or another registration installed its
            // watcher first: then this one is not needed.
            if let othersRegistered = state.withLock({ $0.install(watcher, madeFor: id) }) {
                watcher.start()
                // Listeners that registered while this watcher was being made found it there and
                // may have measured their backlog before its file watch was in place: a commit
                // made meanwhile raised no event it sees. One check publishes it.
                if othersRegistered {
                    watcher.checkSoon()
                }
            } else {
                watcher.stop()
            }
        }
        return id
    }

    /// Unregisters `id`, ending its wait if it is waiting and stopping the watcher if it was the
    /// last listener. Unregistering twice does nothing.
    func unregister(_ id: ListenerID) {
        let action = state.withLock { $0.unregister(id) }
        action.continuation?.resume(returning: nil)
        action.watcher?.stop()
    }

    /// Waits until a revision after `revision` has been published, and returns the latest
    /// published one; returns at once when one already has been.
    ///
    /// Returns `nil` when the calling task is cancelled (then every later wait of `id` returns
    /// `nil` too) or `id` is not registered.
    func wait(_ id: ListenerID, after revision: UInt64) async -> UInt64? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Continuation) in
                let action = state.withLock { $0.wait(id, after: revision, continuation: continuation) }
                switch action {
                case .suspend:
                    break
                case .resume(let value):
                    continuation.resume(returning: value)
                }
            }
        } onCancel: {
            let continuation = state.withLock { $0.cancel(id) }
            continuation?.resume(returning: nil)
        }
    }
}

extension CommitNotifier {
    /// The notifier's state, changed only under its lock. Each method returns what the caller
    /// must do once the lock is released.
    struct StateMachine {
        enum Listener {
            /// Registered, not waiting.
            case idle
            /// Suspended until a revision after `after` is published.
            case waiting(after: UInt64, Continuation)
            /// Its task was cancelled: every wait returns `nil` at once.
            case cancelled
        }

        enum RegisterAction {
            case none
            /// The first listener arrived and no watcher is installed: create and install one.
            case startWatching
        }

        enum WaitAction {
            case suspend
            case resume(UInt64?)
        }

        struct UnregisterAction {
            /// The listener's pending wait, to resume with `nil`.
            var continuation: Continuation?
            /// The watcher to stop, when the last listener left.
            var watcher: (any CommitWatcher)?
        }

        private(set) var latest: UInt64 = 0
        private(set) var listeners: [ListenerID: Listener] = [:]
        private(set) var watcher: (any CommitWatcher)?
        private var nextID: ListenerID = 1

        var waitingCount: Int {
            listeners.values.count { listener in
                if case .waiting = listener { true } else { false }
            }
        }

        mutating func register() -> (ListenerID, RegisterAction) {
            let id = nextID
            nextID += 1
            listeners[id] = .idle
            return (id, listeners.count == 1 && watcher == nil ? .startWatching : .none)
        }

        /// Installs `watcher`, made when listener `id` registered, unless no listener is left or
        /// another watcher is installed. Returns `nil` when it is not installed, otherwise
        /// whether other listeners registered after `id` while it was being made.
        mutating func install(_ watcher: any CommitWatcher, madeFor id: ListenerID) -> Bool? {
            guard !listeners.isEmpty, self.watcher == nil else { return nil }
            self.watcher = watcher
            return nextID > id + 1
        }

        mutating func publish(_ revision: UInt64) -> [Continuation] {
            guard revision > latest else { return [] }
            latest = revision
            var ready: [Continuation] = []
            for (id, listener) in listeners {
                if case .waiting(let after, let continuation) = listener, after < revision {
                    ready.append(continuation)
                    listeners[id] = .idle
                }
            }
            return ready
        }

        mutating func wait(_ id: ListenerID, after revision: UInt64, continuation: Continuation) -> WaitAction {
            switch listeners[id] {
            case nil, .cancelled:
                return .resume(nil)
            case .waiting:
                preconditionFailure("listener \(id) waits twice at once; a listener belongs to one iterator")
            case .idle:
                if latest > revision {
                    return .resume(latest)
                }
                listeners[id] = .waiting(after: revision, continuation)
                return .suspend
            }
        }

        /// Marks `id` cancelled; returns its pending wait, to resume with `nil`.
        mutating func cancel(_ id: ListenerID) -> Continuation? {
            guard let listener = listeners[id] else { return nil }
            listeners[id] = .cancelled
            if case .waiting(_, let continuation) = listener {
                return continuation
            }
            return nil
        }

        mutating func unregister(_ id: ListenerID) -> UnregisterAction {
            guard let listener = listeners.removeValue(forKey: id) else { return UnregisterAction() }
            var action = UnregisterAction()
            if case .waiting(_, let continuation) = listener {
                action.continuation = continuation
            }
            if listeners.isEmpty {
                action.watcher = watcher
                watcher = nil
            }
            return action
        }
    }
}
