import ChangeLog

/// A read or write transaction of a log file as the log's core sees it
/// (``LogReadTransaction``, ``LogWriteTransaction``): the index as it was when the
/// transaction began (``FileLogIndex/Snapshot``), and for a write, what it has put so far
/// (``PendingFrames``), which its own reads see. Bytes are read from the file with `pread`
/// and lent from a copy.
///
/// Made only inside ``FileLogStorage/read(_:)`` and ``FileLogStorage/write(appending:_:)`` and
/// lent, never copied, to their body.
struct FileLogTransaction: LogWriteTransaction, ~Copyable {
    let storage: FileLogStorage
    /// The file the transaction reads, whatever replaces it meanwhile.
    let generation: FileLogGeneration
    let snapshot: FileLogIndex.Snapshot
    /// What a write transaction has put; `nil` for a read.
    let pending: PendingFrames?

    // MARK: - Reading

    func withRecord<R>(at revision: UInt64, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        if let pending, let range = pending.records[revision] {
            return try pending.bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
        if let kept = pending?.keptFrom, revision < kept { return try body(nil) }
        let snapshot = self.snapshot
        guard let location = storage.location(in: generation, { $0.record(revision, in: snapshot) }) else {
            return try body(nil)
        }
        return try storage.withBytes(at: location, in: generation.descriptor, body)
    }

    func withChunk<R>(_ id: UInt64, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        if let pending, pending.deletedChunks.contains(id) { return try body(nil) }
        if let pending, let range = pending.chunks[id] {
            return try pending.bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
        let snapshot = self.snapshot
        guard let location = storage.location(in: generation, { $0.chunk(id, in: snapshot) }) else {
            return try body(nil)
        }
        return try storage.withBytes(at: location, in: generation.descriptor, body)
    }

    func withLatestRecord<R>(_ body: (UInt64, UnsafeRawBufferPointer) throws -> R) throws -> R? {
        guard let latest = pending?.latestRevision ?? snapshot.latestRevision else { return nil }
        return try withRecord(at: latest) { bytes in
            guard let bytes else {
                throw ChangeLogError(
                    code: .malformedRecord, message: "the log file \(storage.path) lost revision \(latest)",
                    revision: latest, path: storage.path)
            }
            return try body(latest, bytes)
        }
    }

    func oldestRevision() throws -> UInt64? {
        if let kept = pending?.keptFrom { return kept }
        if snapshot.recordCount > 0 { return snapshot.firstRevision }
        return pending?.records.keys.min()
    }

    func largestChunkID() throws -> UInt64? {
        pending?.largestChunk ?? snapshot.largestChunk
    }

    // MARK: - Writing

    /// The pending frames of a write transaction.
    private var writable: PendingFrames {
        get throws {
            guard let pending else {
                throw ChangeLogError(
                    code: .readOnly, message: "cannot write to the log file \(storage.path) in a read",
                    path: storage.path)
            }
            return pending
        }
    }

    func putChunk(_ bytes: [UInt8], id: UInt64) throws {
        let pending = try writable
        guard pending.largestChunk.map({ id > $0 }) ?? true, bytes.count <= FileLogLayout.maxPayload else {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "chunk \(id) of \(bytes.count) bytes cannot follow chunk \(pending.largestChunk ?? 0) in the "
                    + "log file \(storage.path)",
                path: storage.path)
        }
        pending.chunks[id] = pending.add(.chunk, key: id, payload: bytes)
        pending.largestChunk = id
    }

    func putRecord(_ bytes: [UInt8], revision: UInt64) throws {
        let pending = try writable
        let expected = (pending.latestRevision ?? 0) + 1
        guard revision == expected || (pending.latestRevision == nil && revision >= 1),
            bytes.count <= FileLogLayout.maxPayload
        else {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "revision \(revision) cannot follow revision \(expected - 1) in the log file \(storage.path)",
                revision: revision, path: storage.path)
        }
        pending.records[revision] = pending.add(.record, key: revision, payload: bytes)
        pending.latestRevision = revision
    }

    /// Every reader of layout 1 reads compressed chunks: nothing to record.
    func noteCompressedChunks() throws {}

    /// Deletes the record of `revision`, the oldest one kept so far: the transaction then
    /// commits by compacting (``FileLogStorage/compact(_:)``).
    func deleteRecord(_ revision: UInt64) throws {
        let pending = try writable
        let oldest = pending.keptFrom ?? (snapshot.recordCount > 0 ? snapshot.firstRevision : nil)
        guard revision == oldest, revision < (pending.latestRevision ?? 0) else {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "the log file \(storage.path) deletes its records from the oldest on, before the latest: "
                    + "revision \(revision) is not the oldest, \(oldest.map(String.init) ?? "none")",
                revision: revision, path: storage.path)
        }
        pending.keptFrom = revision + 1
    }

    /// Deletes the chunks `shouldDelete` chooses among those committed and those this
    /// transaction put: the transaction then commits by compacting.
    func deleteChunks(where shouldDelete: (UInt64?, UnsafeRawBufferPointer) throws -> Bool) throws -> Int {
        let pending = try writable
        let snapshot = self.snapshot
        let committed = storage.state.withLock { state in
            state.generation === generation
                ? state.index.chunks.filter { $0.value.offset < snapshot.end } : [:]
        }
        var deleted = 0
        for id in Set(committed.keys).union(pending.chunks.keys) where !pending.deletedChunks.contains(id) {
            let delete = try withChunk(id) { bytes in try bytes.map { try shouldDelete(id, $0) } ?? false }
            if delete {
                pending.deletedChunks.insert(id)
                deleted += 1
            }
        }
        return deleted
    }

    /// The file engine keeps no history index.
    func indexHistory(_ touched: HistoryAnalysis.Touched, revision: UInt64) throws {}

    /// The file engine keeps no history index.
    func dropHistory(before revision: UInt64) throws {}
}
