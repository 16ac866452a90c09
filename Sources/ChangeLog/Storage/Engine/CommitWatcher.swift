/// Notices revisions committed outside this log instance (another process, another host,
/// another instance in this process) and has them published: it calls the check it was made
/// with, which reads the latest revision and publishes it to the ``CommitNotifier``.
///
/// A notice only wakes: a subscriber then reads from where it is, so a lost or late notice
/// delays a revision and never loses one. Every engine also polls (the check runs at least
/// every `subscriptionPollInterval`), which bounds that delay. What wakes it, by engine:
/// - LMDB: file events on `data.mdb` (inotify, ``FileEventHub``) with a few follow-up checks,
///   and the poll (``LogFileWatcher``).
/// - PostgreSQL: `LISTEN` on the log's channel, one connection per process fanning out,
///   notified by the appending transaction's `NOTIFY`; and the poll.
/// - An append-only file: file events on the log file, and the poll.
///
/// A watcher is started once and stopped once; stopping first makes a later start do nothing.
package protocol CommitWatcher: Sendable {
    /// Starts watching: from now on, commits of others lead to a check.
    func start()

    /// Runs a check soon, whatever has been noticed: for listeners that registered while the
    /// watcher was being started, and may have missed a commit made meanwhile.
    func checkSoon()

    /// Stops watching and releases what the watcher holds (file watches, timers, connections).
    func stop()
}
