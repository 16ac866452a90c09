extension ChangeLog {
    /// Subscribes to the revisions from `revision` on: the ones already stored, a
    /// ``LogSubscription/Event/caughtUp(latest:)`` marker, then live ones as they are appended by
    /// any writer, in this process or another.
    ///
    /// Nothing happens until the subscription is iterated; each iterator is a subscription of
    /// its own. Every revision is delivered exactly once and in order, with no gap between the
    /// stored and the live ones (``LogSubscription`` says how, and what durability a delivered
    /// revision has).
    ///
    /// A subscription outlasts an engine that cannot be reached for a while (a PostgreSQL
    /// server restarting, a connection cut): a read that fails for that reason is tried again,
    /// after 0.1 s, then twice as long each time up to 2 s, for up to two minutes of failures,
    /// and the subscription goes on from the revision after the last one it delivered, with no
    /// gap and no duplicate. Any other failure, or one that lasts longer, ends it with the error.
    ///
    /// - Parameters:
    ///   - revision: the first revision to deliver. 0 or 1 start at the oldest revision stored
    ///     (1 unless retention dropped revisions). A revision after the latest one delivers
    ///     the caught-up marker at once and waits until that revision is appended (the
    ///     revisions before it are not delivered). A revision dropped by retention makes the
    ///     first call to `next()` throw ``ChangeLogError/Code/revisionDropped``.
    ///   - batchSize: the largest number of revisions read in one short read transaction, and
    ///     so the most records a subscription holds in memory at once.
    /// - Returns: the subscription, an `AsyncSequence` of ``LogSubscription/Event``s that throws
    ///   ``ChangeLogError``.
    /// - Complexity: O(1); iterating costs what reading the records costs
    ///   (``records(from:batchSize:)``), and waiting costs nothing but the log's watcher, shared
    ///   by all subscriptions of this instance: a watch on the process's one inotify
    ///   descriptor, and a short read transaction per file event and per
    ///   ``Options/subscriptionPollInterval``.
    public func subscribe(from revision: UInt64, batchSize: Int = 64) -> LogSubscription {
        LogSubscription(log: self, startRevision: revision, batchSize: batchSize)
    }

    /// Subscribes to the revisions' changes from `revision` on, without their snapshots: the
    /// ones already stored, a ``ChangesSubscription/Event/caughtUp(latest:)`` marker, then live
    /// ones as they are appended by any writer, in this process or another.
    ///
    /// What ``subscribe(from:batchSize:)`` delivers, each record as ``RevisionChanges``, with
    /// the same guarantees and parameters, for a follower that needs no snapshot: none is read
    /// or decoded, stored or live (``ChangesSubscription``).
    ///
    /// - Parameters:
    ///   - revision: the first revision to deliver, as for ``subscribe(from:batchSize:)``.
    ///   - batchSize: the largest number of revisions read in one short read transaction, and
    ///     so the most revisions a subscription holds in memory at once.
    /// - Returns: the subscription, an `AsyncSequence` of ``ChangesSubscription/Event``s that
    ///   throws ``ChangeLogError``.
    /// - Complexity: O(1); iterating costs what reading the changes costs
    ///   (``changes(in:batchSize:)``), waiting what a full subscription's waiting costs.
    public func subscribeChanges(from revision: UInt64, batchSize: Int = 64) -> ChangesSubscription {
        ChangesSubscription(log: self, startRevision: revision, batchSize: batchSize)
    }
}

extension CommitNotifier {
    /// A notifier for `store` whose watcher checks the log's latest revision on every change of
    /// its data file (unless `watchesFile` is false) and every `pollInterval`.
    static func watching(_ store: LogStore, pollInterval: Duration, watchesFile: Bool = true) -> CommitNotifier {
        CommitNotifier { notifier in
            watcher(of: store, for: notifier, pollInterval: pollInterval, watchesFile: watchesFile)
        }
    }

    /// A stopped watcher that publishes `store`'s latest revision to `notifier` on every change
    /// of its data file (unless `watchesFile` is false) and every `pollInterval`.
    static func watcher(
        of store: LogStore, for notifier: CommitNotifier, pollInterval: Duration, watchesFile: Bool = true
    ) -> any CommitWatcher {
        store.storage.makeCommitWatcher(pollInterval: pollInterval, watchesFiles: watchesFile) { [weak notifier] in
            guard let notifier else { return }
            // A failed read publishes nothing: the next event or poll tries again, and the
            // subscriptions' own reads report lasting failures.
            let latest = try? store.read(during: "watching") { transaction in
                try store.latest(in: transaction)?.revision
            }
            if let latest = latest ?? nil {
                notifier.publish(latest)
            }
        }
    }
}
