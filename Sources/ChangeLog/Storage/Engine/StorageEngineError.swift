/// A failure of a storage engine itself (I/O, space, locks, connections), as opposed to what
/// the log finds wrong in the bytes it stores: each engine's error type conforms, and
/// ``ChangeLogError/wrapping(_:path:during:)`` turns it into a ``ChangeLogError/Code/storage``
/// error that says what to do.
package protocol StorageEngineError: Error, Sendable {
    /// The error as the log reports it: ``ChangeLogError/Code/storage``, naming `path`, the
    /// operation (as in "while appending to") and what to do.
    func changeLogError(path: String, revision: UInt64?, during operation: String) -> ChangeLogError

    /// The engine's name, as messages name it ("LMDB").
    var engineName: String { get }

    /// Whether the engine reports its own files or tables damaged (LMDB: `MDB_CORRUPTED`,
    /// `MDB_PAGE_NOTFOUND`).
    var reportsDamage: Bool { get }

    /// Whether the failure may pass by itself: the engine could not be reached (a connection
    /// lost or refused, a server restarting), so the same read can succeed later. Subscriptions
    /// retry such reads (``ReadRetry``); an embedded engine's failures are never transient.
    var isTransient: Bool { get }
}

extension StorageEngineError {
    /// Never transient: the failures of an engine in this process do not pass by themselves.
    package var isTransient: Bool { false }
}
