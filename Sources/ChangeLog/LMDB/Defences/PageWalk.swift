#if LMDB
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A walk in Swift over every B-tree page that one snapshot of a data file can reach, read with
    /// `pread`, to refuse a file whose pages LMDB would follow out of the file or through a wild
    /// pointer before LMDB reads any of them.
    ///
    /// LMDB keeps no checksums and checks almost nothing of a page it reads: a branch page of random
    /// bytes sends its cursors to any address (`SIGSEGV`), past the file's end (`SIGBUS`), or into
    /// an assertion (`abort`). The walk descends from the roots of the free-page and main databases
    /// of a meta page, and from the root of every named database the main database records, and
    /// checks each page as LMDB 0.9 lays it out (`mdb.c`, `MDB_page` and `MDB_node`; the 64-bit
    /// build without `MDB_DEVEL`, whose node offsets count from the page's start):
    ///
    /// - a page number from 2 (after the meta pages) to the meta page's last page, reached once:
    ///   no page is shared by two trees or two parents, so there is no cycle;
    /// - the page's header: its own number, and flags of exactly `P_BRANCH` (0x01) above the
    ///   deepest level and `P_LEAF` (0x02) at it, so every leaf is at the depth the database
    ///   records; no `P_DIRTY`, `P_LEAF2` or `P_SUBP`, which a log's pages on disk never carry;
    /// - its bounds (`mp_lower`, `mp_upper`) inside the page, with room for every node's offset;
    ///   a branch page with at least two nodes (one in the free-page database), LMDB's assertion,
    ///   and a leaf with at least one, which LMDB reads without counting;
    /// - each node's offset at or past `mp_upper`, its header, key and in-page data inside the page,
    ///   a key no longer than LMDB's largest (511 bytes), and the eight-byte keys of the free-page
    ///   database, which LMDB compares as integers;
    /// - a branch node's child, checked in turn; a leaf node's flags: none, or `F_BIGDATA` (its data
    ///   on overflow pages), or `F_SUBDATA` in the main database with a 48-byte `MDB_db` record;
    ///   never `F_DUPDATA`, since no database of a log holds duplicates;
    /// - for `F_BIGDATA`, the overflow pages: the first names itself and is `P_OVERFLOW`, its page
    ///   count covers the value and ends at or before the last page, and none of its pages is
    ///   reached twice;
    /// - a database's flags: none for the main and named databases, no duplicate-key flags for the
    ///   free-page database (`MDB_DUPSORT` there fails an assertion);
    /// - a free-page record's list length inside the record.
    ///
    /// Keys out of order, or counts of entries and pages that differ from the tree, do not make
    /// LMDB read outside the pages checked, and are not examined.
    ///
    /// - Complexity: one `pread` of each branch and leaf page, and of the first page of each value
    ///   on overflow pages; memory of one page per level and one bit per page of the file.
    struct PageWalk: ~Copyable {
        /// What is wrong with the pages, in words, for a message that names the damage.
        struct Damage: Error, Equatable, CustomStringConvertible {
            var description: String
        }

        /// Which database a tree is, for its rules and for messages.
        enum Tree: Equatable, CustomStringConvertible {
            /// The free-page database (LMDB's database 0).
            case free
            /// The main database, which records the named ones.
            case main
            /// The named database with this name.
            case named(String)

            var description: String {
                switch self {
                case .free: "the free-page database"
                case .main: "the main database"
                case .named(let name): "the database \(name.debugDescription)"
                }
            }
        }

        // Page and node layout, `mdb.c`.
        static let headerSize = 16
        static let nodeHeaderSize = 8
        static let branchFlag: UInt16 = 0x01
        static let leafFlag: UInt16 = 0x02
        static let overflowFlag: UInt16 = 0x04
        static let bigData: UInt16 = 0x01
        static let subDatabase: UInt16 = 0x02
        /// `MDB_DUPSORT`, `MDB_DUPFIXED`, `MDB_INTEGERDUP`, `MDB_REVERSEDUP`.
        static let duplicateFlags: UInt16 = 0x04 | 0x10 | 0x20 | 0x40

        private let descriptor: Int32
        private let pageSize: Int
        private let lastPage: UInt64
        private let maximumKeySize: Int
        /// One bit per page from 0 to ``lastPage``: set once the page is reached.
        private var reached: [UInt64]
        /// One page-sized buffer per level of the tree being walked.
        private let buffers: UnsafeMutableRawBufferPointer
        /// The named databases the main database records, walked after it.
        private var named: [(name: String, record: MetaPage.DatabaseRecord)] = []

        /// A walk of the data file `descriptor`, whose pages are `pageSize` bytes and whose last
        /// page in use is `lastPage` (checked against the file's length beforehand), for keys of at
        /// most `maximumKeySize` bytes.
        init(descriptor: Int32, pageSize: Int, lastPage: UInt64, maximumKeySize: Int) {
            self.descriptor = descriptor
            self.pageSize = pageSize
            self.lastPage = lastPage
            self.maximumKeySize = maximumKeySize
            reached = [UInt64](repeating: 0, count: Int(lastPage / 64) + 1)
            // Pages 0 and 1 are the meta pages: a tree that reaches one is damaged.
            reached[0] = 0b11
            buffers = .allocate(
                byteCount: pageSize * Int(MetaPage.DatabaseRecord.maximumDepth),
                alignment: MemoryLayout<UInt64>.alignment)
        }

        deinit {
            buffers.deallocate()
        }

        /// Walks the free-page and main databases of `meta`, then every named database the main
        /// database records; throws the first damage found.
        mutating func walk(_ meta: MetaPage) throws(Damage) {
            guard meta.free.flags & Self.duplicateFlags == 0 else {
                throw Damage(description: "the free-page database has flags \(Self.hex(meta.free.flags))")
            }
            try walk(meta.free, tree: .free)
            try walk(meta.main, tree: .main)
            for (name, record) in named {
                try walk(record, tree: .named(name))
            }
        }

        /// Walks the tree of `record`, named `tree`.
        private mutating func walk(_ record: MetaPage.DatabaseRecord, tree: Tree) throws(Damage) {
            if tree != .free, record.flags != 0 {
                throw Damage(description: "\(tree) has flags \(Self.hex(record.flags)), which no log's databases have")
            }
            if let damage = record.damage(lastPage: lastPage) { throw Damage(description: "\(tree) has \(damage)") }
            guard record.root != MetaPage.DatabaseRecord.noPage else { return }
            try walk(page: record.root, level: 1, depth: Int(record.depth), tree: tree)
        }

        /// Checks page `number`, at `level` (1 for the root) of a tree of `depth` levels, and the
        /// pages below it.
        private mutating func walk(page number: UInt64, level: Int, depth: Int, tree: Tree) throws(Damage) {
            let page = try read(number, level: level, tree: tree)
            let isLeaf = level == depth
            let flags = page.loadUnaligned(fromByteOffset: 10, as: UInt16.self)
            guard flags == (isLeaf ? Self.leafFlag : Self.branchFlag) else {
                let kind = isLeaf ? "a leaf" : "a branch"
                throw Damage(
                    description: "page \(number) of \(tree) has flags \(Self.hex(flags)) where \(kind) page belongs "
                        + "(level \(level) of \(depth))")
            }
            let lower = Int(page.loadUnaligned(fromByteOffset: 12, as: UInt16.self))
            let upper = Int(page.loadUnaligned(fromByteOffset: 14, as: UInt16.self))
            guard Self.headerSize <= lower, lower <= upper, upper <= pageSize, (lower - Self.headerSize) % 2 == 0 else {
                throw Damage(description: "page \(number) of \(tree) has bounds \(lower) and \(upper)")
            }
            let count = (lower - Self.headerSize) / 2
            let fewest = isLeaf ? 1 : (tree == .free ? 1 : 2)
            guard count >= fewest else {
                throw Damage(description: "page \(number) of \(tree) has \(count) nodes")
            }
            for index in 0..<count {
                let offset = Int(page.loadUnaligned(fromByteOffset: Self.headerSize + 2 * index, as: UInt16.self))
                let node = try self.node(index, at: offset, upper: upper, in: page, number: number, tree: tree)
                if isLeaf {
                    try checkLeafNode(node, index: index, in: page, number: number, tree: tree)
                } else {
                    // The first node's key is never compared; the free-page database compares the
                    // others as eight-byte integers.
                    if tree == .free, index > 0, node.keySize != 8 {
                        throw Damage(
                            description: "node \(index) of page \(number) of \(tree) has a key of \(node.keySize) bytes"
                        )
                    }
                    let child = UInt64(node.low) | UInt64(node.high) << 16 | UInt64(node.flags) << 32
                    try walk(page: child, level: level + 1, depth: depth, tree: tree)
                }
            }
        }

        /// A node's header fields and where its key and data start.
        private struct Node {
            var offset: Int
            var low: UInt16
            var high: UInt16
            var flags: UInt16
            var keySize: Int
            /// The offset of the data, after the key.
            var data: Int { offset + PageWalk.nodeHeaderSize + keySize }
            /// A leaf node's data size.
            var dataSize: Int { Int(low) | Int(high) << 16 }
        }

        /// Node `index` of `page`, at `offset`, once its header and key lie in the page.
        private func node(
            _ index: Int, at offset: Int, upper: Int, in page: UnsafeRawBufferPointer, number: UInt64, tree: Tree
        ) throws(Damage) -> Node {
            guard offset >= upper, offset + Self.nodeHeaderSize <= pageSize else {
                throw Damage(description: "node \(index) of page \(number) of \(tree) lies at offset \(offset)")
            }
            let node = Node(
                offset: offset, low: page.loadUnaligned(fromByteOffset: offset, as: UInt16.self),
                high: page.loadUnaligned(fromByteOffset: offset + 2, as: UInt16.self),
                flags: page.loadUnaligned(fromByteOffset: offset + 4, as: UInt16.self),
                keySize: Int(page.loadUnaligned(fromByteOffset: offset + 6, as: UInt16.self)))
            guard node.keySize <= maximumKeySize, node.data <= pageSize else {
                throw Damage(
                    description: "node \(index) of page \(number) of \(tree) has a key of \(node.keySize) bytes at "
                        + "offset \(offset)")
            }
            return node
        }

        /// Checks a leaf node: its key and data inside the page, or its overflow pages; records a
        /// named database's record for the walk after the main database's.
        private mutating func checkLeafNode(
            _ node: Node, index: Int, in page: UnsafeRawBufferPointer, number: UInt64, tree: Tree
        ) throws(Damage) {
            // Named only when damage is reported: a walk checks every leaf node of the file.
            func name() -> String { "node \(index) of page \(number) of \(tree)" }
            if tree == .free, node.keySize != 8 {
                throw Damage(description: "\(name()) has a key of \(node.keySize) bytes")
            }
            switch node.flags {
            case 0:
                guard node.dataSize <= pageSize - node.data else {
                    throw Damage(description: "\(name()) holds \(node.dataSize) bytes, more than its page")
                }
                if tree == .free {
                    try checkFreeList(
                        UnsafeRawBufferPointer(rebasing: page[node.data..<node.data + node.dataSize]), name())
                }
            case Self.bigData:
                guard node.data + 8 <= pageSize else { throw Damage(description: "\(name()) lies past its page's end") }
                let first = page.loadUnaligned(fromByteOffset: node.data, as: UInt64.self)
                try checkOverflow(first, size: node.dataSize, name: name(), freeList: tree == .free)
            case Self.subDatabase where tree == .main:
                guard node.dataSize == MetaPage.DatabaseRecord.size, node.data + node.dataSize <= pageSize else {
                    throw Damage(description: "\(name()) holds a database record of \(node.dataSize) bytes")
                }
                let key = UnsafeRawBufferPointer(rebasing: page[node.offset + Self.nodeHeaderSize..<node.data])
                named.append(
                    (String(decoding: key, as: UTF8.self), MetaPage.DatabaseRecord(page, at: node.data)))
            default:
                throw Damage(description: "\(name()) has flags \(Self.hex(node.flags))")
            }
        }

        /// Checks the overflow pages from `first` that hold a value of `size` bytes, and marks them
        /// reached; for a free-page record (`freeList`), its list length too.
        private mutating func checkOverflow(
            _ first: UInt64, size: Int, name: @autoclosure () -> String, freeList: Bool
        ) throws(Damage) {
            let needed = UInt64((Self.headerSize - 1 + size) / pageSize + 1)
            var bytes = [UInt8](repeating: 0, count: Self.headerSize + 8)
            let count = bytes.withUnsafeMutableBytes {
                Self.read(descriptor, into: $0, page: first, pageSize: pageSize)
            }
            let (stored, flags, pages) = bytes.withUnsafeBytes {
                (
                    $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                    $0.loadUnaligned(fromByteOffset: 10, as: UInt16.self),
                    UInt64($0.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                )
            }
            let (end, overflow) = first.addingReportingOverflow(max(pages, 1) - 1)
            guard first >= 2, first <= lastPage, count == bytes.count, stored == first, flags == Self.overflowFlag,
                pages >= needed, !overflow, end <= lastPage
            else {
                throw Damage(
                    description: "\(name()) names overflow page \(first) for \(size) bytes, which is no such page "
                        + "in a file whose last page is \(lastPage)")
            }
            for page in first...end {
                try mark(page, name: "overflow page \(page) of \(name())")
            }
            if freeList {
                // The list's length word follows the header; its page numbers, within the value.
                let length = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self) }
                guard size >= 8, length <= UInt64(size / 8 - 1) else {
                    throw Damage(description: "\(name()) holds a free-page list of \(length) pages in \(size) bytes")
                }
            }
        }

        /// Checks a free-page record's value: a length word, then at least that many page numbers.
        private func checkFreeList(_ value: UnsafeRawBufferPointer, _ name: @autoclosure () -> String) throws(Damage) {
            guard value.count >= 8 else {
                throw Damage(description: "\(name()) holds a free-page list of \(value.count) bytes")
            }
            let length = value.loadUnaligned(as: UInt64.self)
            guard length <= UInt64(value.count / 8 - 1) else {
                throw Damage(description: "\(name()) holds a free-page list of \(length) pages in \(value.count) bytes")
            }
        }

        /// Reads page `number` into the buffer of `level`, once it is a page of the file reached for
        /// the first time that names itself.
        private mutating func read(_ number: UInt64, level: Int, tree: Tree) throws(Damage) -> UnsafeRawBufferPointer {
            guard number >= 2, number <= lastPage else {
                throw Damage(description: "\(tree) names page \(number), outside pages 2 to \(lastPage)")
            }
            try mark(number, name: "page \(number) of \(tree)")
            guard (1...buffers.count / pageSize).contains(level) else {
                throw Damage(description: "\(tree) is deeper than \(buffers.count / pageSize) levels")
            }
            let buffer = UnsafeMutableRawBufferPointer(rebasing: buffers[(level - 1) * pageSize..<level * pageSize])
            guard Self.read(descriptor, into: buffer, page: number, pageSize: pageSize) == pageSize else {
                throw Damage(description: "page \(number) of \(tree) lies past the end of the file")
            }
            let page = UnsafeRawBufferPointer(buffer)
            let stored = page.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            guard stored == number else {
                throw Damage(description: "page \(number) of \(tree) says it is page \(stored)")
            }
            return page
        }

        /// Marks `page` reached; throws when it was reached before.
        private mutating func mark(_ page: UInt64, name: @autoclosure () -> String) throws(Damage) {
            let word = Int(page / 64)
            let bit = UInt64(1) << (page % 64)
            guard reached[word] & bit == 0 else { throw Damage(description: "\(name()) is reached twice") }
            reached[word] |= bit
        }

        /// Reads `buffer.count` bytes of page `page` with `pread`; the count read, or -1.
        private static func read(
            _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, page: UInt64, pageSize: Int
        )
            -> Int
        {
            let (offset, overflow) = page.multipliedReportingOverflow(by: UInt64(pageSize))
            guard !overflow, offset <= UInt64(Int64.max) else { return -1 }
            var done = 0
            while done < buffer.count {
                let count = pread(
                    descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                done += count
            }
            return done
        }

        private static func hex(_ value: UInt16) -> String { "0x" + String(value, radix: 16) }
    }
#endif
