#if LMDB
    import CLMDB
    import Foundation
    import ListFormat
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Where an environment's map lies in memory and how much of it the data file backs, to refuse a
    /// value that LMDB hands out past the file's end.
    ///
    /// LMDB trusts the sizes stored in its pages. In a data file damaged behind its back (a flipped
    /// bit in a node's size), a value may reach past the end of the file, or of the map: reading it
    /// would crash the process with `SIGBUS` or `SIGSEGV`. Each key and value a transaction lends is
    /// checked against these bounds first and refused as `MDB_CORRUPTED` instead.
    ///
    /// The map's place is read from `/proc/self/maps` (Linux), once per mapping: a remap moves it
    /// (``mapMoved()``). Where that file does not exist the bounds are unknown and nothing is
    /// checked. Bytes outside the map are a write transaction's own pages, in memory, and pass.
    final class MappedFileBounds: Sendable {
        /// The map's first address and the address past its end; both 0 while unknown. Read
        /// without a lock: every key and value lent is checked, by every reading thread.
        private let mapStart = Atomic<UInt>(0)
        private let mapEnd = Atomic<UInt>(0)
        /// The address past the data file's end in the map, as last read; 0 to read it again.
        private let fileEnd = Atomic<UInt>(0)
        /// Whether the map was looked up since the last remap; set once ``mapStart`` and
        /// ``mapEnd`` hold the result.
        private let looked = Atomic<Bool>(false)
        /// Held while the map is looked up.
        private let lookup = Mutex(())
        /// The data file's device and inode, to find its mapping.
        private let device: UInt64
        private let inode: UInt64
        /// The environment, for its data file's descriptor.
        nonisolated(unsafe) private let handle: OpaquePointer

        /// Bounds for the environment `handle`, whose data file is on `device` with `inode`.
        init(handle: OpaquePointer, device: UInt64, inode: UInt64) {
            self.handle = handle
            self.device = device
            self.inode = inode
        }

        /// Forgets the map's place: the environment was just mapped again. Called while no
        /// transaction is open (the resize gate is held exclusively), so no check runs meanwhile.
        func mapMoved() {
            lookup.withLock { _ in
                looked.store(false, ordering: .releasing)
                mapStart.store(0, ordering: .relaxed)
                mapEnd.store(0, ordering: .relaxed)
                fileEnd.store(0, ordering: .relaxed)
            }
        }

        /// Forgets the data file's size, which is read again at the next check: the file was cut
        /// back (a reserve of zeros that failed), and the size known may be past its end now.
        func fileMayHaveShrunk() {
            fileEnd.store(0, ordering: .relaxed)
        }

        /// Throws `MDB_CORRUPTED` when the `count` bytes at `start`, lent by LMDB, lie in the map but
        /// reach past the data file's end.
        private func check(_ start: UnsafeMutableRawPointer?, count: Int) throws(LMDBError) {
            guard count > 0, let start else { return }
            let address = UInt(bitPattern: start)
            if !looked.load(ordering: .acquiring) {
                lookUp(holding: address)
            }
            let lower = mapStart.load(ordering: .relaxed)
            let upper = mapEnd.load(ordering: .relaxed)
            // Outside the map (or the map unknown): a write transaction's own page, in memory.
            guard lower < upper, (lower..<upper).contains(address) else { return }
            let (end, overflow) = address.addingReportingOverflow(UInt(count))
            guard !overflow, end <= upper else { throw LMDBError(code: MDB_CORRUPTED) }
            if end <= fileEnd.load(ordering: .relaxed) { return }
            // The file may have grown since its size was read.
            // A size that cannot be read refuses nothing: the check only guards against damage.
            guard let size = fileSize() else { return }
            let current = lower + min(size, upper - lower)
            fileEnd.store(current, ordering: .relaxed)
            guard end <= current else { throw LMDBError(code: MDB_CORRUPTED) }
        }

        /// The bytes of `value`, which LMDB lent, once ``check(_:count:)`` found them within the data
        /// file: what transactions and cursors hand out.
        func lent(_ value: MDB_val) throws(LMDBError) -> UnsafeRawBufferPointer {
            try check(value.mv_data, count: value.mv_size)
            return UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)
        }

        /// Looks the map up in `/proc/self/maps`, given an `address` LMDB lent.
        ///
        /// A list that cannot be read now (no descriptor left, say) is read again next time;
        /// without `/proc` at all, never. Another environment of this process may still map a
        /// deleted file whose inode this one's data file now has: the map is the one that holds the
        /// address. When none does, the address is in memory (a write transaction's page) unless
        /// the map is certain, and the next address looks again.
        private func lookUp(holding address: UInt) {
            lookup.withLock { _ in
                guard !looked.load(ordering: .relaxed), let candidates = Self.mappings(ofDevice: device, inode: inode)
                else { return }
                let map = candidates.first { $0.contains(address) } ?? (candidates.count == 1 ? candidates[0] : nil)
                if let map {
                    mapStart.store(map.lowerBound, ordering: .relaxed)
                    mapEnd.store(map.upperBound, ordering: .relaxed)
                }
                if map != nil || candidates.isEmpty {
                    looked.store(true, ordering: .releasing)
                }
            }
        }

        /// The data file's size, or `nil` when it cannot be read.
        private func fileSize() -> UInt? {
            var descriptor: mdb_filehandle_t = -1
            var status = stat()
            guard mdb_env_get_fd(handle, &descriptor) == MDB_SUCCESS, fstat(descriptor, &status) == 0 else {
                return nil
            }
            return UInt(max(0, status.st_size))
        }

        /// The addresses of this process's mappings of the file on `device` with `inode`, from its
        /// start, read from `/proc/self/maps`: lines such as
        /// `7f68a5000000-7f68a9000000 r--s 00000000 fe:01 1234 /path/data.mdb`. None where there
        /// is no such file (not Linux); `nil` when it exists but cannot be read now.
        static func mappings(ofDevice device: UInt64, inode: UInt64) -> [Range<UInt>]? {
            let text: String
            switch readWhole("/proc/self/maps") {
            case .success(let read): text = read
            case .failure(let error): return error.code == ENOENT ? [] : nil
            }
            var found: [Range<UInt>] = []
            // Linux's encoding of a device number: the major in bits 8-19 and 32-43, the minor in
            // bits 0-7 and 20-31.
            let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~0xFFF)
            let minor = (device & 0xFF) | ((device >> 12) & ~0xFF)
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
                guard fields.count >= 5, UInt64(fields[4]) == inode, UInt64(fields[2], radix: 16) == 0 else { continue }
                let numbers = fields[3].split(separator: ":").compactMap { UInt64($0, radix: 16) }
                let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
                guard numbers == [major, minor], bounds.count == 2, bounds[0] < bounds[1] else { continue }
                found.append(bounds[0]..<bounds[1])
            }
            return found
        }

        /// The whole text of the file at `path`, read to its end (``readToEnd(_:failure:)``: a
        /// `/proc` file reports a size of 0). On failure, the `errno` of the `open` or `read` that
        /// failed, as an ``LMDBError``.
        private static func readWhole(_ path: String) -> Result<String, LMDBError> {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return .failure(LMDBError(code: errno)) }
            defer { close(descriptor) }
            return Result { () throws(LMDBError) in
                let data = try readToEnd(descriptor) { code throws(LMDBError) in throw LMDBError(code: code) }
                return String(decoding: data, as: UTF8.self)
            }
        }
    }
#endif
