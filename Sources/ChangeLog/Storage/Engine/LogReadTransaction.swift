/// A consistent read of a log's stored records and chunks: everything it reads is as one
/// moment of the log left it, whatever other writers commit meanwhile.
///
/// The record and chunk bytes an engine hands over are the ones ``RecordFormat`` describes,
/// sealed with their checksums, the same on every engine: the engine-independent code
/// (``LogStore``, ``SnapshotLoader``, the chunk decoding) checks and decodes them. An engine
/// only stores and finds them.
///
/// What a read means for each engine:
/// - LMDB: one read transaction (`MDB_RDONLY`) on the environment; bytes are lent from the map.
/// - PostgreSQL: a `REPEATABLE READ` (or `SERIALIZABLE READ ONLY`) transaction on a pooled
///   connection; rows are read into memory and lent from there.
/// - An append-only file: the file's length at the moment the read began, read through a
///   descriptor; nothing past that length is seen.
///
/// A transaction is not copyable and is lent to a closure (``LogStorage/read(_:)``): it
/// cannot outlive the engine's read, nor cross an `await`. Bytes lent to a closure are valid
/// only inside it.
///
/// Failures of the engine itself are thrown as the engine's errors (for LMDB an ``LMDBError``);
/// ``ChangeLogError/wrapping(_:path:during:)`` converts them once the read is over. Damage the
/// engine finds in its own structures (a key that is no revision number) is thrown as a
/// ``ChangeLogError`` naming it.
package protocol LogReadTransaction: ~Copyable {
    /// Lends the stored record of `revision` (with its checksum), or `nil` when none is stored,
    /// to `body`.
    func withRecord<R>(at revision: UInt64, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R

    /// Lends the stored chunk `id` (with its checksum), or `nil` when none is stored, to `body`.
    func withChunk<R>(_ id: UInt64, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R

    /// Lends the latest revision's number and stored record to `body`; `nil` for an empty log.
    ///
    /// - Throws: ``ChangeLogError/Code/malformedRecord`` when the engine's key of the latest
    ///   record is no revision number.
    func withLatestRecord<R>(_ body: (_ revision: UInt64, _ record: UnsafeRawBufferPointer) throws -> R) throws -> R?

    /// The oldest revision still stored, or `nil` for an empty log.
    ///
    /// - Throws: ``ChangeLogError/Code/malformedRecord`` when the stored oldest revision is not a
    ///   revision number from 1 to the latest one: damage an engine that keeps its keys as bytes
    ///   (LMDB, a file) can meet, and reports rather than reads as a log running backwards.
    func oldestRevision() throws -> UInt64?

    /// The largest chunk identifier stored, or `nil` when the log holds no chunk. Identifiers
    /// are never reused: retention keeps the newest chunk (``LogWriteTransaction/deleteChunks(where:)``).
    func largestChunkID() throws -> UInt64?
}

/// The one write transaction of a log at a time: it sees what committed before it began, puts
/// an append's chunks and records, and commits them all or none.
///
/// Optimistic concurrency (`expectedLatest`) rests on it: the writer reads the log's end in
/// this transaction (``LogReadTransaction/withLatestRecord(_:)``) and puts the records after it,
/// so two writers, in two processes or on two hosts, cannot both append after the same
/// revision. What that means for each engine:
/// - LMDB: its single writer lock (across processes); `MDB_APPEND` puts.
/// - PostgreSQL: a transaction that locks the log's row (`SELECT ... FOR UPDATE`) before it
///   reads the end, and a unique (log, revision) key that refuses a second writer's rows.
/// - An append-only file: an exclusive lock on the file (one writing process); the records
///   are written after the end and made visible by the length or a commit marker.
///
/// The history index, which an engine stores its own way (``HistoryIndexStorage``), is written
/// in the same transaction as the revisions it describes.
package protocol LogWriteTransaction: LogReadTransaction & ~Copyable {
    /// Puts sealed chunk `id`; identifiers come in ascending order, after every stored one.
    func putChunk(_ bytes: [UInt8], id: UInt64) throws

    /// Puts the sealed record of `revision`, the revision after the latest stored one.
    func putRecord(_ bytes: [UInt8], revision: UInt64) throws

    /// Records that the log now holds compressed chunks or dictionaries, so that a reader that
    /// predates them refuses the log instead of taking its first compressed chunk for damage.
    /// Called before such chunks are put; once is enough.
    func noteCompressedChunks() throws

    /// Removes the record of `revision` (retention, from the oldest on).
    func deleteRecord(_ revision: UInt64) throws

    /// Removes every chunk for which `shouldDelete` is true, given its identifier (`nil` when
    /// the engine's key is no identifier: damage, removed too) and its stored bytes; returns
    /// how many it removed.
    func deleteChunks(where shouldDelete: (_ id: UInt64?, _ stored: UnsafeRawBufferPointer) throws -> Bool) throws
        -> Int

    /// Adds what `revision` did (``HistoryAnalysis/touched(old:new:changes:)``) to the history
    /// index, when the log keeps one; does nothing otherwise.
    func indexHistory(_ touched: HistoryAnalysis.Touched, revision: UInt64) throws

    /// Removes the history index's entries of the revisions before `revision`, when the log
    /// keeps an index.
    func dropHistory(before revision: UInt64) throws
}
