import ListAdapter
import ListFormat

/// The log's records and chunks over its storage engine (``LogStorage``): the operations that
/// run inside one of the engine's transactions, checking and decoding what the engine hands over
/// (RecordFormat.md describes the records and chunks, the same bytes on every engine).
///
/// Its operations are generic over the transaction, so that the ones the reading loops call
/// (records, chunks) are specialised for the engine's transaction within the module.
/// Inside a transaction, the engine's failures propagate as its own errors (so that an engine
/// can redo a write transaction, as LMDB does when its map must grow) and everything else as
/// ``ChangeLogError``.
struct LogStore: Sendable {
    /// The storage engine.
    let storage: any LogStorage
    /// The log's path, for messages.
    let path: String

    /// The log's records and chunks in `storage`.
    init(storage: any LogStorage) {
        self.storage = storage
        self.path = storage.path
    }

    /// Runs `body` in a read transaction, converting every failure to a ``ChangeLogError``.
    func read<R>(
        during operation: String, _ body: (borrowing any LogReadTransaction & ~Copyable) throws -> R
    ) throws(ChangeLogError) -> R {
        do {
            return try storage.read(body)
        } catch {
            throw ChangeLogError.wrapping(error, path: path, during: operation)
        }
    }

    /// Runs `body` in the log's write transaction (``LogStorage/write(appending:_:)``: it may run
    /// more than once), committing when it returns; failures propagate as they are.
    func write<R>(appending: Bool, _ body: (borrowing any LogWriteTransaction & ~Copyable) throws -> R) throws -> R {
        try storage.write(appending: appending, body)
    }

    // MARK: - Revisions

    /// The latest revision and the checksum its record ends with, or `nil` for an empty log.
    func latest<T: LogReadTransaction & ~Copyable>(in transaction: borrowing T) throws -> (
        revision: UInt64, checksum: UInt64?
    )? {
        try transaction.withLatestRecord { revision, record in
            (revision, RevisionRecordBody.storedChecksum(of: record))
        }
    }

    /// The oldest revision still stored, or `nil` for an empty log.
    ///
    /// - Throws: ``ChangeLogError/Code/malformedRecord`` when the stored oldest revision is not a
    ///   revision number at most the latest one: a damaged key, which would otherwise read as a
    ///   log whose revisions run backwards (from 524,289 to 50, say).
    func first<T: LogReadTransaction & ~Copyable>(in transaction: borrowing T) throws -> UInt64? {
        try transaction.oldestRevision()
    }

    /// The error for asking for `revision` when it is not stored: dropped, never appended, or,
    /// between the oldest and the latest revision, lost to damage (revisions are appended
    /// without gaps, and retention drops only the oldest).
    func missingRevision<T: LogReadTransaction & ~Copyable>(_ revision: UInt64, in transaction: borrowing T) throws
        -> ChangeLogError
    {
        let first = try first(in: transaction)
        let latest = try latest(in: transaction)?.revision ?? 0
        if let first, revision > first, revision < latest {
            return ChangeLogError(
                code: .malformedRecord,
                message: "revision \(revision) is missing from the log at \(path), which holds the revisions from "
                    + "\(first) to \(latest) around it: its key was damaged, or changed behind the log's back; restore "
                    + "the log from a backup",
                revision: revision, path: path)
        }
        if let first, revision >= 1, revision < first {
            return ChangeLogError(
                code: .revisionDropped,
                message: "revision \(revision) was dropped by retention; the log at \(path) now holds revisions "
                    + "\(first) to \(latest)",
                revision: revision, path: path)
        }
        let holds = first.map { "revisions \($0) to \(latest)" } ?? "no revision yet"
        return ChangeLogError(
            code: .revisionNotFound,
            message: "there is no revision \(revision); the log at \(path) holds \(holds)",
            revision: revision, path: path)
    }

    /// The checked, decoded record of `revision`.
    func body<T: LogReadTransaction & ~Copyable>(at revision: UInt64, in transaction: borrowing T) throws
        -> RevisionRecordBody
    {
        let decoded: Result<RevisionRecordBody, RevisionRecordBody.Failure>?
        do {
            decoded = try transaction.withRecord(at: revision) { bytes in
                guard let bytes else { return nil }
                return Result { () throws(RevisionRecordBody.Failure) in
                    try RevisionRecordBody(decoding: bytes, revision: revision)
                }
            }
        } catch {
            throw damage(reportedBy: error, reading: revision) ?? error
        }
        guard let decoded else { throw try missingRevision(revision, in: transaction) }
        switch decoded {
        case .success(let body):
            return body
        case .failure(let failure):
            throw error(for: failure, revision: revision)
        }
    }

    /// The snapshot described by `body`, the record of `revision`.
    func snapshot<T: LogReadTransaction & ~Copyable>(
        of body: RevisionRecordBody, revision: UInt64, loader: inout SnapshotLoader, in transaction: borrowing T
    ) throws -> StoredSnapshot {
        do {
            return try loader.load(body, in: transaction)
        } catch let failure as ChunkFailure {
            throw error(for: failure, revision: revision)
        } catch {
            throw damage(reportedBy: error, reading: revision) ?? error
        }
    }

    /// The engine's own report of damage while reading `revision` (LMDB's `MDB_CORRUPTED`, also
    /// for a value that reaches past the file, and `MDB_PAGE_NOTFOUND`) as damage to the log
    /// naming the revision; `nil` for any other failure.
    func damage(reportedBy error: any Error, reading revision: UInt64) -> ChangeLogError? {
        guard let error = error as? any StorageEngineError, error.reportsDamage else { return nil }
        return ChangeLogError(
            code: .malformedRecord,
            message: "\(error.engineName) reports its file damaged while reading revision \(revision) of the log at "
                + "\(path) (\(error)): restore the log from a backup",
            revision: revision, path: path, cause: error)
    }

