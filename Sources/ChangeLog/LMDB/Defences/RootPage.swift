#if LMDB
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The header of a database's root page, read by this package before LMDB descends from it,
    /// to refuse a root that is no B-tree page.
    ///
    /// A meta page or database record can name a page inside the file that holds something else:
    /// another page's copy, random bytes, an overflow page. LMDB takes the page for a branch or a
    /// leaf and reads its nodes at the offsets the page holds, through wild pointers (`SIGSEGV`)
    /// or past the file (`SIGBUS`). The root page is checked as `mdb.c` lays it out: its number
    /// (8 bytes), padding (2), flags (2: `P_BRANCH` 0x01, `P_LEAF` 0x02), the bounds of its free
    /// space (2 and 2), then a 2-byte offset per node. This checks the root page only: damage
    /// deeper in the tree is not caught here (DAMAGE.md).
    struct RootPage {
        /// The size of a page header (`PAGEHDRSZ`).
        static let headerSize = 16
        /// The size of a node's header (`NODESIZE`): what must fit after each node's offset.
        static let nodeHeaderSize = 8

        /// What is wrong with `bytes`, the page read at the root of a database of `depth` levels
        /// with pages of `pageSize` bytes, numbered `number`; `nil` when it can be that root: it
        /// carries its own number, it is a leaf (depth 1) or a branch (deeper) and nothing else, its
        /// bounds lie inside the page, and every node's offset leaves room for a node's header.
        static func damage(_ bytes: UnsafeRawBufferPointer, number: UInt64, depth: UInt16, pageSize: Int) -> String? {
            guard bytes.count >= headerSize, bytes.count == pageSize else { return "a root page cut short" }
            let storedNumber = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            guard storedNumber == number else { return "root page \(number) says it is page \(storedNumber)" }
            let flags = bytes.loadUnaligned(fromByteOffset: 10, as: UInt16.self)
            let kind = flags & 0x0F
            guard kind == (depth == 1 ? 0x02 : 0x01) else {
                return "root page \(number) of a tree of depth \(depth) has flags \(flags)"
            }
            let lower = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt16.self))
            let upper = Int(bytes.loadUnaligned(fromByteOffset: 14, as: UInt16.self))
            guard headerSize <= lower, lower <= upper, upper <= pageSize, (lower - headerSize) % 2 == 0 else {
                return "root page \(number) has bounds \(lower) and \(upper)"
            }
            for node in stride(from: headerSize, to: lower, by: 2) {
                let offset = Int(bytes.loadUnaligned(fromByteOffset: node, as: UInt16.self))
                guard offset >= upper, offset + nodeHeaderSize <= pageSize else {
                    return "root page \(number) has a node at offset \(offset)"
                }
            }
            return nil
        }

        /// What is wrong with the root page of `record` in the data file `descriptor`, read with
        /// `pread`; `nil` when it can be the root, when the database is empty, or when the page
        /// cannot be read (the file's length is checked elsewhere).
        static func damage(of record: MetaPage.DatabaseRecord, descriptor: Int32, pageSize: Int) -> String? {
            guard record.root != MetaPage.DatabaseRecord.noPage, pageSize > 0 else { return nil }
            let (offset, overflow) = record.root.multipliedReportingOverflow(by: UInt64(pageSize))
            guard !overflow, offset <= UInt64(Int64.max) else { return nil }
            var page = [UInt8](repeating: 0, count: pageSize)
            let count = page.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            guard count == pageSize else { return nil }
            return page.withUnsafeBytes { damage($0, number: record.root, depth: record.depth, pageSize: pageSize) }
        }
    }
#endif
