import Foundation
import ListAdapter

/// Decodes the usual import line straight from its bytes, in one pass, without `JSONDecoder`:
/// what makes `replay import` run at the speed of the log rather than of Foundation's decoder
/// (which, with the checks ``CheckedJSON`` adds, took about 85% of an import's time).
///
/// The parser is a fast path, not a second authority. It returns a snapshot only for a line
/// it reads entirely and exactly as ``CheckedJSON`` reads it (``ImportLine``'s schema, UTF-8,
/// JSON's grammar throughout, no key of the schema named twice, unique titles and ids), and
/// declines (`nil`) everything else: a line that is wrong in any way (a line with both
/// `sections` and `snapshot` among them, as soon as it reads the second), and a few that are
/// fine but rare (a read string or key with an escape, a `null` summary, a number with a
/// fraction or an exponent, nesting deeper than ``depthLimit``, a byte order mark). A declined
/// line goes the checked way, which decodes it or names its fault, so both paths give the same
/// snapshot or the same error for every line (`ImportLineParserTests` holds them to that).
///
/// Given the line before's snapshot, the parser shares its strings: an item whose id and
/// summary have the same bytes as the item at the corresponding place of the line before gets
/// that item's strings, not copies. Consecutive lines differ in few items, so most strings are
/// not allocated again, and the log's writer, which compares a snapshot with the one before,
/// recognises the unchanged items by their bits instead of their bytes.
enum ImportLineParser {
    /// The deepest nesting of arrays and objects the parser reads; a deeper line is declined.
    static let depthLimit = 64

    /// The snapshot and metadata of `line`, or `nil` when the parser declines the line.
    ///
    /// - Parameter previous: the snapshot of the line before, whose strings the result shares
    ///   where they hold the same bytes; it changes nothing else.
    /// - Complexity: O(*n*) for *n* bytes.
    static func parse(_ line: UnsafeBufferPointer<UInt8>, previous: ListSnapshot<String, String>? = nil)
        -> AnnotatedSnapshot<String, String>?
    {
        var reader = ImportLineReader(line, previous: previous)
        guard let annotated = try? reader.line(),
            !reader.sawNonASCII || String(validating: line, as: UTF8.self) != nil
        else { return nil }
        return annotated
    }
}

/// Why the parser stopped: the line is left to ``CheckedJSON``.
struct Declined: Error {}

/// The parser's cursor over one line, with a method per part of ``ImportLine``'s schema.
struct ImportLineReader {
    typealias Snapshot = ListSnapshot<String, String>

    let bytes: UnsafeBufferPointer<UInt8>
    /// The line before's snapshot, whose strings are shared (``ImportLineParser``).
    let previous: Snapshot?
    var position = 0
    /// Whether a string held a byte past ASCII: the line's UTF-8 is then checked as a whole
    /// (UTF-8 never puts an ASCII byte inside a character, so a valid line has valid strings).
    var sawNonASCII = false

    init(_ bytes: UnsafeBufferPointer<UInt8>, previous: Snapshot?) {
        self.bytes = bytes
        self.previous = previous
    }

    // MARK: The schema

    /// A snapshot line (`sections`, `meta`) or a revision line (`snapshot`, `meta`), and
    /// nothing but whitespace after it.
    mutating func line() throws(Declined) -> AnnotatedSnapshot<String, String> {
        var sections: [Snapshot.Section]?
        var meta: [String: String]?
        var snapshot: [Snapshot.Section]?
        try object(depth: 1) { (reader, key) throws(Declined) in
            // `sections` and `snapshot` together: ``CheckedJSON`` refuses the line.
            if reader.matches(key, "sections") {
                guard sections == nil, snapshot == nil else { throw Declined() }
                sections = try reader.sections(depth: 2)
            } else if reader.matches(key, "meta") {
                guard meta == nil else { throw Declined() }
                meta = try reader.meta(depth: 2)
            } else if reader.matches(key, "snapshot") {
                guard snapshot == nil, sections == nil else { throw Declined() }
                snapshot = try reader.snapshot(depth: 2)
            } else {
                try reader.skipValue(depth: 2)
            }
        }
        skipWhitespace()
        guard position == bytes.count, let chosen = sections ?? snapshot,
            let built = try? Snapshot(sections: chosen)
        else { throw Declined() }
        return AnnotatedSnapshot(meta: meta ?? [:], snapshot: built)
    }

    /// A revision line's `snapshot`: its `sections`; its other keys are ignored.
    private mutating func snapshot(depth: Int) throws(Declined) -> [Snapshot.Section] {
        var sections: [Snapshot.Section]?
        try object(depth: depth) { (reader, key) throws(Declined) in
            if reader.matches(key, "sections") {
                guard sections == nil else { throw Declined() }
                sections = try reader.sections(depth: depth + 1)
            } else {
                try reader.skipValue(depth: depth + 1)
            }
        }
        guard let sections else { throw Declined() }
        return sections
    }

