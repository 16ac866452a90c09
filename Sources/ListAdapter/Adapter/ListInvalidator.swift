import Synchronization

/// The handle a data source calls when its data changed: ``invalidate()`` makes the adapter re-read
/// the data source and deliver the changes.
///
/// A ``ListAdapter`` hands one to ``ListSource/attach(_:)``. It is `Sendable` and
/// ``invalidate()`` may be called from any thread or actor, as often as the data changes: calls
/// that arrive while a diff runs are merged into one more diff (see ``ListAdapter``, "When
/// invalidations merge"). The invalidator holds
/// its adapter weakly, so a data source that keeps it does not keep the adapter alive. When the
/// adapter moves to another data source (``ListAdapter/setDataSource(_:)``), the old data source's
/// invalidator is detached and its calls do nothing.
public final class ListInvalidator: Sendable {
    private let requests: InvalidationRequests
    private let attachment: UInt64
    private let wake: @Sendable () -> Void

    /// Creates an invalidator that counts requests in `requests` for `attachment` and calls `wake`
    /// when the adapter must be woken up.
    init(requests: InvalidationRequests, attachment: UInt64, wake: @escaping @Sendable () -> Void) {
        self.requests = requests
        self.attachment = attachment
        self.wake = wake
    }

    /// Tells the adapter that the data source's identifiers, sections or summaries changed.
    ///
    /// Returns at once; the adapter re-reads the data source (on the data source's isolation),
    /// diffs off the main actor and delivers the result to its observers on the main actor. Call
    /// it after the change is visible to the data source's methods: a diff that starts after this
    /// call sees the change.
    ///
    /// - Complexity: O(1).
    public func invalidate() {
        if requests.request(from: attachment) { wake() }
    }

    /// Whether this invalidator still belongs to its adapter's current data source: `false` once
    /// the adapter moved to another data source, or was deallocated.
    ///
    /// - Complexity: O(1).
    public var isAttached: Bool { requests.isCurrent(attachment) }
}

/// The invalidation requests shared by an adapter and its invalidators.
///
/// A request is counted synchronously, on the caller's thread, so an adapter that compares the
/// count with what it has handled never misses one, even before the main actor has run the
/// wake-up. At most one wake-up is scheduled at a time.
final class InvalidationRequests: Sendable {
    private struct State {
        /// Every request so far, from the adapter itself and from attached invalidators.
        var count: UInt64 = 0
        /// The attachment whose invalidator is live; older ones are ignored.
        var attachment: UInt64 = 0
        /// Whether a wake-up is scheduled on the main actor and has not run yet.
        var wakeScheduled = false
    }

    private let state = Mutex(State())

    /// The number of requests so far.
    var count: UInt64 { state.withLock { $0.count } }

    /// Counts a request from the adapter itself.
    ///
    /// - Returns: The count with this request.
    @discardableResult
    func request() -> UInt64 {
        state.withLock { state in
            state.count += 1
            return state.count
        }
    }

    /// Counts a request from the invalidator of `attachment`, unless it is detached.
    ///
    /// - Returns: Whether the caller must schedule a wake-up of the adapter.
    func request(from attachment: UInt64) -> Bool {
        state.withLock { state in
            guard state.attachment == attachment else { return false }
            state.count += 1
            guard !state.wakeScheduled else { return false }
            state.wakeScheduled = true
            return true
        }
    }

    /// Marks the scheduled wake-up as running; requests after this call schedule another one.
    func beginWake() {
        state.withLock { $0.wakeScheduled = false }
    }

    /// Detaches every invalidator and returns the attachment for the next one.
    func newAttachment() -> UInt64 {
        state.withLock { state in
            state.attachment += 1
            return state.attachment
        }
    }

    /// Whether `attachment` is the live one.
    func isCurrent(_ attachment: UInt64) -> Bool {
        state.withLock { $0.attachment == attachment }
    }
}
