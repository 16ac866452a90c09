import Foundation

/// A task executor of a few threads of its own, on which jobs may block: the threads on which
/// an engine whose reads wait on the network does them (``LogStorage/readExecutor``), and on
/// which a tool runs its synchronous work.
///
/// No thread of Swift's cooperative pool may block on a network round trip or a long file read
/// (the pool has as many threads as the machine has processors, two on a small machine): async
/// code that must call a blocking API runs it with one of these as its task executor preference,
/// and the cooperative pool stays free. Jobs run in the order they were enqueued, each on the
/// first free thread. The threads start when the executor is made and live as long as the
/// process: make one per purpose, once (a `static let`).
package final class BlockingThreads: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Jobs waiting for a thread, oldest first from `head`; guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var head = 0
    /// The threads' identities, for ``runsCurrentThread``; guarded by `condition`.
    private var threads: [pthread_t] = []

    /// Starts `count` threads (at least one), named `name.0`, `name.1`...
    package init(name: String, count: Int) {
        for index in 0..<max(1, count) {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "\(name).\(index)"
            thread.start()
        }
    }

    /// Whether the calling thread is one of this executor's.
    package var runsCurrentThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        return threads.contains { pthread_equal($0, pthread_self()) != 0 }
    }

    /// Queues `job` for the next free thread.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come, forever.
    private func work() {
        // No asynchronous signal is delivered here: a process that handles signals through a
        // dispatch source (which sees only signals every thread blocks) keeps receiving them.
        // The signals a thread raises itself stay unblocked: blocked, the kernel would end the
        // process with them instead of running the handler a process installed (the tool turns
        // a `SIGBUS` from a log file cut short under it into one line).
        var asynchronous = sigset_t()
        sigfillset(&asynchronous)
        for synchronous in [SIGBUS, SIGSEGV, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT] {
            sigdelset(&asynchronous, synchronous)
        }
        pthread_sigmask(SIG_SETMASK, &asynchronous, nil)
        condition.lock()
        threads.append(pthread_self())
        condition.unlock()
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
