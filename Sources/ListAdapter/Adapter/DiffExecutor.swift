import Dispatch

/// The executor an adapter's diffs run on: a serial dispatch queue of the adapter's own.
///
/// Reading a data source of a million identifiers and diffing it is long, CPU-bound work. On the
/// cooperative pool it would hold one of its few threads (one per core) for that long; on Linux,
/// where the main actor's jobs are drained by pool threads too, a two-core machine whose other
/// thread is busy would then stop running the main actor until the diff ends. A serial queue
/// gets a thread of its own, so the main actor and other tasks keep theirs.
final class DiffExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// Marks the queues of diff executors, for ``isCurrent``.
    private static let key = DispatchSpecificKey<Bool>()

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.key, value: true)
    }

    /// Whether the caller runs on the queue of a diff executor.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
