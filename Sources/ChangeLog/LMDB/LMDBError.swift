#if LMDB
    import CLMDB

    /// A failure reported by LMDB: its return code and LMDB's own explanation of it.
    ///
    /// LMDB returns either one of its own codes (negative, `MDB_KEYEXIST` and friends) or a system
    /// `errno` value (positive); ``description`` shows `mdb_strerror`'s text for both. Named
    /// constants exist only for the codes callers branch on; compare any other code through
    /// ``code``.
    public struct LMDBError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The raw return code of the failing LMDB call.
        public let code: Int32

        /// Wraps a raw LMDB or `errno` return code.
        public init(code: Int32) {
            self.code = code
        }

        /// `MDB_NOTFOUND`: no such key, or a cursor moved past the last entry.
        public static let notFound = LMDBError(code: MDB_NOTFOUND)
        /// `MDB_KEYEXIST`: the key already exists, or an `MDB_APPEND` put was out of order.
        public static let keyExists = LMDBError(code: MDB_KEYEXIST)
        /// `MDB_MAP_FULL`: the memory map is full; the environment grows it and retries by itself.
        public static let mapFull = LMDBError(code: MDB_MAP_FULL)
        /// `MDB_MAP_RESIZED`: another process grew the map; the environment adopts the new size.
        public static let mapResized = LMDBError(code: MDB_MAP_RESIZED)
        /// `MDB_READERS_FULL`: every reader slot is taken; end idle readers or raise the limit.
        public static let readersFull = LMDBError(code: MDB_READERS_FULL)
        /// `MDB_INCOMPATIBLE`: the operation does not suit the database, for example a database
        /// opened by a name that is a plain key of the main database.
        public static let incompatible = LMDBError(code: MDB_INCOMPATIBLE)

        /// LMDB's explanation of the code (`mdb_strerror`), followed by the code itself.
        public var description: String {
            let text = mdb_strerror(code).map { String(cString: $0) } ?? "unknown LMDB error"
            return "\(text) (LMDB code \(code))"
        }

        /// Throws an ``LMDBError`` for any return code other than `MDB_SUCCESS`.
        package static func check(_ result: Int32) throws(LMDBError) {
            if result != MDB_SUCCESS {
                throw LMDBError(code: result)
            }
        }
    }
#endif
