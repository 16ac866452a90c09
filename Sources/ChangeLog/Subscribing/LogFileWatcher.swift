import Dispatch
import Synchronization

/// Notices commits made outside this log instance (by another process, or another
/// ``ChangeLog`` of the same path in this process), which LMDB does not announce.
///
/// Two triggers run on one serial queue and call the same `check` (a short read transaction
/// that publishes the latest revision):
///
/// - On Linux, an inotify watch on the log's `data.mdb` (`IN_MODIFY`), on the process's one
///   inotify instance (``FileEventHub``). LMDB writes pages and
///   then the meta page that commits a transaction with `pwrite`, each raising `IN_MODIFY`; but
///   readers take the latest transaction from the lock file's shared memory, which the writer
///   updates just after the meta page's `pwrite` returns. A check run at once can therefore
///   miss the commit that woke it (most do), so every event is followed by a few more
///   checks at growing delays (``followUpDelays``, 0.5 to 42.5 ms after the event), which see
///   it even when the writer was preempted between the two steps; past them, the poll does.
///   Events queued before a check are drained together, so a burst of commits costs one check
///   and one series of follow-ups.
/// - Everywhere, a poll every ``pollInterval``: the safety net for what file events miss (a file
///   system without inotify, an environment opened with `MDB_WRITEMAP`, a full event queue) and
///   the only trigger where inotify does not exist.
///
/// The watcher is started once and stopped once; stopping first makes a later start do nothing.
/// Stopping removes the file's watch and cancels the timers.
package final class LogFileWatcher: CommitWatcher {
    private enum State {
        case idle
        case running(Sources, FileEventHub.Watch?)
        case stopped
    }

    /// The dispatch sources of a running watcher; used only under the state lock.
    private struct Sources: @unchecked Sendable {
        var all: [any DispatchSourceProtocol]
    }

    /// The one-shot timer of follow-up checks, re-armed only on the watcher's queue.
    private struct FollowUp: @unchecked Sendable {
        let timer: any DispatchSourceTimer
    }

    /// The delays of the checks after a file event, each from the one before.
    static let followUpDelays: [DispatchTimeInterval] = [
        .microseconds(500), .milliseconds(2), .milliseconds(8), .milliseconds(32),
    ]

    /// The file watched for modifications.
    let dataFile: String
    /// How often the log is polled, whatever file events say.
    let pollInterval: Duration
    /// Whether to ask for file events; polling runs either way.
    let watchesFile: Bool
    private let check: @Sendable () -> Void
    private let queue = DispatchQueue(label: "ChangeLog.watcher", qos: .userInitiated, target: LogFileWatcher.checks)

    /// The queue every watcher's queue runs on, so that their checks (short read transactions)
    /// run one at a time on one thread. Watchers started and stopped in quick succession would
    /// each get a thread from Dispatch for a queue of their own; on this one queue, subscribing
    /// and breaking off in a loop holds a few threads at most (`SubscriptionTests.resubscribing`).
    private static let checks = DispatchQueue(label: "ChangeLog.watcherChecks", qos: .userInitiated)
    private let state = Mutex(State.idle)
    /// How many follow-up checks of the last file event have run.
    private let followUpsDone = Atomic(0)

    /// Creates a stopped watcher of `dataFile` that calls `check` on file events (unless
    /// `watchesFile` is false) and every `pollInterval` (at least one millisecond) once started.
    package init(
        dataFile: String, pollInterval: Duration, watchesFile: Bool = true, check: @escaping @Sendable () -> Void
    ) {
        self.dataFile = dataFile
        self.pollInterval = max(pollInterval, .milliseconds(1))
        self.watchesFile = watchesFile
        self.check = check
    }

    /// Whether the watcher receives file events (inotify), besides polling: whether it holds a
    /// watch on the process's ``FileEventHub``, from ``start()`` until ``stop()``.
    var usesFileEvents: Bool {
        state.withLock { state in
            guard case .running(_, let watch) = state else { return false }
            return watch != nil
        }
    }

    private var isRunning: Bool {
        state.withLock { state in
            if case .running = state { true } else { false }
        }
    }

    /// Starts watching; does nothing when already started or stopped.
    package func start() {
        state.withLock { state in
            guard case .idle = state else { return }
            var (watch, sources) = watchesFile ? makeFileEventSources() : (nil, [])
            sources.append(makePollTimer())
            for source in sources {
                source.resume()
            }
            state = .running(Sources(all: sources), watch)
        }
    }

    /// Runs the check once, soon, on the watcher's queue, unless the watcher is not running by
    /// then: for a commit made before the file's watch was in place, which no file event
    /// announces.
    package func checkSoon() {
        queue.async { [self] in
            guard isRunning else { return }
            check()
        }
    }

    /// Stops watching and removes the file's watch; a `check` already running finishes.
    package func stop() {
        let (sources, watch) = state.withLock { state -> (Sources, FileEventHub.Watch?) in
            defer { state = .stopped }
            guard case .running(let sources, let watch) = state else { return (Sources(all: []), nil) }
            return (sources, watch)
        }
        if let watch {
            FileEventHub.shared?.remove(watch)
        }
        for source in sources.all {
            source.cancel()
        }
    }

    deinit {
        stop()
    }

    private func makePollTimer() -> any DispatchSourceProtocol {
        // At most a day, which keeps the nanoseconds far from overflowing.
        let nanoseconds = Int(min(pollInterval, .seconds(86_400)) / .nanoseconds(1))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
            leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler { [check] in check() }
        return timer
    }

    /// A timer that runs the follow-up checks after a file event, then stays idle.
    private func makeFollowUpTimer() -> FollowUp {
        let followUp = FollowUp(timer: DispatchSource.makeTimerSource(queue: queue))
        followUp.timer.setEventHandler { [weak self] in
            guard let self else { return }
            check()
            let done = followUpsDone.add(1, ordering: .relaxed).newValue
            if done < Self.followUpDelays.count {
                followUp.timer.schedule(deadline: .now() + Self.followUpDelays[done], repeating: .never)
            }
        }
        return followUp
    }

    /// A watch of the data file on the process's ``FileEventHub``, with the timer of its
    /// follow-up checks; none where inotify is missing or refuses (then polling alone notices
    /// commits).
    private func makeFileEventSources() -> (watch: FileEventHub.Watch?, sources: [any DispatchSourceProtocol]) {
        guard let hub = FileEventHub.shared else { return (nil, []) }
        let followUp = makeFollowUpTimer()
        let eventPending = Atomic(false)
        let watch = hub.watch(dataFile) { [weak self] in
            // On the hub's queue: hand the event over, once however many arrive meanwhile.
            guard let self, !eventPending.exchange(true, ordering: .acquiring) else { return }
            queue.async {
                eventPending.store(false, ordering: .releasing)
                // An event handed over just before stop() checks nothing after it.
                guard self.isRunning else { return }
                self.check()
                self.followUpsDone.store(0, ordering: .relaxed)
                followUp.timer.schedule(deadline: .now() + Self.followUpDelays[0], repeating: .never)
            }
        }
        guard let watch else {
            // The timer's handler holds the timer: cancelled, it lets the handler go, and both
            // are freed (a source must be activated before it is cancelled or released).
            followUp.timer.resume()
            followUp.timer.cancel()
            return (nil, [])
        }
        return (watch, [followUp.timer])
    }
}
