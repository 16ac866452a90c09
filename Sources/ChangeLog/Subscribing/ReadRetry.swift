import Synchronization

/// How a subscription rides out a storage engine that cannot be reached for a while (a
/// PostgreSQL server restarting, a connection cut): a read that fails with a transient error
/// (``ChangeLogError/isTransient``) is tried again, after 0.1 s, then twice as long each time up
/// to 2 s, for as long as the failures last up to ``limit``; the subscriber then reads on from
/// the revision after the last one it delivered, so nothing is lost or repeated. Any other
/// error, a failure that lasts longer, or the task's cancellation ends the retries.
///
/// One value per reader: a success resets it (``succeeded()``).
package struct ReadRetry {
    /// How long the failures may last before the read's error ends the subscription.
    static let limit = Duration.seconds(120)
    private static let firstDelay = Duration.milliseconds(100)
    private static let longestDelay = Duration.seconds(2)

    private static let retries = Atomic<Int>(0)

    private var firstFailure: ContinuousClock.Instant?
    private var delay = firstDelay

    /// The number of reads tried again after a transient failure, in this whole process (tests
    /// check that a fault was ridden out, not avoided).
    package static var retryCount: Int { retries.load(ordering: .relaxed) }

    /// After a read failed with `error`: waits and returns `true` when the read should be tried
    /// again; `false` when the error is not transient, the failures have lasted ``limit``, or
    /// the task was cancelled.
    mutating func shouldRetry(after error: ChangeLogError) async -> Bool {
        guard error.isTransient, !Task.isCancelled else { return false }
        let now = ContinuousClock.now
        let first = firstFailure ?? now
        firstFailure = first
        guard now - first < Self.limit else { return false }
        do {
            try await Task.sleep(for: delay)
        } catch {
            return false
        }
        delay = Swift.min(delay * 2, Self.longestDelay)
        Self.retries.add(1, ordering: .relaxed)
        return true
    }

    /// A read succeeded: the next failure starts the count again.
    mutating func succeeded() {
        firstFailure = nil
        delay = Self.firstDelay
    }
}
