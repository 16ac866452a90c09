import ChangeLog
import Synchronization

/// How a PostgreSQL log's subscriptions learn of commits made elsewhere: `LISTEN` on
/// ``PostgresSchema/channel`` through the process's one listening connection to the database
/// (``PostgresNotificationHub``), and a poll every `pollInterval`.
///
/// A notification only wakes: the check then reads the log's latest revision, and the
/// subscriber reads from where it is. A lost notification (a connection cut, a server restart)
/// delays a revision by at most the poll interval, and never loses one; the hub also wakes every
/// watcher when its connection comes back.
final class PostgresCommitWatcher: CommitWatcher {
    private let hub: PostgresNotificationHub
    private let logID: Int64
    private let listens: Bool
    /// The poll, and the queue on which every check runs (`LogFileWatcher` without file events).
    private let poll: LogFileWatcher
    private let registration = Mutex<PostgresNotificationHub.Registration?>(nil)
    private let stopped = Atomic(false)

    init(
        connector: PostgresConnector, logID: Int64, pollInterval: Duration, listens: Bool,
        check: @escaping @Sendable () -> Void
    ) {
        hub = PostgresNotificationHub.hub(for: connector)
        self.logID = logID
        self.listens = listens
        poll = LogFileWatcher(dataFile: "", pollInterval: pollInterval, watchesFile: false, check: check)
    }

    func start() {
        guard !stopped.load(ordering: .acquiring) else { return }
        poll.start()
        guard listens else { return }
        let poll = self.poll
        let added = hub.register(logID: logID) { poll.checkSoon() }
        let extra = registration.withLock { registration -> PostgresNotificationHub.Registration? in
            guard registration == nil, !stopped.load(ordering: .acquiring) else { return added }
            registration = added
            return nil
        }
        if let extra { hub.unregister(extra) }
    }

    func checkSoon() {
        poll.checkSoon()
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        poll.stop()
        if let registration = registration.withLock({ registration in
            defer { registration = nil }; return registration
        }) {
            hub.unregister(registration)
        }
    }

    deinit {
        stop()
    }
}
