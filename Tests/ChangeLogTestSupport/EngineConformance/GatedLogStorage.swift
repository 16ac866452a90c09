import ChangeLog
import Dispatch
import Synchronization

/// Any engine's storage, with its write transactions counted and the next one held at its
/// start on request: appends queued while a held transaction waits must share the next one
/// (group commit), which the count shows.
///
/// A held transaction waits on the log's writer queue (a dispatch queue, not one of Swift's
/// cooperative threads) until ``release()``; the test waits for it with ``waitUntilHeld()``,
/// which suspends without blocking.
package final class GatedLogStorage: LogStorage, Sendable {
    private struct State {
        var armed = false
        var held = false
        var writes = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// The engine's own storage.
    package let inner: any LogStorage
    private let state = Mutex(State())
    private let gate = DispatchSemaphore(value: 0)

    /// Wraps `inner`.
    package init(_ inner: any LogStorage) {
        self.inner = inner
    }

    /// How many write transactions began so far.
    package var writes: Int { state.withLock { $0.writes } }

    /// Makes the next write transaction wait at its start until ``release()``.
    package func holdNextWrite() {
        state.withLock { $0.armed = true }
    }

    /// Returns once a write transaction is held.
    package func waitUntilHeld() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.held { return true }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Lets the held transaction go on.
    package func release() {
        gate.signal()
    }

    package var path: String { inner.path }
    package var isReadOnly: Bool { inner.isReadOnly }

    package func read<R>(_ body: (borrowing any LogReadTransaction & ~Copyable) throws -> R) throws -> R {
        try inner.read(body)
    }

    package func write<R>(appending: Bool, _ body: (borrowing any LogWriteTransaction & ~Copyable) throws -> R) throws
        -> R
    {
        let (hold, waiter) = state.withLock { state in
            state.writes += 1
            guard state.armed else { return (false, nil as CheckedContinuation<Void, Never>?) }
            state.armed = false
            state.held = true
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        if hold {
            waiter?.resume()
            gate.wait()
        }
        return try inner.write(appending: appending, body)
    }

    package func makeCommitWatcher(
        pollInterval: Duration, watchesFiles: Bool, check: @escaping @Sendable () -> Void
    ) -> any CommitWatcher {
        inner.makeCommitWatcher(pollInterval: pollInterval, watchesFiles: watchesFiles, check: check)
    }

    package func historyIndex() -> any HistoryIndexStorage { inner.historyIndex() }
    package func flush() throws(ChangeLogError) { try inner.flush() }
    package var bytesInUse: Int { inner.bytesInUse }
    package func space() throws(ChangeLogError) -> StorageSpace { try inner.space() }
    package var isStillAtPath: Bool { inner.isStillAtPath }
}
