import ChangeLog
import NIOCore
import PostgresNIO

/// A transaction of a PostgreSQL log as the log's core sees it (``LogReadTransaction``,
/// ``LogWriteTransaction``): a view of a ``PostgresTransactionContext`` that
/// ``PostgresLogStorage`` began on one connection and ends. It is lent, never copied, to the
/// body of ``PostgresLogStorage/read(_:)`` or ``PostgresLogStorage/write(appending:_:)``.
struct PostgresLogTransaction: LogWriteTransaction, ~Copyable {
    let context: PostgresTransactionContext

    func withRecord<R>(at revision: UInt64, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        let record = try context.record(at: revision)
        guard let record else { return try body(nil) }
        return try record.withUnsafeBytes { try body($0) }
    }

    func withChunk<R>(_ id: UInt64, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
        let chunk = try context.chunk(id)
        guard let chunk else { return try body(nil) }
        return try chunk.withUnsafeBytes { try body($0) }
    }

    func withLatestRecord<R>(_ body: (UInt64, UnsafeRawBufferPointer) throws -> R) throws -> R? {
        guard let (revision, record) = try context.latestRecord() else { return nil }
        return try record.withUnsafeBytes { try body(revision, $0) }
    }

    func oldestRevision() throws -> UInt64? {
        try context.oldestRevision()
    }

    func largestChunkID() throws -> UInt64? {
        try context.largestChunkID()
    }

    func putChunk(_ bytes: [UInt8], id: UInt64) throws {
        try context.put(chunk: bytes, id: id)
    }

    func putRecord(_ bytes: [UInt8], revision: UInt64) throws {
        try context.put(record: bytes, revision: revision)
    }

    func noteCompressedChunks() throws {
        try context.noteCompressedChunks()
    }

    func deleteRecord(_ revision: UInt64) throws {
        try context.deleteRecord(revision)
    }

    func deleteChunks(where shouldDelete: (UInt64?, UnsafeRawBufferPointer) throws -> Bool) throws -> Int {
        try context.deleteChunks(where: shouldDelete)
    }

    /// A PostgreSQL log keeps no history index: histories are answered by reading revisions.
    func indexHistory(_ touched: HistoryAnalysis.Touched, revision: UInt64) throws {}

    func dropHistory(before revision: UInt64) throws {}
}
