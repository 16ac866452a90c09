#if LMDB
    import CLMDB

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension LMDBEnvironment {
        /// Walks every B-tree page of the snapshot a read transaction sees (``PageWalk``), before
        /// anything of this environment's lets LMDB read one; throws ``PageWalk/Damage`` naming the
        /// first damage found.
        ///
        /// The walk runs inside a read transaction: LMDB does not reuse the pages of a snapshot that a
        /// reader holds, so other processes may commit meanwhile. The meta page of that snapshot is
        /// the one at index `transaction ID & 1` (LMDB writes meta page `t & 1` for transaction `t`,
        /// and reads it back the same way): it must hold that transaction. When either meta page
        /// holds a later transaction, another process committed between the transaction's begin and
        /// the reading of the meta pages, and the walk begins again; without a lock file
        /// (`MDB_NOLOCK`), where readers do not hold their pages, a walk that finds damage while the
        /// meta pages changed begins again too. After eight such attempts the environment is taken as
        /// a live log, written by LMDB itself, and not walked.
        ///
        /// - Throws: ``PageWalk/Damage``, or an ``LMDBError`` when the transaction cannot begin (the
        ///   checks of ``LMDBTransaction/init(environment:readOnly:)`` refuse a damaged meta page or
        ///   a file cut short).
        @available(*, noasync, message: "the walk reads every page; call it from a synchronous context")
        func walkPages() throws {
            var descriptor: mdb_filehandle_t = -1
            try LMDBError.check(mdb_env_get_fd(handle, &descriptor))
            let maximumKeySize = Int(mdb_env_get_maxkeysize(handle))
            for _ in 0..<8 {
                // The transaction's snapshot keeps its pages as they are while the walk reads them.
                let walked = try read { transaction throws -> Bool in
                    let identifier = UInt64(truncatingIfNeeded: mdb_txn_id(transaction.handle))
                    let pages = MetaPage.read(descriptor: descriptor)
                    if Self.hasLaterTransaction(pages, than: identifier) { return false }
                    guard let meta = [pages.0, pages.1][Int(identifier & 1)], meta.transactionID == identifier else {
                        throw PageWalk.Damage(
                            description: "meta page \(identifier & 1) does not hold transaction \(identifier), which "
                                + "LMDB reads from it")
                    }
                    var walk = PageWalk(
                        descriptor: descriptor, pageSize: pageSize, lastPage: meta.lastPage,
                        maximumKeySize: maximumKeySize)
                    do {
                        try walk.walk(meta)
                        return true
                    } catch {
                        if Self.hasLaterTransaction(MetaPage.read(descriptor: descriptor), than: identifier) {
                            return false
                        }
                        throw error
                    }
                }
                if walked { return }
            }
        }

        /// Whether either of the meta pages `pages` holds a transaction later than `identifier`:
        /// another process committed since the transaction `identifier` began.
        private static func hasLaterTransaction(_ pages: (MetaPage?, MetaPage?), than identifier: UInt64) -> Bool {
            [pages.0, pages.1].contains { ($0?.transactionID ?? 0) > identifier }
        }
    }
#endif
