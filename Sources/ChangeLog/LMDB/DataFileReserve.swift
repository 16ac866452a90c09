#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Zero-filled space kept ahead of the used end of `data.mdb`, written and flushed once, so
/// that commits overwrite blocks the file already has.
///
/// A commit that grows the file changes its size and allocates blocks, so its flush
/// (`fdatasync`) writes the file's metadata as well as its pages: one more write to wait for,
/// and on a loaded disk the slowest part of a small commit. Pages the file already holds are
/// also already in the page cache. With the reserve, a lone durable append of the ChangeLog
/// benchmarks' churn workload took about half as long on a loaded disk (1.3–2.0 ms against
/// 2.7–3.4 ms) and a group of 8 about a third less.
///
/// LMDB writes pages only at offsets below its next page number and ignores a file longer than
/// that: the space ahead is invisible to it, and to every reader. The reserve is written at the
/// start of a write transaction, while this process holds LMDB's writer lock and before the
/// transaction can write (or spill) any page, so it never overwrites one.
enum DataFileReserve {
    /// The space kept ahead of the used end: an eighth of the used size, from 64 KB to 4 MB.
    static func target(usedBytes: Int) -> Int {
        min(max(usedBytes / 8, 64 << 10), 4 << 20)
    }

    /// Extends the file `descriptor` with zeros to `usedBytes` plus ``target(usedBytes:)``
    /// (rounded to `pageSize`, at most `mapSize`) once less than half of that is left, then
    /// flushes it when `flush` is set. Best effort: on a failed write the file is cut back to
    /// its size before, and the commit goes on as it would have without the reserve.
    static func ensure(descriptor: Int32, usedBytes: Int, pageSize: Int, mapSize: Int, flush: Bool) {
        var information = stat()
        guard pageSize > 0, fstat(descriptor, &information) == 0 else { return }
        let size = Int(information.st_size)
        let ahead = target(usedBytes: usedBytes)
        guard size < usedBytes + ahead / 2 else { return }
        let end = min(mapSize, (usedBytes + ahead + pageSize - 1) / pageSize * pageSize)
        guard end > size else { return }
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
            return
        }
        if flush {
            _ = fdatasync(descriptor)
        }
    }

    /// The block of zeros the reserve is written from.
    private static let zeros = [UInt8](repeating: 0, count: 256 << 10)
}