    /// `meta`: an object of strings.
    private mutating func meta(depth: Int) throws(Declined) -> [String: String] {
        var meta: [String: String] = [:]
        try object(depth: depth) { (reader, key) throws(Declined) in
            let name = reader.text(key)
            guard meta.updateValue(try reader.string(), forKey: name) == nil else { throw Declined() }
        }
        return meta
    }

    /// `sections`: an array of `{"title": …, "items": […]}`.
    private mutating func sections(depth: Int) throws(Declined) -> [Snapshot.Section] {
        var sections: [Snapshot.Section] = []
        try array(depth: depth) { (reader) throws(Declined) in
            var title: String?
            var items: [Snapshot.Item]?
            // The line before's section of the same title, when the title comes first.
            var base: Snapshot.Section?
            try reader.object(depth: depth + 1) { (reader, key) throws(Declined) in
                if reader.matches(key, "title") {
                    guard title == nil else { throw Declined() }
                    (title, base) = try reader.title(at: sections.count)
                } else if reader.matches(key, "items") {
                    guard items == nil else { throw Declined() }
                    items = try reader.items(depth: depth + 2, base: base?.items ?? [])
                } else {
                    try reader.skipValue(depth: depth + 2)
                }
            }
            guard let title, let items else { throw Declined() }
            sections.append(Snapshot.Section(title: title, items: items))
        }
        return sections
    }

    /// A section's title at `offset`, and the line before's section of that title: the title
    /// is that section's string when it has the same bytes.
    private mutating func title(at offset: Int) throws(Declined) -> (String, Snapshot.Section?) {
        let range = try plainString()
        guard let previous else { return (text(range), nil) }
        if offset < previous.sections.count, holds(range, previous.sections[offset].title) {
            return (previous.sections[offset].title, previous.sections[offset])
        }
        let title = text(range)
        return (title, previous.sectionOffset(titled: title).map { previous.sections[$0] })
    }

    /// `items`: an array of `{"id": …, "summary": …}`, `summary` optional, sharing the strings
    /// of `base` (the line before's items of the section) that hold the same bytes.
    ///
    /// Items are matched in order: the next base item not matched yet, or one of the two after
    /// it (the items between were deleted or moved away). An item matching none of them (one
    /// inserted or moved here) gets strings of its own and leaves the next base item in place.
    private mutating func items(depth: Int, base: [Snapshot.Item]) throws(Declined) -> [Snapshot.Item] {
        try base.withUnsafeBufferPointer { (base) throws(Declined) in try items(depth: depth, base: base) }
    }

    private mutating func items(depth: Int, base: UnsafeBufferPointer<Snapshot.Item>) throws(Declined)
        -> [Snapshot.Item]
    {
        var items: [Snapshot.Item] = []
        items.reserveCapacity(base.count)
        var nextBase = 0
        try array(depth: depth) { (reader) throws(Declined) in
            var (id, summary) = reader.compactItem()
            if id == nil {
                try reader.object(depth: depth + 1) { (reader, key) throws(Declined) in
                    if reader.matches(key, "id") {
                        guard id == nil else { throw Declined() }
                        id = try reader.plainString()
                    } else if reader.matches(key, "summary") {
                        guard summary == nil else { throw Declined() }
                        summary = try reader.plainString()
                    } else {
                        try reader.skipValue(depth: depth + 2)
                    }
                }
            }
            guard let id else { throw Declined() }
            var candidate = nextBase
            while candidate < min(nextBase + 3, base.count), !reader.holds(id, base[candidate].id) {
                candidate += 1
            }
            guard candidate < min(nextBase + 3, base.count) else {
                items.append(Snapshot.Item(id: reader.text(id), summary: summary.map(reader.text)))
                return
            }
            nextBase = candidate + 1
            switch (summary, base[candidate].summary) {
            case (nil, nil):
                items.append(base[candidate])
            case (let range?, let shared?) where reader.holds(range, shared):
                items.append(base[candidate])
            case (let range, _):
                items.append(Snapshot.Item(id: base[candidate].id, summary: range.map(reader.text)))
            }
        }
        return items
    }

    /// Whether `string`'s UTF-8 is the bytes in `range`.
    @inline(__always)
    private func holds(_ range: Range<Int>, _ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.count == range.count else { return false }
            guard let stored = utf8.baseAddress, let read = bytes.baseAddress else { return true }
            return Self.sameBytes(stored, read + range.lowerBound, count: range.count)
        } ?? false
    }

    /// Whether the `count` bytes at `lhs` and `rhs` are the same: words compared in place, for
    /// the short strings and keys of a line, where a call to `memcmp` costs more than the bytes.
    @inline(__always)
    static func sameBytes(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count >= 8 else {
            for offset in 0..<count where lhs[offset] != rhs[offset] { return false }
            return true
        }
        let left = UnsafeRawPointer(lhs)
        let right = UnsafeRawPointer(rhs)
        var offset = 0
        while offset + 8 < count {
            guard
                left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        // The last word, which may overlap the one before.
        return left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }
}
