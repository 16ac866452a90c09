#if LMDB
    import CLMDB

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// One of LMDB's two meta pages, read from the data file by this package, to refuse one that
    /// names impossible pages before LMDB follows them.
    ///
    /// LMDB reads the newer meta page (the larger transaction ID) and trusts it: a main or free
    /// database root of 0 or 1 (the meta pages themselves) fails its assertion `root > 1` and
    /// aborts the process; a last page number past the file's end makes it size its map after it
    /// (an open that fails as if the process were out of memory, or a `SIGBUS` later); a depth past
    /// its cursor stack fails deep inside a read. ``damage(fileLength:)`` names such a page.
    ///
    /// The layout is `mdb.c`'s (LMDB 0.9, 64-bit): a page header of 16 bytes (page number, 2 bytes
    /// of padding, 2 of flags, `P_META` being 0x08, 4 of bounds), then `MDB_meta`: magic
    /// (`0xBEEFC0DE`) and version (1), 4 bytes each; the map's address and size, 8 each; two
    /// `MDB_db` records of 48 bytes (free pages, then the main database), whose first field of the
    /// first is the page size; the last page number and the transaction ID, 8 each.
    struct MetaPage: Equatable {
        /// A database's record (`MDB_db`): in a meta page for the free and main databases, and as
        /// the value of a named database's key in the main database.
        struct DatabaseRecord: Equatable {
            /// The database's flags (`MDB_INTEGERKEY`, `MDB_DUPSORT`, ...), as `mdb_dbi_open` stores them.
            var flags: UInt16
            /// The B-tree's depth: 0 for an empty database.
            var depth: UInt16
            /// The root page's number: `P_INVALID` (all ones) for an empty database.
            var root: UInt64

            /// The size of a record in bytes.
            static let size = 48
            /// LMDB's number for no page.
            static let noPage = UInt64.max
            /// The deepest tree LMDB's cursors can descend (`CURSOR_STACK`).
            static let maximumDepth: UInt16 = 32

            /// Reads a record from the `size` bytes at `offset` in `bytes`.
            init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
                flags = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt16.self)
                depth = bytes.loadUnaligned(fromByteOffset: offset + 6, as: UInt16.self)
                root = bytes.loadUnaligned(fromByteOffset: offset + 40, as: UInt64.self)
            }

            /// What is impossible about the record in a file whose last page in use is `lastPage`,
            /// or `nil`: a root among the meta pages or past the last page, a depth that is 0, or
            /// deeper than LMDB can descend, for a database that has a root.
            func damage(lastPage: UInt64) -> String? {
                guard root != Self.noPage else { return nil }
                guard root >= 2 else { return "a root of page \(root), which is a meta page" }
                guard root <= lastPage else { return "a root of page \(root), past the last page \(lastPage)" }
                guard (1...Self.maximumDepth).contains(depth) else { return "a tree of depth \(depth)" }
                return nil
            }
        }

        /// The bytes read of a meta page: its header and `MDB_meta`.
        static let size = 16 + 136
        /// LMDB's magic number, which every meta page holds.
        static let magic: UInt32 = 0xBEEF_C0DE

        /// The environment's page size.
        var pageSize: UInt32
        /// The free pages' database.
        var free: DatabaseRecord
        /// The main database, which holds the named ones.
        var main: DatabaseRecord
        /// The number of the last page in use.
        var lastPage: UInt64
        /// The transaction that wrote it.
        var transactionID: UInt64

        /// Reads a meta page from `bytes` (at least ``size`` long); `nil` when it is not one (no
        /// `P_META` flag, another magic number or version): LMDB refuses such a file itself
        /// (`MDB_INVALID`, `MDB_VERSION_MISMATCH`).
        init?(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count >= Self.size else { return nil }
            let flags = bytes.loadUnaligned(fromByteOffset: 10, as: UInt16.self)
            guard flags & 0x08 != 0, bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self) == Self.magic,
                bytes.loadUnaligned(fromByteOffset: 20, as: UInt32.self) == 1
            else { return nil }
            pageSize = bytes.loadUnaligned(fromByteOffset: 40, as: UInt32.self)
            free = DatabaseRecord(bytes, at: 40)
            main = DatabaseRecord(bytes, at: 88)
            lastPage = bytes.loadUnaligned(fromByteOffset: 136, as: UInt64.self)
            transactionID = bytes.loadUnaligned(fromByteOffset: 144, as: UInt64.self)
        }

        /// What is impossible about this meta page in a data file of `fileLength` bytes, or `nil`:
        /// a page size that is no power of two from 512 bytes to 64 KB, a last page among the meta
        /// pages or past the file's end, a root or depth of either database that cannot be
        /// (``DatabaseRecord/damage(lastPage:)``). Computed without trapping, whatever the bytes.
        func damage(fileLength: Int) -> String? {
            guard Self.isPossible(pageSize: pageSize) else {
                return "a page size of \(pageSize) bytes"
            }
            guard lastPage >= 1 else { return "a last page of \(lastPage), which is a meta page" }
            let (pages, overflow) = lastPage.addingReportingOverflow(1)
            let (used, tooLarge) = pages.multipliedReportingOverflow(by: UInt64(pageSize))
            guard !overflow, !tooLarge, fileLength >= 0, used <= UInt64(fileLength) else {
                return "a last page of \(lastPage), past the end of a file of \(fileLength) bytes"
            }
            if let damage = free.damage(lastPage: lastPage) { return "a free-page database with \(damage)" }
            if let damage = main.damage(lastPage: lastPage) { return "a main database with \(damage)" }
            return nil
        }

        /// Whether `pageSize` can be an environment's: a power of two from 512 bytes to 64 KB.
        static func isPossible(pageSize: UInt32) -> Bool {
            (512...65_536).contains(pageSize) && pageSize.nonzeroBitCount == 1
        }

        /// The two meta pages of the data file open as `descriptor`, read with `pread` as LMDB reads
        /// them (the second one at the first one's page size); `nil` for either that cannot be read
        /// or is not a meta page.
        static func read(descriptor: Int32) -> (MetaPage?, MetaPage?) {
            let first = read(descriptor: descriptor, offset: 0)
            guard let first, first.pageSize > 0 else { return (first, nil) }
            return (first, read(descriptor: descriptor, offset: Int(first.pageSize)))
        }

        /// The meta page at `offset` in the file `descriptor`, or `nil`.
        private static func read(descriptor: Int32, offset: Int) -> MetaPage? {
            var buffer = [UInt8](repeating: 0, count: size)
            let count = buffer.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
            }
            guard count == size else { return nil }
            return buffer.withUnsafeBytes { MetaPage($0) }
        }

        /// The page LMDB uses of `pages`: the one with the larger transaction ID, the first on a
        /// tie (`mdb_env_pick_meta`); `nil` unless both are meta pages, since LMDB refuses the file
        /// otherwise.
        static func newer(of pages: (MetaPage?, MetaPage?)) -> MetaPage? {
            guard let first = pages.0, let second = pages.1 else { return nil }
            return first.transactionID < second.transactionID ? second : first
        }
    }

    extension MetaPage {
        /// Throws `MDB_CORRUPTED` when the newer meta page of the data file at `path` names
        /// impossible pages (``damage(fileLength:)``), or a root that is no B-tree page
        /// (``RootPage``): called before LMDB opens the file, which would abort on a root of 0 or 1,
        /// size its map after a last page past the file's end, or read a page of something else as
        /// its root.
        ///
        /// The file is opened for reading without blocking and only examined when it is a regular
        /// file. A file that is missing, unreadable, empty, or without two meta pages is left to
        /// LMDB's open, which creates it or reports why it cannot. The meta page is read before the
        /// file's length: another process's commit writes its pages before its meta page, so a
        /// length read after the meta page covers the pages it names.
        static func check(dataFileAt path: String) throws(LMDBError) {
            let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            var information = stat()
            guard fstat(descriptor, &information) == 0, information.st_mode & S_IFMT == S_IFREG else { return }
            // Other processes may commit meanwhile: a root page read after two of their commits
            // may have been freed and reused. A root that looks wrong is refused only when the meta
            // page is still the one it was read from; after a few changing meta pages the check is
            // left to each transaction's.
            for _ in 0..<4 {
                let pages = read(descriptor: descriptor)
                // LMDB reads the second meta page at the first one's page size, and divides by it.
                if let first = pages.0, !isPossible(pageSize: first.pageSize) { throw LMDBError(code: MDB_CORRUPTED) }
                guard let meta = newer(of: pages) else { return }
                guard fstat(descriptor, &information) == 0 else { return }
                if meta.damage(fileLength: Int(information.st_size)) != nil {
                    throw LMDBError(code: MDB_CORRUPTED)
                }
                let roots = [meta.free, meta.main]
                guard
                    roots.contains(where: {
                        RootPage.damage(of: $0, descriptor: descriptor, pageSize: Int(meta.pageSize)) != nil
                    })
                else { return }
                if newer(of: read(descriptor: descriptor))?.transactionID == meta.transactionID {
                    throw LMDBError(code: MDB_CORRUPTED)
                }
            }
        }

        /// Throws `MDB_CORRUPTED` when the meta page that the transaction `transaction` of the
        /// environment `handle` began from names impossible roots or depths: called as each
        /// transaction begins, before it reads a page, for a meta page damaged while the
        /// environment was open. The page is the one whose transaction ID is the transaction's (a
        /// read transaction) or one less (a write transaction); when neither page has it (two
        /// commits of other processes came between), nothing is refused. Its last page is checked
        /// against the file's length by ``LMDBEnvironment/checkDataFileLength(of:pageSize:lengthBefore:)``.
        ///
        /// - Complexity: one `pread` of a page and a meta page's 152 bytes, into a buffer on the
        ///   stack.
        static func check(transaction: OpaquePointer, of handle: OpaquePointer, pageSize: Int, readOnly: Bool)
            throws(LMDBError)
        {
            var descriptor: mdb_filehandle_t = -1
            guard pageSize >= size, mdb_env_get_fd(handle, &descriptor) == MDB_SUCCESS else { return }
            let identifier = UInt64(truncatingIfNeeded: mdb_txn_id(transaction))
            let wanted = readOnly ? identifier : identifier &- 1
            let damaged = withUnsafeTemporaryAllocation(byteCount: pageSize + size, alignment: 8) { buffer -> Bool in
                guard pread(descriptor, buffer.baseAddress, buffer.count, 0) == buffer.count else { return false }
                let bytes = UnsafeRawBufferPointer(buffer)
                let pages = [
                    MetaPage(UnsafeRawBufferPointer(rebasing: bytes[..<size])),
                    MetaPage(UnsafeRawBufferPointer(rebasing: bytes[pageSize...])),
                ]
                guard let meta = pages.compactMap({ $0 }).first(where: { $0.transactionID == wanted }) else {
                    return false
                }
                return meta.damage(fileLength: .max) != nil
            }
            if damaged { throw LMDBError(code: MDB_CORRUPTED) }
        }
    }

    extension LMDBEnvironment {
        /// Runs ``MetaPage/check(transaction:of:pageSize:readOnly:)`` for `transaction`, unless the
        /// meta page it began from was checked already and the data file has not been written
        /// since (its modification time `fileModified`, read before the transaction began, is
        /// the one of that check): most transactions begin from the meta page the one before them
        /// did, and a `pread` at every one would slow the shortest reads noticeably. A commit
        /// changes the transaction ID, and a write to the file behind LMDB's back its modification
        /// time, so neither skips the check; but file systems stamp writes with a coarse clock, so
        /// a write within a few milliseconds of the last check's may go unnoticed until the next
        /// commit or write. `nil` (unknown) never skips it.
        func checkMetaPage(of transaction: OpaquePointer, readOnly: Bool, fileModified: Int?) throws(LMDBError) {
            let identifier = UInt64(truncatingIfNeeded: mdb_txn_id(transaction))
            let metaTransaction = readOnly ? identifier : identifier &- 1
            if let fileModified, checkedMetaPage.withLock({ $0 }) == CheckedMetaPage(metaTransaction, fileModified) {
                return
            }
            try MetaPage.check(transaction: transaction, of: handle, pageSize: pageSize, readOnly: readOnly)
            if let fileModified {
                checkedMetaPage.withLock { $0 = CheckedMetaPage(metaTransaction, fileModified) }
            }
        }
    }

    /// The meta page ``LMDBEnvironment/checkMetaPage(of:readOnly:fileModified:)`` last found
    /// sound: its transaction ID, and the data file's modification time before it was read.
    struct CheckedMetaPage: Equatable {
        var transactionID: UInt64
        var fileModified: Int

        init(_ transactionID: UInt64, _ fileModified: Int) {
            self.transactionID = transactionID
            self.fileModified = fileModified
        }
    }
#endif
