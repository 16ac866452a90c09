#if LMDB
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Keeps this process's transactions away from the memory map while it is being replaced.
    ///
    /// `mdb_env_set_mapsize` unmaps and remaps the file, so no transaction of this process may be
    /// open while it runs (lmdb.h). Every transaction holds the gate shared from begin to end; a
    /// resize holds it exclusively. A waiting resize stops new transactions from entering, so a
    /// steady stream of short reads cannot starve it.
    ///
    /// The gate is not tied to threads (transactions of an `MDB_NOTLS` environment need not be), so
    /// it waits by sleeping briefly: resizes are rare and transactions short. A thread must not
    /// begin a transaction while it already holds one of the same environment, since a resize
    /// waiting between the two would wait forever.
    final class MapResizeGate: Sendable {
        private struct State {
            var transactions = 0
            var resizing = false
        }

        private let state = Mutex(State())

        /// Waits until no resize is running or waiting, then counts one more transaction.
        func enter() {
            while true {
                let entered = state.withLock { state in
                    guard !state.resizing else { return false }
                    state.transactions += 1
                    return true
                }
                if entered { return }
                usleep(50)
            }
        }

        /// Counts one transaction less.
        func leave() {
            state.withLock { state in
                precondition(state.transactions > 0, "MapResizeGate left more often than entered")
                state.transactions -= 1
            }
        }

        /// Runs `body` while no transaction of this process is open and none can begin.
        func withExclusiveAccess<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
            while true {
                let claimed = state.withLock { state in
                    guard !state.resizing else { return false }
                    state.resizing = true
                    return true
                }
                if claimed { break }
                usleep(50)
            }
            while state.withLock({ $0.transactions }) > 0 {
                usleep(50)
            }
            defer { state.withLock { $0.resizing = false } }
            return try body()
        }
    }
#endif
