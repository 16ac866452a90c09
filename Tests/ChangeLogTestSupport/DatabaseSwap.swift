import Foundation

/// Exchanges the records of two named databases in a log's data file: the main database's
/// entries that give each named database its root, page counts and entries. Each tree stays
/// sound, and is read under the other's name: a hostile edit that a page walk cannot see.
///
/// Works on a data file whose main database is one leaf page (every log of a few databases),
/// with the root named by the newer meta page; offsets as in `mdb.c` 0.9 (``MetaPageDamage``).
package enum DatabaseSwap {
    /// What went wrong with the file.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Exchanges the records of the databases `first` and `second` in the data file at `path`,
    /// whose pages are `pageSize` bytes.
    package static func exchange(_ first: String, _ second: String, inDataFileAt path: String, pageSize: Int)
        throws
    {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func load(_ offset: Int, _ width: Int) -> Int {
            (0..<width).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        let newer = load(144, 8) < load(pageSize + 144, 8) ? 1 : 0
        let root = load(newer * pageSize + 128, 8)
        let page = root * pageSize
        // A leaf page: flags 0x02 at offset 10; node offsets from 16 up to `lower` (offset 12).
        guard page + pageSize <= bytes.count, load(page + 10, 2) & 0x02 != 0 else {
            throw Failure(description: "the main database's root, page \(root), is not a leaf")
        }
        var values: [String: Int] = [:]
        for index in 0..<(load(page + 12, 2) - 16) / 2 {
            let node = page + load(page + 16 + 2 * index, 2)
            let keySize = load(node + 6, 2)
            let key = String(decoding: bytes[node + 8..<node + 8 + keySize], as: UTF8.self)
            values[key] = node + 8 + keySize
        }
        guard let a = values[first], let b = values[second] else {
            throw Failure(description: "the main database names \(values.keys.sorted()), not \(first) and \(second)")
        }
        // A named database's record is its MDB_db: 48 bytes.
        let saved = Array(bytes[a..<a + 48])
        bytes.replaceSubrange(a..<a + 48, with: bytes[b..<b + 48])
        bytes.replaceSubrange(b..<b + 48, with: saved)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
