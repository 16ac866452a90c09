import Foundation

/// Edits of the newer of LMDB's two meta pages in a log's data file, behind LMDB's back: the
/// figures LMDB trusts (roots, depths, the last page, the page size) set to impossible values.
///
/// Offsets are `mdb.c`'s on 64-bit platforms: after a page header of 16 bytes, `MDB_meta`
/// holds two 48-byte `MDB_db` records from byte 40 (free pages, then the main database; each
/// with its depth at +6 and root at +40, the first one's first field being the page size),
/// the last page number at 136 and the transaction ID at 144. The log's pages are the system's
/// page size.
package enum MetaPageDamage: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The main database's root is page 0, a meta page: LMDB asserts `root > 1` and aborts.
    case mainRootZero
    /// The main database's root is page 1, the other meta page.
    case mainRootOne
    /// The main database's root is past the last page in use.
    case mainRootPastLastPage
    /// The free pages' database has its root at page 0.
    case freeRootZero
    /// The main database has a root but a depth of 0.
    case mainDepthZero
    /// The main database is deeper than LMDB's cursors can go (40 levels).
    case mainDepthTooLarge
    /// The last page in use is far past the file's end (2^40): LMDB sized its map after it.
    case lastPageHuge
    /// The last page in use is the largest number a page can have.
    case lastPageLargest
    /// A page size that is not a power of two.
    case oddPageSize
    /// A page size of 0 in the first meta page, whichever is newer: LMDB divided by it.
    case firstPageSizeZero

    package var description: String { rawValue }

    /// Applies the damage to the newer meta page of the log at `path`; returns that page's
    /// number (0 or 1).
    @discardableResult
    package func apply(toLogAt path: String) throws -> Int {
        let url = URL(fileURLWithPath: path).appendingPathComponent("data.mdb")
        var bytes = [UInt8](try Data(contentsOf: url))
        let pageSize = Int(getpagesize())
        func load(_ offset: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
        }
        func store(_ value: UInt64, at offset: Int, bytes count: Int = 8) {
            for index in 0..<count { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        }
        let newer = load(144) < load(pageSize + 144) ? 1 : 0
        let page = newer * pageSize
        let (free, main, lastPage) = (page + 40, page + 88, page + 136)
        switch self {
        case .mainRootZero: store(0, at: main + 40)
        case .mainRootOne: store(1, at: main + 40)
        case .mainRootPastLastPage: store(load(lastPage) + 5, at: main + 40)
        case .freeRootZero: store(0, at: free + 40)
        case .mainDepthZero: store(0, at: main + 6, bytes: 2)
        case .mainDepthTooLarge: store(40, at: main + 6, bytes: 2)
        case .lastPageHuge: store(1 << 40, at: lastPage)
        case .lastPageLargest: store(UInt64.max - 1, at: lastPage)
        case .oddPageSize: store(3_000, at: free, bytes: 4)
        case .firstPageSizeZero: store(0, at: 40, bytes: 4)
        }
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        try file.write(contentsOf: bytes)
        return newer
    }

    /// Sets the root of every copy of the record of the named database `name` (`revisions`,
    /// `chunks`, `meta`) in the main database of the log at `path` to `root`; returns how many
    /// copies changed. The record (48 bytes) follows its key in the main database's leaf.
    package static func setRecordRoot(ofDatabase name: String, ofLogAt path: String, to root: UInt64) throws -> Int {
        let url = URL(fileURLWithPath: path).appendingPathComponent("data.mdb")
        var bytes = [UInt8](try Data(contentsOf: url))
        let key = Array(name.utf8)
        var changed = 0
        for offset in 0..<(bytes.count - key.count - 48) where bytes[offset..<offset + key.count].elementsEqual(key) {
            // A node's key size, 2 bytes before its key, little-endian.
            guard offset >= 2, Int(bytes[offset - 2]) | Int(bytes[offset - 1]) << 8 == key.count else { continue }
            let record = offset + key.count
            for index in 0..<8 { bytes[record + 40 + index] = UInt8(truncatingIfNeeded: root >> (8 * UInt64(index))) }
            changed += 1
        }
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        try file.write(contentsOf: bytes)
        return changed
    }
}
