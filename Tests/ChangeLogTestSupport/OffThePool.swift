import Foundation

/// Runs blocking work (waiting for a child process, reading a pipe to its end) on a thread of
/// its own, never on a thread of Swift concurrency's cooperative pool.
///
/// The pool has as many threads as the machine has processors, two on a small machine, and
/// every test of the test process shares them with the servers under test: a test that blocks
/// one for as long as a child process runs leaves the others fewer, and two such tests starve
/// every task of the process (a server's response, a stream's producer) for as long as they
/// block.
package func offThePool<T: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
        Thread.detachNewThread { continuation.resume(returning: Result { () throws(Failure) in try body() }) }
    }
    return try result.get()
}

extension Process {
    /// Waits until the process exits, off the cooperative pool (``offThePool(_:)``).
    package func exited() async {
        await offThePool { self.waitUntilExit() }
    }
}

extension FileHandle {
    /// Every byte up to the end of the file or pipe (``readToEndRetryingInterruptions()``), read
    /// off the cooperative pool (``offThePool(_:)``).
    package func readToEndOffThePool() async -> Data {
        await offThePool { self.readToEndRetryingInterruptions() }
    }
}

extension FileHandle {
    /// The bytes of one read (``nextChunk(maximum:)``), waited for off the cooperative pool
    /// (``offThePool(_:)``).
    package func nextChunkOffThePool() async -> Data {
        await offThePool { self.nextChunk() }
    }
}
