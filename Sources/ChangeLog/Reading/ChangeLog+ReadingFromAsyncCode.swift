extension ChangeLog {
    /// Runs `body`, which reads the log through its synchronous API, where the log's engine does
    /// its blocking reads: async code calls the synchronous API through this so that it never
    /// holds one of Swift's cooperative threads while a read waits.
    ///
    /// On PostgreSQL a read waits on the network: `body` runs on the engine's own read threads
    /// (as a task executor preference), and the calling task resumes where it was afterwards. On
    /// the embedded engines (LMDB, the file engine), whose reads are memory-mapped or local file
    /// reads, `body` runs in place. Inside an actor's isolation `body` runs on the actor, as any
    /// isolated code does: call this from nonisolated code, as a server's route handlers are.
    ///
    /// ``records(in:batchSize:)``, ``changes(in:batchSize:)`` and subscriptions already read
    /// this way when iterated with `for try await`.
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor (by default, `#isolation`); inside one, `body` runs on it.
    ///   - body: The reading; it may throw any error, which is rethrown.
    /// - Returns: What `body` returns.
    public func reading<Result, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation, _ body: () throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        guard let executor = store.storage.readExecutor else { return try body() }
        return try await withTaskExecutorPreference(executor, isolation: isolation) { () throws(Failure) in
            try body()
        }
    }
}
