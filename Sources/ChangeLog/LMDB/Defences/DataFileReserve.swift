#if LMDB
    import CFileWriteback

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Zero-filled space kept ahead of the used end of `data.mdb`, written once, so that small
    /// commits overwrite blocks the file already has.
    ///
    /// A commit that grows the file changes its size and allocates blocks, so its flush
    /// (`fdatasync`) writes the file's metadata as well as its pages: one more write to wait for,
    /// and on a loaded disk the slowest part of a small commit. Pages the file already holds are
    /// also already in the page cache. With the reserve, most small commits do not grow the file,
    /// so their flush writes pages alone (Benchmarks/GROUP-COMMIT.md says why).
    ///
    /// The zeros need not be durable: LMDB never reads them. On Linux their writing to the disk is
    /// started and not waited for (`sync_file_range`), so that it overlaps the transaction's
    /// work; the commit's own flush waits for what is left of it and writes the file's new size.
    /// A flush of their own would put one more flush on the writer's path every few commits of a
    /// young log (Benchmarks/GROUP-COMMIT.md says why).
    ///
    /// LMDB ignores a file longer than its pages: the space ahead is invisible to it, and to every
    /// reader. The reserve is written only past the file's current end, at the start of a write
    /// transaction that asks for it (``LMDBEnvironment/write(reservingSpace:_:)``, for appends):
    /// this process then holds LMDB's writer lock, and the transaction has not written (or
    /// spilled) any page yet, so no other writer can be extending the file meanwhile. A commit
    /// larger than the space left grows the file, as without a reserve.
    enum DataFileReserve {
        /// The space kept ahead of the used end: an eighth of the used size, from 64 KB to 4 MB.
        static func target(usedBytes: Int) -> Int {
            min(max(usedBytes / 8, 64 << 10), 4 << 20)
        }

        /// What ``ensure(descriptor:usedBytes:pageSize:mapSize:startWriteback:unlessSize:)`` did.
        enum Outcome: Equatable {
            /// Enough space was ahead already, or none could be added within the limits.
            case unchanged
            /// The file was extended.
            case extended
            /// Writing the zeros failed, and the file was cut back to this size.
            case failed(atSize: Int)
        }

        /// Extends the file `descriptor` with zeros to `usedBytes` plus ``target(usedBytes:)``
        /// (rounded to `pageSize`), once less than half of that is left. With `startWriteback`,
        /// the zeros' writing to the disk is then started, not waited for (on Linux; elsewhere the
        /// file is flushed). The file never grows past `mapSize` or the process's file-size limit
        /// (`RLIMIT_FSIZE`, whose signal would end the process).
        ///
        /// Best effort: on a failed write (a full disk) the file is cut back to its size before and
        /// the commit goes on as it would have without the reserve; while the file still has the
        /// size `unlessSize` (where the last attempt failed) nothing is tried.
        static func ensure(
            descriptor: Int32, usedBytes: Int, pageSize: Int, mapSize: Int, startWriteback: Bool,
            unlessSize: Int = -1
        ) -> Outcome {
            var information = stat()
            guard pageSize > 0, fstat(descriptor, &information) == 0 else { return .unchanged }
            let size = Int(information.st_size)
            let ahead = target(usedBytes: usedBytes)
            // `usedBytes` comes from the meta page: a damaged one may name a size near `Int.max`,
            // which the sums below must not trap on.
            let (beyond, overflow) = usedBytes.addingReportingOverflow(ahead + pageSize - 1)
            // A file shorter than its pages in use was cut behind the writer's back: zeros written
            // over the cut would hide it from the commit's length check (`LMDBTransaction.commit()`).
            guard !overflow, usedBytes >= 0, size >= usedBytes, size != unlessSize, size < usedBytes + ahead / 2 else {
                return .unchanged
            }
            let end = min(mapSize, fileSizeLimit(), beyond / pageSize * pageSize)
            guard end > size else { return .unchanged }
            var offset = size
            let written = zeros.withUnsafeBytes { zeros in
                while offset < end {
                    let count = pwrite(descriptor, zeros.baseAddress, min(zeros.count, end - offset), off_t(offset))
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { return false }
                    offset += count
                }
                return true
            }
            guard written else {
                _ = ftruncate(descriptor, off_t(size))
                return .failed(atSize: size)
            }
            if startWriteback {
                // Best effort, like the zeros themselves: the commit's flush writes what this did not.
                _ = changelog_start_writeback(descriptor, Int64(size), Int64(end - size))
            }
            return .extended
        }

        /// The largest file this process may write (`RLIMIT_FSIZE`), or `Int.max`.
        private static func fileSizeLimit() -> Int {
            var limit = rlimit()
            #if canImport(Glibc)
                let resource = Int32(RLIMIT_FSIZE.rawValue)
            #else
                let resource = RLIMIT_FSIZE
            #endif
            guard getrlimit(resource, &limit) == 0 else { return .max }
            // No limit (`RLIM_INFINITY`, all bits set) clamps to `Int.max`.
            return Int(clamping: limit.rlim_cur)
        }

        /// The block of zeros the reserve is written from.
        private static let zeros = [UInt8](repeating: 0, count: 256 << 10)
    }
#endif
