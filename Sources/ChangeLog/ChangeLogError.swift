/// A failure of a ``ChangeLog`` operation: what kind (``code``), what went wrong and what to do
/// (``message``), the revision and path concerned, and the underlying cause.
///
/// Codes are open-ended: new ones may appear, so `switch` over them with a `default`. Programmer
/// mistakes (such as dropping revisions after the latest one) are errors too, with the code
/// ``Code/invalidArgument``, because their arguments usually come from data.
public struct ChangeLogError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name.
        public let name: String

        init(_ name: String) { self.name = name }

        /// No log exists at the path, and the open may not create one:
        /// ``ChangeLog/Options/createIfMissing`` was false, or ``ChangeLog/Options/readOnly`` true
        /// (a read-only open never creates).
        public static let logNotFound = Code("logNotFound")
        /// The path exists but cannot be opened as a log (not a directory, no permission, not an
        /// LMDB environment); the ``ChangeLogError/cause`` says why.
        public static let cannotOpen = Code("cannotOpen")
        /// The log is already open in this process with other options that cannot differ.
        public static let incompatibleOptions = Code("incompatibleOptions")
        /// The log or one of its records was written by a newer format version.
        public static let unsupportedFormat = Code("unsupportedFormat")
        /// An append stated the revision it expected to follow, and another writer got there first.
        public static let conflict = Code("conflict")
        /// The revision does not exist (0, or after the latest revision).
        public static let revisionNotFound = Code("revisionNotFound")
        /// The revision was removed by ``ChangeLog/dropRevisions(before:)``.
        public static let revisionDropped = Code("revisionDropped")
        /// A stored record or chunk does not match its checksum: the file was changed behind
        /// the log's back or damaged.
        public static let checksumMismatch = Code("checksumMismatch")
        /// A stored record or chunk passes its checksum but does not decode, or its parts do not
        /// fit together.
        public static let malformedRecord = Code("malformedRecord")
        /// Precomputed changes do not take the previous snapshot to the appended one.
        public static let invalidChanges = Code("invalidChanges")
        /// An argument is out of range.
        public static let invalidArgument = Code("invalidArgument")
        /// The log was opened with ``ChangeLog/Options/readOnly`` and asked to write.
        public static let readOnly = Code("readOnly")
        /// The storage engine failed (disk full, I/O error, too many readers); the cause is the
        /// engine's error, an ``LMDBError`` for LMDB.
        public static let storage = Code("storage")
        /// An append whose caller asked to abandon it before anything of it was written (the
        /// importer, when interrupted); never thrown by the public API.
        package static let abandoned = Code("abandoned")

        /// The code's stable name.
        public var description: String { name }
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong and what to do about it.
    public var message: String
    /// The revision concerned, when there is one.
    public var revision: UInt64?
    /// The log's path.
    public var path: String?
    /// The underlying error, such as the storage engine's (an ``LMDBError`` for LMDB).
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    public init(
        code: Code, message: String, revision: UInt64? = nil, path: String? = nil, cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.revision = revision
        self.path = path
        self.cause = cause
    }

    /// `code: message (cause)`.
    public var description: String {
        var text = "\(code): \(message)"
        if let cause {
            text += " (\(cause))"
        }
        return text
    }
}

extension ChangeLogError {
    /// Converts any error thrown inside a log operation: a ``ChangeLogError`` passes through,
    /// a storage engine's failure (a ``StorageEngineError``, such as an ``LMDBError``) becomes a
    /// ``Code/storage`` error.
    static func wrapping(_ error: any Error, path: String, during operation: String) -> ChangeLogError {
        switch error {
        case let error as ChangeLogError:
            return error
        case let error as any StorageEngineError:
            return error.changeLogError(path: path, revision: nil, during: operation)
        default:
            return ChangeLogError(
                code: .storage, message: "unexpected failure while \(operation) the log at \(path)", path: path,
                cause: UnexpectedError(description: String(describing: error)))
        }
    }
}

/// An error of a type the log does not expect, kept as text.
private struct UnexpectedError: Error, Sendable, CustomStringConvertible {
    var description: String
}

extension ChangeLogError {
    /// Whether the error reports damage to the log's data: a record or chunk that fails its
    /// checksum or does not decode, a damaged key, or the storage engine's own report of a
    /// damaged file (for LMDB, a data file cut short, say). `replay verify` and `replay play`
    /// fail their check on it.
    package var reportsDamage: Bool {
        if code == .checksumMismatch || code == .malformedRecord { return true }
        guard code == .storage, let engine = cause as? any StorageEngineError else { return false }
        return engine.reportsDamage
    }

    /// Whether the error is a storage engine's failure that may pass by itself (see
    /// `StorageEngineError.isTransient`): the engine was unreachable.
    package var isTransient: Bool {
        guard code == .storage, let engine = cause as? any StorageEngineError else { return false }
        return engine.isTransient
    }
}
