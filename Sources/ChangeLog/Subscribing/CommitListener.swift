/// A listener registered with a ``CommitNotifier``, unregistered when its owner drops it (or
/// calls ``unregister()``). While any listener is registered, the log's watcher runs.
final class CommitListener: Sendable {
    let notifier: CommitNotifier
    let id: CommitNotifier.ListenerID

    /// Registers a listener with `notifier`, starting its watcher if it is the first.
    init(notifier: CommitNotifier) {
        self.notifier = notifier
        self.id = notifier.register()
    }

    /// Unregisters the listener, ending its pending wait with `nil`; twice does nothing.
    func unregister() {
        notifier.unregister(id)
    }

    deinit {
        notifier.unregister(id)
    }
}
