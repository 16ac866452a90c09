import Foundation
import Synchronization

/// Counts the subscription reads (``RevisionCursor/read(upTo:)``) that ran on the process's
/// main thread, so that tests can check that reading and decoding never run there, whatever
/// actor a subscriber is isolated to. One comparison, and an atomic increment at most, per
/// batch read.
enum ReadingProbe {
    private static let mainThreadReads = Atomic<Int>(0)

    /// The number of subscription reads that ran on the main thread in this process.
    static var readsOnMainThread: Int { mainThreadReads.load(ordering: .relaxed) }

    /// Whether the calling thread is the process's main thread.
    static var isMainThread: Bool { Thread.isMainThread }

    /// Counts the current read when it runs on the main thread.
    static func recordRead() {
        if isMainThread {
            mainThreadReads.add(1, ordering: .relaxed)
        }
    }
}
