import Foundation
import Testing

@testable import ChangeLog

/// The threads of `BlockingThreads` leave asynchronous signals to the thread that handles them
/// and keep the signals a thread raises itself, so a handler for those still runs.
@Suite struct BlockingThreadsTests {
    @Test func aWorkerBlocksAsynchronousSignalsOnlyAndRunsItsJobsThere() async {
        let threads = BlockingThreads(name: "BlockingThreadsTests", count: 2)
        let (onWorker, blocked) = await withTaskExecutorPreference(threads) { () async -> (Bool, Set<Int32>) in
            var mask = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &mask)
            let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGBUS, SIGSEGV, SIGFPE, SIGILL, SIGABRT]
            return (threads.runsCurrentThread, Set(signals.filter { sigismember(&mask, $0) == 1 }))
        }
        #expect(onWorker)
        #expect(blocked == [SIGINT, SIGTERM, SIGHUP])
    }
}
