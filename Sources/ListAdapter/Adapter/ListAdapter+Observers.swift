extension ListAdapter {
    /// A weakly held observer.
    struct ObserverEntry {
        let id: ObjectIdentifier
        weak var observer: (any ListAdapterObserver<DataSource>)?
    }

    /// Registers `observer` for every later update and failure; it is held weakly. Adding an
    /// observer twice registers it once.
    ///
    /// - Complexity: O(*k*), where *k* is the number of observers.
    public func addObserver(_ observer: some ListAdapterObserver<DataSource>) {
        observers.removeAll { $0.observer == nil }
        let id = ObjectIdentifier(observer)
        guard !observers.contains(where: { $0.id == id }) else { return }
        observers.append(ObserverEntry(id: id, observer: observer))
    }

    /// Unregisters `observer`; it gets nothing more, even during a delivery in progress.
    ///
    /// - Complexity: O(*k*), where *k* is the number of observers.
    public func removeObserver(_ observer: some ListAdapterObserver<DataSource>) {
        let id = ObjectIdentifier(observer)
        observers.removeAll { $0.id == id || $0.observer == nil }
    }

    /// The number of live registered observers.
    ///
    /// - Complexity: O(*k*), where *k* is the number of observers.
    public var observerCount: Int { observers.count { $0.observer != nil } }

    /// The updates delivered from now on, as an `AsyncSequence`.
    ///
    /// Each call returns a new stream that gets every later update, in order, after the
    /// observers. The stream ends when the adapter is deallocated; cancelling its consumer ends
    /// the subscription. Failures are not in the stream: observe them with
    /// ``ListAdapterObserver/listAdapter(_:didFail:)`` or read ``lastError``.
    ///
    /// - Parameter bufferingPolicy: what to keep while the consumer is slower than the adapter;
    ///   by default every update, so that a recorder loses none.
    /// - Complexity: O(1).
    public func updates(
        bufferingPolicy: AsyncStream<Update>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Update> {
        let (stream, continuation) = AsyncStream.makeStream(of: Update.self, bufferingPolicy: bufferingPolicy)
        let key = nextContinuationKey
        nextContinuationKey += 1
        updateContinuations[key] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor [weak self] in self?.updateContinuations[key] = nil }
        }
        return stream
    }

    /// Calls `body` with each observer registered when the delivery starts and still registered
    /// when its turn comes.
    func notifyObservers(_ body: (any ListAdapterObserver<DataSource>) -> Void) {
        let entries = observers
        for entry in entries {
            guard let observer = entry.observer, observers.contains(where: { $0.id == entry.id }) else { continue }
            body(observer)
        }
    }
}