    /// The full record of `revision`.
    func record<T: LogReadTransaction & ~Copyable>(
        at revision: UInt64, loader: inout SnapshotLoader, in transaction: borrowing T
    ) throws -> RevisionRecord {
        let body = try body(at: revision, in: transaction)
        let stored = try snapshot(of: body, revision: revision, loader: &loader, in: transaction)
        return RevisionRecord(
            revision: revision, millisecondsSince1970: body.timestamp, meta: body.meta, snapshot: stored.snapshot,
            changes: body.changes)
    }

    /// The latest revision with its chunks: `cached` when it is still the latest stored one,
    /// otherwise read from the log. `nil` for an empty log.
    func loadLatest<T: LogReadTransaction & ~Copyable>(cached: LatestRevision?, in transaction: borrowing T) throws
        -> LatestRevision?
    {
        guard let latest = try latest(in: transaction) else { return nil }
        if let cached, cached.revision == latest.revision, cached.checksum == latest.checksum {
            // Still check the record itself (cheap: one hash), so that damage is reported
            // rather than built upon.
            let intact = try transaction.withRecord(at: latest.revision) { bytes in
                guard let bytes, case .valid = SealCheck(bytes, seed: latest.revision) else { return false }
                return true
            }
            if intact {
                return cached
            }
        }
        let body = try body(at: latest.revision, in: transaction)
        var loader = SnapshotLoader()
        let stored = try snapshot(of: body, revision: latest.revision, loader: &loader, in: transaction)
        return LatestRevision(
            revision: latest.revision, checksum: latest.checksum ?? 0, stored: stored,
            compression: ChunkCompressionState(dictionary: try dictionary(of: stored, in: transaction)))
    }

    /// The dictionary the writer compresses with after a revision stored as `stored`: the one
    /// the first of its chunks that is compressed with a dictionary names, if any.
    private func dictionary<T: LogReadTransaction & ~Copyable>(
        of stored: StoredSnapshot, in transaction: borrowing T
    ) throws -> CompressionDictionary? {
        let ids = stored.runs.lazy.map(\.id) + stored.sections.lazy.flatMap { [$0.chunk.id] + $0.itemChunks.map(\.id) }
        for id in ids {
            let named = try transaction.withChunk(id) { bytes -> UInt64? in
                guard let bytes, bytes.first == Chunk.Kind.compressed.rawValue else { return nil }
                return try? ChunkCompression.header(of: bytes).dictionaryID
            }
            if let named, named != 0 { return try transaction.compressionDictionary(named) }
        }
        return nil
    }

    /// The identifier the next new chunk gets: one more than the largest stored.
    func nextChunkID<T: LogReadTransaction & ~Copyable>(in transaction: borrowing T) throws -> UInt64 {
        guard let last = try transaction.largestChunkID() else { return 1 }
        let (next, overflow) = last.addingReportingOverflow(1)
        guard !overflow else {
            throw ChangeLogError(
                code: .malformedRecord,
                message: "the log at \(path) holds a chunk key that reads \(last), after which no chunk can be "
                    + "stored: a key was damaged, or changed behind the log's back; restore the log from a backup",
                path: path)
        }
        return next
    }

    // MARK: - Errors

    private func error(for failure: RevisionRecordBody.Failure, revision: UInt64) -> ChangeLogError {
        let advice =
            "the file was changed behind the log's back or damaged; restore the log from a backup, or drop "
            + "this revision and those before it (the library's dropRevisions(before: \(revision + 1)))"
        switch failure {
        case .checksumMismatch(let stored?, let computed?):
            return ChangeLogError(
                code: .checksumMismatch,
                message: "the record of revision \(revision) fails its checksum (stored \(hex(stored)), computed "
                    + "\(hex(computed))): \(advice)",
                revision: revision, path: path)
        case .checksumMismatch:
            return ChangeLogError(
                code: .checksumMismatch,
                message: "the record of revision \(revision) is too short to hold a checksum: \(advice)",
                revision: revision, path: path)
        case .unsupportedVersion(let version):
            return ChangeLogError(
                code: .unsupportedFormat,
                message: "the record of revision \(revision) has format version \(version), this library reads "
                    + "versions 1 to \(RevisionRecordBody.formatVersion); read the log with a newer version of the library",
                revision: revision, path: path)
        case .malformed(let decodingError):
            return ChangeLogError(
                code: .malformedRecord,
                message: "the record of revision \(revision) passes its checksum but does not decode "
                    + "(\(decodingError)): it was written by a faulty writer; restore the log from a backup",
                revision: revision, path: path, cause: decodingError)
        }
    }

    /// The error for a chunk of `revision` that cannot be read.
    func error(for failure: ChunkFailure, revision: UInt64) -> ChangeLogError {
        if case .compressionLeftOut = failure.kind {
            return ChangeLogError(
                code: .unsupportedFormat,
                message: "the snapshot of revision \(revision) cannot be read: \(failure.description)",
                revision: revision, path: path)
        }
        let code: ChangeLogError.Code
        if case .checksumMismatch = failure.kind {
            code = .checksumMismatch
        } else {
            code = .malformedRecord
        }
        return ChangeLogError(
            code: code,
            message:
                "the snapshot of revision \(revision) cannot be read: \(failure.description); the file was changed "
                + "behind the log's back or damaged; restore the log from a backup",
            revision: revision, path: path)
    }
}
