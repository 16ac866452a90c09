import ChangeLog

/// The threads on which the PostgreSQL engine's asynchronous callers wait for the server: a
/// task executor (``LogStorage/readExecutor``) of a few threads of its own.
///
/// The log's storage seam is synchronous (a read is a closure run inside one transaction), and
/// a read on PostgreSQL waits for network round trips. No thread of Swift's cooperative pool may
/// block on such a wait (the pool has as many threads as the machine has processors, two on a
/// small machine), so the subscriptions, live feeds, iterated ranges, `verify` and
/// `ChangeLog.reading` of a PostgreSQL log run their reads with this executor as their task
/// executor preference: the jobs run here, and the cooperative pool stays free. Synchronous
/// callers (the log's reading API, the writer's queue) wait on the thread they are on, as with
/// any blocking call.
///
/// One executor serves the whole process; its four threads start on first use and live as long.
enum PostgresReadExecutor {
    /// The process's executor.
    static let shared = BlockingThreads(name: "ChangeLogPostgres.read", count: 4)
}
