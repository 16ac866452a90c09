import ChangeLog
import NIOCore
import PostgresNIO
import Synchronization

/// The process's one `LISTEN` connection to a database, fanning notifications out to the
/// watchers of its logs (``PostgresCommitWatcher``), as Commanded's EventStore does: one
/// connection per process and database, not one per subscriber.
///
/// It connects when the first watcher registers and closes when the last one leaves. A
/// notification's payload is `LOG_ID:LATEST`; the watchers of that log are woken. When the
/// connection is lost it reconnects (after a second, then again until it succeeds or nobody
/// listens), and wakes every watcher once listening again, for what was committed meanwhile.
final class PostgresNotificationHub: Sendable {
    /// A watcher's place in the hub.
    struct Registration: Sendable, Hashable {
        let id: Int
    }

    private struct Listener {
        let logID: Int64
        let wake: @Sendable () -> Void
    }

    private struct State {
        var listeners: [Int: Listener] = [:]
        var nextID = 0
        /// The task that keeps the listening connection, while anyone listens.
        var task: Task<Void, Never>?
    }

    private let connector: PostgresConnector
    private let state = Mutex(State())

    private static let hubs = Mutex<[String: PostgresNotificationHub]>([:])

    /// The hub of `connector`'s database (one per server, database and role in the process).
    static func hub(for connector: PostgresConnector) -> PostgresNotificationHub {
        let address = connector.address
        let key = "\(address.user)@\(address.host):\(address.port)/\(address.database)"
        return hubs.withLock { hubs in
            if let hub = hubs[key] { return hub }
            let hub = PostgresNotificationHub(connector: connector)
            hubs[key] = hub
            return hub
        }
    }

    private init(connector: PostgresConnector) {
        self.connector = connector
    }

    /// Calls `wake` (on an event loop: it must only schedule work) on every notification for
    /// log `logID`, and whenever notifications may have been missed.
    func register(logID: Int64, wake: @escaping @Sendable () -> Void) -> Registration {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.listeners[id] = Listener(logID: logID, wake: wake)
            if state.task == nil {
                state.task = Task.detached { [self] in await keepListening() }
            }
            return Registration(id: id)
        }
    }

    /// Removes `registration`; the last one closes the connection.
    func unregister(_ registration: Registration) {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.listeners[registration.id] = nil
            guard state.listeners.isEmpty else { return nil }
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
    }

    private func wake(logID: Int64?) {
        let wakes = state.withLock { state in
            state.listeners.values.filter { logID == nil || $0.logID == logID }.map(\.wake)
        }
        for wake in wakes { wake() }
    }

    /// Connects, listens until the connection ends, and again, until cancelled. Only awaits
    /// (the connection's futures), never blocks.
    private func keepListening() async {
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: connector.configuration,
                    id: 0, logger: PostgresConnector.logger
                ).get()
                let context = connection.addListener(channel: PostgresSchema.channel) { [weak self] _, message in
                    let logID = message.payload.split(separator: ":").first.flatMap { Int64($0) }
                    self?.wake(logID: logID)
                }
                // Make sure the LISTEN is in place, then wake everyone for what came before.
                _ = try await connection.query("SELECT 1", logger: PostgresConnector.logger)
                wake(logID: nil)
                await withTaskCancellationHandler {
                    _ = try? await connection.closeFuture.get()
                } onCancel: {
                    context.stop()
                    connection.closeSoon()
                }
            } catch {
                // Not reachable now: the poll keeps subscribers going meanwhile.
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
