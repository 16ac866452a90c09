import CLMDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        /// LMDB failed (disk full, I/O error, too many readers); the cause is an ``LMDBError``.
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
    /// The underlying error, such as an ``LMDBError``.
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
    /// Wraps an LMDB failure of an operation on the log at `path`.
    ///
    /// A full file system is named as such: `ENOSPC` and `EDQUOT`, and an input/output error
    /// (`EIO`, LMDB's code for a short write) while the log's file system has no space left,
    /// which is then reported with the cause `ENOSPC` (``FileSystemSpace``).
    static func storage(_ error: LMDBError, path: String, revision: UInt64? = nil, during operation: String)
        -> ChangeLogError
    {
        var error = error
        if error.code == EIO, FileSystemSpace.isFull(at: path) {
            error = LMDBError(code: ENOSPC)
        }
        let advice: String
        switch error {
        case LMDBError(code: ENOSPC):
            advice = "the file system is full; free some space, then retry"
        case LMDBError(code: EDQUOT):
            advice = "the disk quota is used up; free some space or raise the quota, then retry"
        case .readersFull:
            advice = "every LMDB reader slot is taken; end idle reads or subscriptions, or raise Options.maxReaders"
        case .mapFull:
            advice = "the memory map could not grow; free disk or address space"
        case LMDBError(code: MDB_CORRUPTED), LMDBError(code: MDB_PAGE_NOTFOUND):
            advice = "its data file is damaged, or was cut short behind its back; restore the log from a backup"
        default:
            advice = "check the disk (space, permissions, health) and retry"
        }
        return ChangeLogError(
            code: .storage, message: "LMDB failed while \(operation) the log at \(path): \(advice)",
            revision: revision, path: path, cause: error)
    }

    /// Converts any error thrown inside a log operation: a ``ChangeLogError`` passes through,
    /// an ``LMDBError`` becomes a ``Code/storage`` error.
    static func wrapping(_ error: any Error, path: String, during operation: String) -> ChangeLogError {
        switch error {
        case let error as ChangeLogError:
            return error
        case let error as LMDBError:
            return .storage(error, path: path, during: operation)
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
    /// checksum or does not decode, a damaged key, or LMDB's own report of a damaged file (a
    /// data file cut short, say). `replay verify` and `replay play` fail their check on it.
    package var reportsDamage: Bool {
        if code == .checksumMismatch || code == .malformedRecord { return true }
        guard code == .storage, let lmdb = cause as? LMDBError else { return false }
        return lmdb.code == MDB_CORRUPTED || lmdb.code == MDB_PAGE_NOTFOUND
    }
}
