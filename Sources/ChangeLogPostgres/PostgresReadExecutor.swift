import Foundation

/// The threads on which the PostgreSQL engine's asynchronous callers wait for the server: a
/// task executor (``LogStorage/readExecutor``) of a few threads of its own.
///
/// The log's storage seam is synchronous (a read is a closure run inside one transaction), and
/// a read on PostgreSQL waits for network round trips. No thread of Swift's cooperative pool may
/// block on such a wait (the pool has as many threads as the machine has processors, two on a
/// small machine), so the subscriptions and live feeds of a PostgreSQL log run their reads with
/// this executor as their task executor preference: the jobs run here, and the cooperative pool
/// stays free. Synchronous callers (the log's reading API, the writer's queue) wait on the
/// thread they are on, as with any blocking call.
///
/// One executor serves the whole process; its threads start on first use and live as long.
final class PostgresReadExecutor: TaskExecutor, @unchecked Sendable {
    /// The process's executor.
    static let shared = PostgresReadExecutor(threads: 4)

    private let condition = NSCondition()
    /// Jobs waiting for a thread, oldest first; guarded by ``condition``.
    private var jobs: [UnownedJob] = []
    private var head = 0

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "ChangeLogPostgres.read.\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come, forever.
    private func work() {
        while true {
            condition.lock()
            while head == jobs.count {
                condition.wait()
            }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
