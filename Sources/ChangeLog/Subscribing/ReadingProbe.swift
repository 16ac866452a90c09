import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Records on which threads subscription reads (``RevisionCursor/read(upTo:)``) ran, while a
/// test asks for it, so that it can check that reading and decoding never run on a subscriber's
/// actor (a `@MainActor` subscriber's thread). Unarmed, it costs one uncontended lock per batch.
enum ReadingProbe {
    private static let threads = Mutex<[UInt]?>(nil)

    /// The calling thread's identity.
    static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Starts recording the threads of reads (in this whole process).
    static func start() {
        threads.withLock { $0 = [] }
    }

    /// Stops recording, and returns the threads the reads ran on since ``start()``.
    static func stop() -> Set<UInt> {
        threads.withLock { threads in
            defer { threads = nil }
            return Set(threads ?? [])
        }
    }

    /// Records the current read's thread, while recording.
    static func recordRead() {
        threads.withLock { threads in
            if threads != nil { threads!.append(currentThread) }
        }
    }
}
