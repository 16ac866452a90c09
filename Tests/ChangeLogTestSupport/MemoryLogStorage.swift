import ChangeLog
import Foundation

/// A second storage engine, in memory, for the tests of the engine seam: the log's core
/// (writer, reading, subscriptions, verification, retention) must run over it unchanged.
///
/// A read takes a copy of the stored records and chunks (copy on write: cheap); the one write
/// at a time works on a copy of its own, which replaces the stored one when the body returns,
/// so an aborted write leaves nothing. Puts out of order are refused, as LMDB's `MDB_APPEND`
/// refuses them.
package final class MemoryLogStorage: LogStorage, @unchecked Sendable {
    /// What the engine stores, as one transaction sees it.
    package final class Contents {
        package var records: [UInt64: [UInt8]]
        package var chunks: [UInt64: [UInt8]]
        package var compressed: Bool

        package init(records: [UInt64: [UInt8]] = [:], chunks: [UInt64: [UInt8]] = [:], compressed: Bool = false) {
            self.records = records
            self.chunks = chunks
            self.compressed = compressed
        }

        package func copy() -> Contents { Contents(records: records, chunks: chunks, compressed: compressed) }
    }

    /// A put the engine refuses.
    package struct Refusal: StorageEngineError {
        package var reason: String
        package var engineName: String { "the memory engine" }
        package var reportsDamage: Bool { false }

        package func changeLogError(path: String, revision: UInt64?, during operation: String) -> ChangeLogError {
            ChangeLogError(
                code: .storage, message: "the memory engine failed while \(operation) the log at \(path): \(reason)",
                revision: revision, path: path, cause: self)
        }
    }

    package let path: String
    package let isReadOnly = false
    private let lock = NSLock()
    /// Held by the one write transaction at a time.
    private let writeLock = NSLock()
    private var stored = Contents()
    /// How many write transactions committed.
    package private(set) var commits = 0

    package init(path: String) {
        self.path = path
    }

    /// The stored records and chunks, as the last commit left them.
    package var contents: Contents {
        lock.withLock { stored.copy() }
    }

    package func read<R>(_ body: (borrowing any LogReadTransaction & ~Copyable) throws -> R) throws -> R {
        try body(Transaction(contents: contents))
    }

    package func write<R>(appending: Bool, _ body: (borrowing any LogWriteTransaction & ~Copyable) throws -> R) throws
        -> R
    {
        try writeLock.withLock {
            let working = contents
            let result = try body(Transaction(contents: working))
            lock.withLock {
                stored = working
                commits += 1
            }
            return result
        }
    }

    package func makeCommitWatcher(pollInterval: Duration, watchesFiles: Bool, check: @escaping @Sendable () -> Void)
        -> any CommitWatcher
    {
        // Only this instance writes: its writer publishes every commit itself.
        Watcher(check: check)
    }

    package func historyIndex() -> any HistoryIndexStorage { NoHistoryIndex() }

    package func flush() throws(ChangeLogError) {}

    package var bytesInUse: Int {
        let contents = contents
        return contents.records.values.reduce(0) { $0 + $1.count } + contents.chunks.values.reduce(0) { $0 + $1.count }
    }

    package func space() throws(ChangeLogError) -> StorageSpace {
        StorageSpace(bytesOnDisk: 0, bytesInUse: bytesInUse, bytesFree: 0)
    }

    package var isStillAtPath: Bool { true }

    /// A watcher that checks only when asked.
    package struct Watcher: CommitWatcher {
        package let check: @Sendable () -> Void
        package func start() {}
        package func checkSoon() { check() }
        package func stop() {}
    }

    /// A transaction over one copy of the contents.
    package struct Transaction: LogWriteTransaction, ~Copyable {
        package let contents: Contents

        package func withRecord<R>(at revision: UInt64, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
            guard let bytes = contents.records[revision] else { return try body(nil) }
            return try bytes.withUnsafeBytes { try body($0) }
        }

        package func withChunk<R>(_ id: UInt64, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
            guard let bytes = contents.chunks[id] else { return try body(nil) }
            return try bytes.withUnsafeBytes { try body($0) }
        }

        package func withLatestRecord<R>(_ body: (UInt64, UnsafeRawBufferPointer) throws -> R) throws -> R? {
            guard let latest = contents.records.keys.max(), let bytes = contents.records[latest] else { return nil }
            return try bytes.withUnsafeBytes { try body(latest, $0) }
        }

        package func oldestRevision() throws -> UInt64? { contents.records.keys.min() }

        package func largestChunkID() throws -> UInt64? { contents.chunks.keys.max() }

        package func putChunk(_ bytes: [UInt8], id: UInt64) throws {
            guard id > contents.chunks.keys.max() ?? 0 else { throw Refusal(reason: "chunk \(id) out of order") }
            contents.chunks[id] = bytes
        }

        package func putRecord(_ bytes: [UInt8], revision: UInt64) throws {
            guard revision == (contents.records.keys.max() ?? 0) + 1 else {
                throw Refusal(reason: "revision \(revision) out of order")
            }
            contents.records[revision] = bytes
        }

        package func noteCompressedChunks() throws { contents.compressed = true }

        package func deleteRecord(_ revision: UInt64) throws { contents.records[revision] = nil }

        package func deleteChunks(where shouldDelete: (UInt64?, UnsafeRawBufferPointer) throws -> Bool) throws -> Int {
            var deleted = 0
            for (id, bytes) in contents.chunks where try bytes.withUnsafeBytes({ try shouldDelete(id, $0) }) {
                contents.chunks[id] = nil
                deleted += 1
            }
            return deleted
        }

        package func indexHistory(_ touched: HistoryAnalysis.Touched, revision: UInt64) throws {}

        package func dropHistory(before revision: UInt64) throws {}
    }
}
