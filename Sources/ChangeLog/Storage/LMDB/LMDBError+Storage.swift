#if LMDB
    import CLMDB

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension LMDBError: StorageEngineError {
        package var engineName: String { "LMDB" }

        package func changeLogError(path: String, revision: UInt64?, during operation: String) -> ChangeLogError {
            .storage(self, path: path, revision: revision, during: operation)
        }

        /// `MDB_CORRUPTED` and `MDB_PAGE_NOTFOUND`: LMDB found its file damaged.
        package var reportsDamage: Bool { code == MDB_CORRUPTED || code == MDB_PAGE_NOTFOUND }
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
    }
#endif
