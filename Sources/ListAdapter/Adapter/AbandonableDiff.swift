import Synchronization

/// The outcome of one diff that its awaiter may stop waiting for: ``ListAdapter`` awaits each
/// diff of its data source here, and ``ListAdapter/setDataSource(_:)`` abandons the one of the
/// old data source, so that the new one is read at once even if the old one never returns.
///
/// The first of ``finish(_:)`` and ``abandon()`` decides what ``value()`` returns: the outcome,
/// or `nil`. Abandoning also cancels the task computing the outcome, for data sources that
/// honour cancellation.
final class AbandonableDiff<Outcome: Sendable>: Sendable {
    private enum State {
        /// Running; the awaiter, once it waits.
        case running(CheckedContinuation<Outcome?, Never>?)
        /// Decided before the awaiter waited: the outcome, or `nil` when abandoned.
        case decided(Outcome?)
        /// Handed to the awaiter: the diff keeps nothing of it (whoever frees it decides where).
        case delivered
    }

    private let state = Mutex(State.running(nil))
    /// The task computing the outcome, cancelled on ``abandon()``.
    private let computation = Mutex<Task<Void, Never>?>(nil)

    /// Starts `compute` in a task that prefers `executor`; its outcome finishes the diff.
    init(on executor: some TaskExecutor, _ compute: @escaping @Sendable () async -> Outcome) {
        let task = Task.detached(executorPreference: executor) { [self] in
            decide(await compute())
        }
        computation.withLock { $0 = task }
    }

    /// The outcome, or `nil` once abandoned. Call it once.
    func value() async -> Outcome? {
        await withCheckedContinuation { continuation in
            let decided = state.withLock { state -> Outcome?? in
                switch state {
                case .running:
                    state = .running(continuation)
                    return nil
                case .decided(let outcome):
                    state = .delivered
                    return .some(outcome)
                case .delivered:
                    preconditionFailure("an abandonable diff is awaited once")
                }
            }
            if let decided {
                continuation.resume(returning: decided)
            }
        }
    }

    /// Stops waiting: ``value()`` returns `nil`, and the computation is cancelled.
    func abandon() {
        decide(nil)
        computation.withLock { $0 }?.cancel()
    }

    /// Decides the diff with `outcome` (`nil`: abandoned), unless it is decided already.
    private func decide(_ outcome: Outcome?) {
        let waiting = state.withLock { state -> CheckedContinuation<Outcome?, Never>? in
            guard case .running(let continuation) = state else { return nil }
            guard let continuation else {
                state = .decided(outcome)
                return nil
            }
            state = .delivered
            return continuation
        }
        waiting?.resume(returning: outcome)
    }
}
