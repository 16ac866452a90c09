#if LMDB
    import CLMDB

    /// A named database inside an ``LMDBEnvironment``: a handle valid for the environment's life.
    package struct LMDBDatabase: Hashable, Sendable {
        /// The `MDB_dbi` handle.
        package let handle: MDB_dbi
    }

    /// Options of a put.
    package struct LMDBPutFlags: OptionSet, Hashable, Sendable {
        /// The raw `mdb_put` flags.
        package let rawValue: UInt32

        /// Creates flags from raw `mdb_put` flags.
        package init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `MDB_NOOVERWRITE`: fail with ``LMDBError/keyExists`` when the key is already there.
        package static let noOverwrite = LMDBPutFlags(rawValue: UInt32(MDB_NOOVERWRITE))
        /// `MDB_APPEND`: the key sorts after every key of the database; it fails with
        /// ``LMDBError/keyExists`` otherwise, and fills pages completely when it holds.
        package static let append = LMDBPutFlags(rawValue: UInt32(MDB_APPEND))
    }

    /// Counts of a database's B-tree, from `mdb_stat`.
    package struct LMDBStatistics: Hashable, Sendable {
        /// The number of entries.
        package var entries: Int
        /// The number of branch, leaf and overflow pages.
        package var pages: Int
        /// The page size in bytes.
        package var pageSize: Int
    }

    /// One LMDB transaction: a value that cannot be copied, ends exactly once, and cannot cross an
    /// `await`.
    ///
    /// ``commit()`` and ``abort()`` consume the transaction; if neither is called, it is aborted
    /// when it goes out of scope. Transactions are not `Sendable` and their operations are
    /// unavailable in asynchronous code, so a transaction stays inside one synchronous stretch of
    /// code. Prefer ``LMDBEnvironment/read(_:)`` and ``LMDBEnvironment/write(_:)``, which scope it.
    ///
    /// Values read are valid only while the transaction lives: the reading methods copy them out,
    /// and the `withValue` variants lend them to a closure.
    package struct LMDBTransaction: ~Copyable {
        private let environment: Unmanaged<LMDBEnvironment>
        /// The `MDB_txn` handle.
        package let handle: OpaquePointer
        /// Whether this is a read-only transaction.
        package let isReadOnly: Bool

        /// Begins a transaction, adopting a map grown by another process (`MDB_MAP_RESIZED`) and
        /// retrying when needed.
        ///
        /// A write transaction waits for LMDB's writer lock, held by at most one transaction across
        /// all processes. Do not begin a transaction on a thread that already has one open on the
        /// same environment.
        ///
        /// - Throws: ``LMDBError``, for example ``LMDBError/readersFull`` when every reader slot is
        ///   taken.
        @available(*, noasync, message: "a transaction must not span an await; use it from synchronous code")
        package init(environment: LMDBEnvironment, readOnly: Bool) throws(LMDBError) {
            var transaction: OpaquePointer?
            var clearedStaleReaders = false
            while true {
                environment.gate.enter()
                // `mdb_txn_begin` reads the meta pages through the map: a file cut shorter than them
                // would crash it with `SIGBUS`.
                let fileBefore = LMDBEnvironment.dataFileStatus(of: environment.handle)
                let lengthBefore = fileBefore?.length
                do throws(LMDBError) {
                    try environment.checkMapped()
                    guard LMDBEnvironment.holdsMetaPages(length: lengthBefore, pageSize: environment.pageSize)
                    else { throw LMDBError(code: MDB_CORRUPTED) }
                } catch {
                    environment.gate.leave()
                    throw error
                }
                let result = mdb_txn_begin(environment.handle, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &transaction)
                if result == MDB_SUCCESS, let transaction {
                    do throws(LMDBError) {
                        try LMDBEnvironment.checkDataFileLength(
                            of: environment.handle, pageSize: environment.pageSize, lengthBefore: lengthBefore)
                        try environment.checkMetaPage(
                            of: transaction, readOnly: readOnly, fileModified: fileBefore?.modified)
                    } catch {
                        mdb_txn_abort(transaction)
                        environment.gate.leave()
                        throw error
                    }
                    self.environment = .passRetained(environment)
                    self.handle = transaction
                    self.isReadOnly = readOnly
                    return
                }
                environment.gate.leave()
                if result == MDB_MAP_RESIZED {
                    try environment.adoptResizedMap()
                    continue
                }
                // Slots of processes that died reading are cleared at open; a process that stays
                // open clears the ones that died since when the table is full, once.
                if result == MDB_READERS_FULL, !clearedStaleReaders, environment.clearStaleReaders() > 0 {
                    clearedStaleReaders = true
                    continue
                }
                throw LMDBError(code: result)
            }
        }

        deinit {
            mdb_txn_abort(handle)
            environment.takeRetainedValue().gate.leave()
        }

        /// Commits the transaction: with the environment's default flags its writes are on disk
        /// when this returns. The transaction is over whether or not this throws.
        ///
        /// A write transaction is aborted instead when the data file was cut shorter than the pages
        /// in use since it began (a `truncate` behind the writer's back): committing would write its
        /// pages past a hole where committed pages were, and a meta page naming them, a log damaged
        /// with nothing said. A cut after this check, during LMDB's own writes, is not caught.
        ///
        /// - Throws: ``LMDBError``; ``LMDBError/mapFull`` when the map filled up while committing;
        ///   `MDB_CORRUPTED` when the data file was cut short.
        @available(*, noasync, message: "a transaction must not span an await; use it from synchronous code")
        package consuming func commit() throws(LMDBError) {
            let handle = self.handle
            let environment = self.environment
            let isReadOnly = self.isReadOnly
            discard self
            if !isReadOnly {
                let unretained = environment.takeUnretainedValue()
                let length = LMDBEnvironment.dataFileLength(of: unretained.handle)
                do throws(LMDBError) {
                    // The meta pages are read through the map: a file shorter than them would fault.
                    guard LMDBEnvironment.holdsMetaPages(length: length, pageSize: unretained.pageSize) else {
                        throw LMDBError(code: MDB_CORRUPTED)
                    }
                    try LMDBEnvironment.checkDataFileLength(
                        of: unretained.handle, pageSize: unretained.pageSize, lengthBefore: length)
                } catch {
                    mdb_txn_abort(handle)
                    environment.takeRetainedValue().gate.leave()
                    throw error
                }
            }
            let result = mdb_txn_commit(handle)
            environment.takeRetainedValue().gate.leave()
            try LMDBError.check(result)
        }

        /// Aborts the transaction: nothing it wrote remains.
        @available(*, noasync, message: "a transaction must not span an await; use it from synchronous code")
        package consuming func abort() {
            let handle = self.handle
            let environment = self.environment
            discard self
            mdb_txn_abort(handle)
            environment.takeRetainedValue().gate.leave()
        }

        // MARK: - Databases

        /// Opens the named database `name` (or the main database for `nil`), creating it when
        /// `create` is true (which needs a write transaction).
        ///
        /// The handle stays valid after the transaction commits; it is closed by an abort when this
        /// transaction created it.
        package func openDatabase(named name: String?, create: Bool) throws(LMDBError) -> LMDBDatabase {
            var dbi: MDB_dbi = 0
            let flags = create ? UInt32(MDB_CREATE) : 0
            let result: Int32
            if let name {
                result = mdb_dbi_open(handle, name, flags, &dbi)
            } else {
                result = mdb_dbi_open(handle, nil, flags, &dbi)
            }
            try LMDBError.check(result)
            let database = LMDBDatabase(handle: dbi)
            if let name {
                try checkRecord(of: name)
            }
            return database
        }

        /// Throws `MDB_CORRUPTED` when the record of the named database `name` in the main
        /// database (its root page and depth, which LMDB reads from there whenever a transaction
        /// first uses it) names impossible pages, or a root that is no B-tree page (``RootPage``),
        /// as ``MetaPage`` refuses for the meta page's two databases: LMDB would abort on a root of
        /// 0 or 1, or follow a wild pointer.
        private func checkRecord(of name: String) throws(LMDBError) {
            var info = MDB_envinfo()
            try LMDBError.check(mdb_env_info(environment.takeUnretainedValue().handle, &info))
            let lastPage = UInt64(truncatingIfNeeded: info.me_last_pgno)
            // The main database is LMDB's database 1 (`MAIN_DBI`).
            let main = LMDBDatabase(handle: 1)
            var value = MDB_val()
            let result = Array(name.utf8).withUnsafeBytes { key in
                var key = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
                return mdb_get(handle, main.handle, &key, &value)
            }
            // A database this transaction created has no record yet.
            if result == MDB_NOTFOUND { return }
            try LMDBError.check(result)
            let environment = environment.takeUnretainedValue()
            let bytes = try environment.mapBounds.lent(value)
            guard bytes.count == MetaPage.DatabaseRecord.size else { throw LMDBError(code: MDB_CORRUPTED) }
            let record = MetaPage.DatabaseRecord(bytes, at: 0)
            guard record.damage(lastPage: lastPage) == nil else { throw LMDBError(code: MDB_CORRUPTED) }
            var descriptor: mdb_filehandle_t = -1
            guard mdb_env_get_fd(environment.handle, &descriptor) == MDB_SUCCESS else { return }
            guard RootPage.damage(of: record, descriptor: descriptor, pageSize: environment.pageSize) == nil else {
                throw LMDBError(code: MDB_CORRUPTED)
            }
        }

        /// The entry and page counts of `database`.
        ///
        /// - Throws: `MDB_CORRUPTED` when the counts, read from the file, are negative or add up to
        ///   more than `Int` holds: a damaged database record.
        package func statistics(of database: LMDBDatabase) throws(LMDBError) -> LMDBStatistics {
            var stat = MDB_stat()
            try LMDBError.check(mdb_stat(handle, database.handle, &stat))
            let counts = [stat.ms_branch_pages, stat.ms_leaf_pages, stat.ms_overflow_pages]
            guard stat.ms_entries >= 0, let pages = Self.checkedSum(counts) else {
                throw LMDBError(code: MDB_CORRUPTED)
            }
            return LMDBStatistics(entries: stat.ms_entries, pages: pages, pageSize: Int(stat.ms_psize))
        }

        /// The sum of `counts` read from the file, or `nil` when one is negative or the sum is larger
        /// than `Int` holds (only damage makes them so); never traps.
        static func checkedSum(_ counts: some Sequence<Int>) -> Int? {
            var sum = 0
            for count in counts {
                guard count >= 0 else { return nil }
                let (next, overflow) = sum.addingReportingOverflow(count)
                guard !overflow else { return nil }
                sum = next
            }
            return sum
        }

        // MARK: - Reading

        /// Lends the value stored under `key` (or `nil` when there is none) to `body`; the bytes are
        /// valid only inside `body`.
        package func withValue<R>(
            forKey key: [UInt8], in database: LMDBDatabase, _ body: (UnsafeRawBufferPointer?) throws -> R
        ) throws -> R {
            var value = MDB_val()
            let result = key.withUnsafeBytes { key in
                var key = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
                return mdb_get(handle, database.handle, &key, &value)
            }
            if result == MDB_NOTFOUND {
                return try body(nil)
            }
            try LMDBError.check(result)
            return try body(environment.takeUnretainedValue().mapBounds.lent(value))
        }

        /// A copy of the value stored under `key`, or `nil` when there is none.
        package func value(forKey key: [UInt8], in database: LMDBDatabase) throws(LMDBError) -> [UInt8]? {
            var value = MDB_val()
            let result = key.withUnsafeBytes { key in
                var key = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
                return mdb_get(handle, database.handle, &key, &value)
            }
            if result == MDB_NOTFOUND {
                return nil
            }
            try LMDBError.check(result)
            return Array(try environment.takeUnretainedValue().mapBounds.lent(value))
        }

        // MARK: - Writing

        /// Stores `value` under `key`, replacing any value there unless `flags` say otherwise.
        package func put(
            _ value: [UInt8], forKey key: [UInt8], in database: LMDBDatabase, flags: LMDBPutFlags = []
        ) throws(LMDBError) {
            let result = key.withUnsafeBytes { key in
                value.withUnsafeBytes { value in
                    var key = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
                    var value = MDB_val(
                        mv_size: value.count, mv_data: UnsafeMutableRawPointer(mutating: value.baseAddress))
                    return mdb_put(handle, database.handle, &key, &value, flags.rawValue)
                }
            }
            try LMDBError.check(result)
        }

        /// Removes the entry under `key`; returns whether there was one.
        @discardableResult
        package func delete(key: [UInt8], in database: LMDBDatabase) throws(LMDBError) -> Bool {
            let result = key.withUnsafeBytes { key in
                var key = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
                return mdb_del(handle, database.handle, &key, nil)
            }
            if result == MDB_NOTFOUND { return false }
            try LMDBError.check(result)
            return true
        }

        // MARK: - Cursors

        /// The number of pages on LMDB's free list: pages of the data file that no longer hold
        /// data, which later write transactions reuse before they grow the file (as `mdb_stat -f`
        /// counts them).
        ///
        /// - Throws: `MDB_CORRUPTED` when a record's length word is negative or larger than the
        ///   page numbers its value holds, or the lengths add up to more than `Int` holds: a damaged
        ///   free list, whose figures are read from the file and never trusted in arithmetic.
        /// - Complexity: O(*f*), where *f* counts the free list's records.
        package func freePageCount() throws -> Int {
            // The free list is database 0: each record's value is a list of page numbers, its
            // first word the list's length.
            try withCursor(in: LMDBDatabase(handle: 0)) { cursor in
                var pages = 0
                var more = try cursor.move(to: .first)
                while more {
                    let length = try cursor.withCurrent { _, value in Self.freeListLength(of: value) }
                    guard let length, let sum = Self.checkedSum([pages, length]) else {
                        throw LMDBError(code: MDB_CORRUPTED)
                    }
                    pages = sum
                    more = try cursor.move(to: .next)
                }
                return pages
            }
        }

        /// The length word of a free-list record's `value`, when it is one a record can hold: from
        /// 0 to the number of page numbers after it. `nil` otherwise (a damaged record).
        static func freeListLength(of value: UnsafeRawBufferPointer) -> Int? {
            let word = MemoryLayout<Int>.size
            guard value.count >= word else { return nil }
            let length = value.loadUnaligned(as: Int.self)
            guard length >= 0, length <= value.count / word - 1 else { return nil }
            return length
        }

        /// Opens a cursor over `database`, lends it to `body`, and closes it before returning.
        package func withCursor<R>(in database: LMDBDatabase, _ body: (borrowing LMDBCursor) throws -> R) throws -> R {
            var opened: OpaquePointer?
            try LMDBError.check(mdb_cursor_open(handle, database.handle, &opened))
            guard let opened else { throw LMDBError(code: MDB_PANIC) }
            let cursor = LMDBCursor(handle: opened, bounds: environment.takeUnretainedValue().mapBounds)
            return try body(cursor)
        }
    }
#endif
