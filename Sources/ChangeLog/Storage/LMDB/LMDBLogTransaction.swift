#if LMDB
    /// A transaction of the log's LMDB environment as the engine-independent core sees it
    /// (``LogReadTransaction``, ``LogWriteTransaction``): revisions and chunks under their
    /// big-endian numbers in the `revisions` and `chunks` databases (RecordFormat.md describes the
    /// layout).
    ///
    /// It is a view of an ``LMDBTransaction`` that ``LMDBLogStorage`` began and ends: made only
    /// inside ``LMDBLogStorage/read(_:)`` and ``LMDBLogStorage/write(appending:_:)`` (or
    /// ``LMDBLogStorage/withLogTransaction(_:_:)``) and lent, never copied, to their body, so it
    /// cannot outlive the transaction it points to.
    struct LMDBLogTransaction: LogWriteTransaction, ~Copyable {
        private let transaction: UnsafePointer<LMDBTransaction>
        private let storage: LMDBLogStorage

        /// A view of the transaction at `transaction`, which must outlive it, on `storage`'s databases.
        init(_ transaction: UnsafePointer<LMDBTransaction>, storage: LMDBLogStorage) {
            self.transaction = transaction
            self.storage = storage
        }

        /// Lends the LMDB transaction itself to `body`, for what only LMDB has (the history index's
        /// database, statistics, the free list).
        func withLMDBTransaction<R>(_ body: (borrowing LMDBTransaction) throws -> R) rethrows -> R {
            try body(transaction.pointee)
        }

        private var path: String { storage.path }

        // MARK: - Reading

        func withRecord<R>(at revision: UInt64, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
            try transaction.pointee.withValue(forKey: revision.bigEndianKey, in: storage.revisions, body)
        }

        func withChunk<R>(_ id: UInt64, _ body: (UnsafeRawBufferPointer?) throws -> R) throws -> R {
            try transaction.pointee.withValue(forKey: id.bigEndianKey, in: storage.chunks, body)
        }

        func withLatestRecord<R>(_ body: (UInt64, UnsafeRawBufferPointer) throws -> R) throws -> R? {
            let path = self.path
            return try transaction.pointee.withCursor(in: storage.revisions) { cursor in
                guard try cursor.move(to: .last) else { return nil }
                return try cursor.withCurrent { key, value in
                    guard let revision = UInt64(bigEndianKey: key) else {
                        throw ChangeLogError(
                            code: .malformedRecord,
                            message: "the log at \(path) holds a revision key of \(key.count) bytes",
                            path: path)
                    }
                    return try body(revision, value)
                }
            }
        }

        func oldestRevision() throws -> UInt64? {
            let keys = try transaction.pointee.withCursor(in: storage.revisions) {
                cursor -> (first: [UInt8], last: [UInt8])? in
                guard try cursor.move(to: .first) else { return nil }
                let first = try cursor.currentKey()
                _ = try cursor.move(to: .last)
                return (first, try cursor.currentKey())
            }
            guard let (first, last) = keys else { return nil }
            if let revision = UInt64(bigEndianKey: first), revision >= 1,
                let latest = UInt64(bigEndianKey: last), revision <= latest
            {
                return revision
            }
            let read = UInt64(bigEndianKey: first).map { "reads \($0)" } ?? "is \(first.count) bytes long"
            let latest = UInt64(bigEndianKey: last).map { "\($0)" } ?? "a key of \(last.count) bytes"
            throw ChangeLogError(
                code: .malformedRecord,
                message: "the first revision key of the log at \(path) \(read), and the latest revision is \(latest): "
                    + "a key was damaged, or changed behind the log's back; restore the log from a backup",
                path: path)
        }

        func largestChunkID() throws -> UInt64? {
            let path = self.path
            return try transaction.pointee.withCursor(in: storage.chunks) { cursor in
                guard try cursor.move(to: .last) else { return nil }
                guard let last = UInt64(bigEndianKey: try cursor.currentKey()) else {
                    throw ChangeLogError(
                        code: .malformedRecord,
                        message: "the log at \(path) holds a chunk key that is not 8 bytes long",
                        path: path)
                }
                return last
            }
        }

        // MARK: - Writing

        func putChunk(_ bytes: [UInt8], id: UInt64) throws {
            try transaction.pointee.put(bytes, forKey: id.bigEndianKey, in: storage.chunks, flags: .append)
        }

        func putRecord(_ bytes: [UInt8], revision: UInt64) throws {
            try transaction.pointee.put(bytes, forKey: revision.bigEndianKey, in: storage.revisions, flags: .append)
        }

        func noteCompressedChunks() throws {
            let format = LMDBLogStorage.formatKey
            if try transaction.pointee.value(forKey: format, in: storage.meta) == [LMDBLogStorage.layoutVersion] {
                try transaction.pointee.put([LMDBLogStorage.compressedLayoutVersion], forKey: format, in: storage.meta)
            }
        }

        func deleteRecord(_ revision: UInt64) throws {
            try transaction.pointee.delete(key: revision.bigEndianKey, in: storage.revisions)
        }

        func deleteChunks(where shouldDelete: (UInt64?, UnsafeRawBufferPointer) throws -> Bool) throws -> Int {
            try transaction.pointee.withCursor(in: storage.chunks) { cursor in
                var deleted = 0
                var more = try cursor.move(to: .first)
                while more {
                    let delete = try cursor.withCurrent { key, value in
                        try shouldDelete(UInt64(bigEndianKey: key), value)
                    }
                    if delete {
                        try cursor.deleteCurrent()
                        deleted += 1
                    }
                    more = try cursor.move(to: .next)
                }
                return deleted
            }
        }

        func indexHistory(_ touched: HistoryAnalysis.Touched, revision: UInt64) throws {
            guard let history = storage.history.current else { return }
            try LMDBHistoryIndex.add(touched, revision: revision, to: history, in: transaction.pointee)
        }

        func dropHistory(before revision: UInt64) throws {
            guard let history = storage.history.current else { return }
            try LMDBHistoryIndex.dropRevisions(before: revision, from: history, in: transaction.pointee)
        }
    }
#endif
