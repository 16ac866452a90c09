import Foundation
import ListAdapter

/// A seeded generator of damaged copies of a log's data file, as a faulty disk, a partial copy
/// or a hostile sender would leave it: the damage suite reads each copy with every reading
/// command, which must exit with an answer or an error, never a signal or a hang.
///
/// Copy `n` of seed `s` is always the same bytes: the damage of a failing copy is named by its
/// seed and index alone.
package struct DamagedCopies {
    /// The kinds of damage, taken in turn by copy index.
    package enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        /// 1 to 64 bits flipped anywhere in the file, the meta pages included.
        case bitFlips
        /// The file cut at a random length, from nothing to one byte short.
        case truncation
        /// Two pages' places exchanged.
        case swappedPages
        /// One page replaced by random bytes.
        case randomPage
        /// A figure of the newer meta page set to an impossible or random value
        /// (``MetaPageDamage``, or a random root, depth, last page or transaction ID).
        case metaPageEdit

        package var description: String { rawValue }
    }

    /// One damaged copy: what was done, and the bytes.
    package struct Copy: Sendable, CustomStringConvertible {
        /// Its index in the sequence.
        package var index: Int
        /// The kind of damage.
        package var kind: Kind
        /// What was done, in words, for reports.
        package var damage: String
        /// The damaged file's bytes.
        package var bytes: [UInt8]

        package var description: String { "copy \(index) (\(kind): \(damage))" }
    }

    /// The undamaged data file.
    package let original: [UInt8]
    /// The page size of the file.
    package let pageSize: Int
    /// The seed of the sequence.
    package let seed: UInt64

    /// A generator of damaged copies of `original`, whose pages are `pageSize` bytes.
    package init(of original: [UInt8], pageSize: Int = Int(getpagesize()), seed: UInt64) {
        self.original = original
        self.pageSize = pageSize
        self.seed = seed
    }

    /// Copy `index` of the sequence: its kind is `Kind.allCases[index % 5]`, its damage drawn
    /// from a generator seeded with the sequence's seed and the index.
    package func copy(_ index: Int) -> Copy {
        var random = SplitMix64(seed: seed &* 1_000_003 &+ UInt64(index))
        let kind = Kind.allCases[index % Kind.allCases.count]
        var bytes = original
        let pages = bytes.count / pageSize
        let damage: String
        switch kind {
        case .bitFlips:
            let count = Int.random(in: 1...64, using: &random)
            for _ in 0..<count {
                let offset = Int.random(in: 0..<bytes.count, using: &random)
                bytes[offset] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            }
            damage = "\(count) bits flipped"
        case .truncation:
            let length = Int.random(in: 0..<bytes.count, using: &random)
            bytes.removeSubrange(length...)
            damage = "cut to \(length) bytes"
        case .swappedPages:
            let first = Int.random(in: 0..<pages, using: &random)
            var second = Int.random(in: 0..<pages, using: &random)
            if second == first { second = (first + 1) % pages }
            let a = first * pageSize
            let b = second * pageSize
            let saved = Array(bytes[a..<a + pageSize])
            bytes.replaceSubrange(a..<a + pageSize, with: bytes[b..<b + pageSize])
            bytes.replaceSubrange(b..<b + pageSize, with: saved)
            damage = "pages \(first) and \(second) swapped"
        case .randomPage:
            let page = Int.random(in: 0..<pages, using: &random)
            for offset in page * pageSize..<(page + 1) * pageSize {
                bytes[offset] = UInt8.random(in: 0...255, using: &random)
            }
            damage = "page \(page) random"
        case .metaPageEdit:
            damage = Self.editMetaPage(&bytes, pageSize: pageSize, using: &random)
        }
        return Copy(index: index, kind: kind, damage: damage, bytes: bytes)
    }

    /// Sets one figure of the newer meta page of `bytes` (offsets as in ``MetaPageDamage``): a
    /// root, depth, last page, transaction ID or page size, to 0, 1, a value near the file's
    /// pages, or random bits.
    private static func editMetaPage(_ bytes: inout [UInt8], pageSize: Int, using random: inout SplitMix64) -> String {
        func load(_ offset: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
        }
        let newer = load(144) < load(pageSize + 144) ? 1 : 0
        let page = newer * pageSize
        let fields: [(name: String, offset: Int, width: Int)] = [
            ("free root", 80, 8), ("main root", 128, 8), ("free depth", 46, 2), ("main depth", 94, 2),
            ("last page", 136, 8), ("transaction ID", 144, 8), ("page size", 40, 4), ("main entries", 120, 8),
        ]
        let field = fields.randomElement(using: &random)!
        let pages = UInt64(bytes.count / pageSize)
        let value: UInt64 = [0, 1, pages - 1, pages, pages + 1, random.next()].randomElement(using: &random)!
        for index in 0..<field.width {
            bytes[page + field.offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))
        }
        return "meta page \(newer) \(field.name) set to \(value)"
    }
}
