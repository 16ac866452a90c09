#if LMDB
    import CLMDB

    /// A position in one database of a transaction, lent by ``LMDBTransaction/withCursor(in:_:)``
    /// and closed when that call returns.
    ///
    /// Positioning methods return `false` (or `nil`) when there is no such entry; bytes are copied
    /// out, or lent to a closure by ``withCurrent(_:)``.
    package struct LMDBCursor: ~Copyable {
        /// A cursor positioning operation.
        package enum Position: Sendable {
            /// The first entry.
            case first
            /// The last entry.
            case last
            /// The entry after the current one.
            case next
            /// The entry before the current one.
            case previous
            /// The entry with exactly this key.
            case exactly([UInt8])
            /// The first entry whose key is greater than or equal to this one.
            case atOrAfter([UInt8])
        }

        private let handle: OpaquePointer
        /// What the keys and values lent are checked against.
        private let bounds: MappedFileBounds

        init(handle: OpaquePointer, bounds: MappedFileBounds) {
            self.handle = handle
            self.bounds = bounds
        }

        deinit {
            mdb_cursor_close(handle)
        }

        /// Moves to `position`; returns `false` when there is no such entry.
        package func move(to position: Position) throws(LMDBError) -> Bool {
            var key = MDB_val()
            var value = MDB_val()
            let result: Int32
            switch position {
            case .first: result = mdb_cursor_get(handle, &key, &value, MDB_FIRST)
            case .last: result = mdb_cursor_get(handle, &key, &value, MDB_LAST)
            case .next: result = mdb_cursor_get(handle, &key, &value, MDB_NEXT)
            case .previous: result = mdb_cursor_get(handle, &key, &value, MDB_PREV)
            case .exactly(let bytes):
                result = bytes.withUnsafeBytes { bytes in
                    key = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                    return mdb_cursor_get(handle, &key, &value, MDB_SET_KEY)
                }
            case .atOrAfter(let bytes):
                result = bytes.withUnsafeBytes { bytes in
                    key = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                    return mdb_cursor_get(handle, &key, &value, MDB_SET_RANGE)
                }
            }
            if result == MDB_NOTFOUND { return false }
            try LMDBError.check(result)
            return true
        }

        /// Lends the current key and value to `body`; the bytes are valid only inside `body`.
        package func withCurrent<R>(
            _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> R
        )
            throws -> R
        {
            var key = MDB_val()
            var value = MDB_val()
            try LMDBError.check(mdb_cursor_get(handle, &key, &value, MDB_GET_CURRENT))
            return try body(try bounds.lent(key), try bounds.lent(value))
        }

        /// A copy of the current key.
        package func currentKey() throws(LMDBError) -> [UInt8] {
            var key = MDB_val()
            try LMDBError.check(mdb_cursor_get(handle, &key, nil, MDB_GET_CURRENT))
            return Array(try bounds.lent(key))
        }

        /// A copy of the current key and value.
        package func current() throws(LMDBError) -> (key: [UInt8], value: [UInt8]) {
            var key = MDB_val()
            var value = MDB_val()
            try LMDBError.check(mdb_cursor_get(handle, &key, &value, MDB_GET_CURRENT))
            return (Array(try bounds.lent(key)), Array(try bounds.lent(value)))
        }

        /// Removes the current entry. Moving to ``Position/next`` afterwards reaches the entry that
        /// followed the removed one.
        package func deleteCurrent() throws(LMDBError) {
            try LMDBError.check(mdb_cursor_del(handle, 0))
        }
    }
#endif
