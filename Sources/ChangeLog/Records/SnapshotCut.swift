import ListAdapter

/// Where the writer cuts snapshots into chunks. Cuts depend on identifiers and titles, not on
/// positions, so an insertion, deletion or move changes only the chunks around it, and an
/// update only the chunk of its item (content-defined chunking). Readers do not depend on
/// these numbers: any cut decodes.
enum ChunkingPolicy {
    /// An item whose identifier's XXH3-64 has these low bits all set ends its chunk: chunks
    /// hold 4 items on average. Small chunks make a change rewrite and re-encode few items: in
    /// the 10,000-item storage test a revision costs 1.7% of the snapshot with 4 items a chunk
    /// on average, and 2.6% with 8.
    static let itemBoundaryMask: UInt64 = 0x3
    /// An item chunk holds at most this many items.
    static let maximumItemsPerChunk = 32
    /// An item chunk is cut once its items take this many bytes, so that it stays well inside
    /// an LMDB page.
    static let maximumItemChunkBytes = 1024
    /// A section whose title's XXH3-64 has these low bits all set ends its run: runs hold 16
    /// sections on average.
    static let sectionBoundaryMask: UInt64 = 0xF
    /// A section run holds at most this many sections.
    static let maximumSectionsPerRun = 64
}

/// A snapshot's item chunks, cut against a stored base: the base's chunks it reuses, and the
/// encoded content of the others, which have no identifier yet.
///
/// Cutting is the half of storing a snapshot that reads items; the other half,
/// ``ChunkPlanner``, names the new chunks and builds the section chunks from identifiers.
struct SnapshotCut: Sendable {
    /// A section as cut, parallel to the snapshot's sections.
    enum Section: Sendable {
        /// The base's section of the same title holds the same title and items, byte for
        /// byte: its section chunk and item chunks are reused as they are.
        case unchanged(StoredSection)
        /// The section's item chunks, in order, and the offset of the base's section of the
        /// same title, if there is one.
        case changed([ItemChunk], baseOffset: Int?)
    }

    /// An item chunk as cut.
    enum ItemChunk: Sendable {
        /// A chunk of the base holding the same content.
        case stored(StoredChunk)
        /// Content the base's section does not hold: the chunk's kind byte and payload.
        case new(content: [UInt8], fingerprint: Fingerprint, itemCount: Int)
    }

    /// The sections, parallel to the snapshot's.
    let sections: [Section]

    /// Cuts `snapshot`, reusing `base`'s chunks: a section whose items are unchanged keeps all
    /// of its chunks, a changed section keeps the item chunks whose content is unchanged.
    ///
    /// The result is the same as cutting every section with ``itemRuns(of:)`` and looking each
    /// chunk's fingerprint up among the base section's, but a run of the base section that
    /// starts where the next cut starts and holds the same bytes is taken as is: cuts depend
    /// only on the items from the run's start, so the cut would fall at the same place, and the
    /// content, thus the fingerprint, would be the same. Only the other runs are cut, encoded
    /// and fingerprinted.
    init(_ snapshot: LogSnapshot, against base: StoredSnapshot) {
        var sections: [Section] = []
        sections.reserveCapacity(snapshot.sections.count)
        for (offset, section) in snapshot.sections.enumerated() {
            guard let baseOffset = Self.baseOffset(of: section.title, at: offset, in: base.snapshot) else {
                sections.append(
                    .changed(Self.itemChunks(of: section.items, base: [], baseStored: nil), baseOffset: nil))
                continue
            }
            let baseSection = base.snapshot.sections[baseOffset]
            let shared = SharedItems(section.items, baseSection.items)
            // The section chunk holds the title and the summary: reused only for the same bytes
            // (which the snapshots' identity already implies for titles, comparing code point by
            // code point).
            if shared.prefix == section.items.count, shared.prefix == baseSection.items.count,
                literallyEqualStrings(section.title, baseSection.title),
                literallyEqual(section.summary, baseSection.summary)
            {
                sections.append(.unchanged(base.sections[baseOffset]))
                continue
            }
            let baseItems = baseSection.items
            let chunks = Self.itemChunks(
                of: section.items, base: baseItems, baseStored: base.sections[baseOffset], shared: shared)
            sections.append(.changed(chunks, baseOffset: baseOffset))
        }
        self.sections = sections
    }

    /// The offset of the base's section titled `title` (titles compare by their Unicode scalars,
    /// as section identity does): usually the same offset, whose title is then
    /// recognised by its bits, without hashing it.
    private static func baseOffset(of title: String, at offset: Int, in base: LogSnapshot) -> Int? {
        if offset < base.sections.count, literallyEqualStrings(base.sections[offset].title, title) {
            return offset
        }
        return base.sectionOffset(titled: title)
    }

    /// How many items a section shares with the base's section of the same title, by their
    /// bits (so byte for byte): at its start, and at its end after those.
    struct SharedItems {
        /// The items at the same offsets from the start.
        var prefix = 0
        /// The items at the same offsets from the end, outside the prefix.
        var suffix = 0

        init() {}

        init(_ items: [LogSnapshot.Item], _ baseItems: [LogSnapshot.Item]) {
            items.withUnsafeBufferPointer { items in
                baseItems.withUnsafeBufferPointer { baseItems in
                    let shorter = min(items.count, baseItems.count)
                    guard shorter > 0, let new = items.baseAddress, let old = baseItems.baseAddress else { return }
                    if new == old {
                        prefix = shorter
                        return
                    }
                    while prefix < shorter, identicalBits(new + prefix, old + prefix) {
                        prefix += 1
                    }
                    let newLast = new + (items.count - 1)
                    let oldLast = old + (baseItems.count - 1)
                    while suffix < shorter - prefix, identicalBits(newLast - suffix, oldLast - suffix) {
                        suffix += 1
                    }
                }
            }
        }
    }

    /// The item chunks of a section that is new or whose items changed, reusing the base
    /// section's (see ``init(_:against:)``).
    ///
    /// The base chunks inside the items `shared` at the start are taken without looking at
    /// their items again, and so are the base chunks from the first one that starts where a cut
    /// starts inside the items shared at the end. Between the two, each cut is compared with the
    /// base chunk starting with the same item, if any.
    private static func itemChunks(
        of sectionItems: [LogSnapshot.Item], base baseItems: [LogSnapshot.Item], baseStored: StoredSection?,
        shared: SharedItems = SharedItems()
    ) -> [ItemChunk] {
        let baseChunks = baseStored?.itemChunks ?? []
        // Where each base item chunk starts in `baseItems`; empty when the counts are unknown.
        var baseStarts: [Int] = []
        if !baseChunks.isEmpty, baseChunks.allSatisfy({ $0.itemCount > 0 }) {
            baseStarts.reserveCapacity(baseChunks.count + 1)
            var offset = 0
            for chunk in baseChunks {
                baseStarts.append(offset)
                offset += chunk.itemCount
            }
            if offset != baseItems.count {
                baseStarts = []
            }
        }
        var chunks: [ItemChunk] = []
        chunks.reserveCapacity(baseChunks.count + 2)
        var byFingerprint = FingerprintIndex()
        sectionItems.withUnsafeBufferPointer { items in
            baseItems.withUnsafeBufferPointer { baseItems in
                var start = 0
                var nextBase = 0
                if !baseStarts.isEmpty {
                    while nextBase < baseChunks.count {
                        let end = baseStarts[nextBase] + baseChunks[nextBase].itemCount
                        guard end <= shared.prefix,
                            mayReuse(nextBase, of: baseChunks.count, endingAt: end, sectionEnd: items.count)
                        else { break }
                        chunks.append(.stored(baseChunks[nextBase]))
                        start = end
                        nextBase += 1
                    }
                }
                let sharedEnd = items.count - shared.suffix
                let shift = items.count - baseItems.count
                while start < items.count {
                    if !baseStarts.isEmpty, start >= sharedEnd {
                        // Inside the shared end, a base chunk starting at the same distance from
                        // the end starts a run of chunks that are all the same.
                        while nextBase < baseChunks.count, baseStarts[nextBase] < start - shift {
                            nextBase += 1
                        }
                        if nextBase < baseChunks.count, baseStarts[nextBase] == start - shift {
                            for index in nextBase..<baseChunks.count {
                                chunks.append(.stored(baseChunks[index]))
                            }
                            break
                        }
                    }
                    if let reused = reusableChunk(
                        at: start, of: items, base: baseItems, baseStarts: baseStarts, baseChunks: baseChunks,
                        from: &nextBase)
                    {
                        chunks.append(.stored(reused))
                        start += reused.itemCount
                        continue
                    }
                    let (end, itemBytes) = run(in: items, from: start)
                    // Room for the header, longer length prefixes, and the checksum sealing adds:
                    // the content lives until the writer stores it.
                    var writer = RecordWriter(capacity: itemBytes + 4 * (end - start) + 24)
                    Chunk.writeItems(items, in: start..<end, to: &writer)
                    let content = writer.takeBytes()
                    let fingerprint = ContentHash.fingerprint(content)
                    if let match = baseChunk(
                        holding: start..<end, of: items, fingerprint: fingerprint, base: baseItems,
                        baseStarts: baseStarts, baseChunks: baseChunks, index: &byFingerprint)
                    {
                        chunks.append(
                            .stored(StoredChunk(id: match.id, fingerprint: fingerprint, itemCount: end - start)))
                    } else {
                        chunks.append(.new(content: content, fingerprint: fingerprint, itemCount: end - start))
                    }
                    start = end
                }
            }
        }
        return chunks
    }

    /// Whether base chunk `index` of `count`, taken where it would end at `end`, may be reused: a
    /// base section's last chunk may have ended with the section rather than at a cut, so it is
    /// reused only where the new section ends at the same place (`sectionEnd`).
    @inline(__always)
    private static func mayReuse(_ index: Int, of count: Int, endingAt end: Int, sectionEnd: Int) -> Bool {
        index < count - 1 || end == sectionEnd
    }

    /// The base item chunk that the run starting at `start` would reproduce, if one of the next
    /// few base chunks (from `nextBase`) starts with the same item and holds the same bytes
    /// (and ``mayReuse(_:of:endingAt:sectionEnd:)``); `nextBase` moves past it.
    private static func reusableChunk(
        at start: Int, of items: UnsafeBufferPointer<LogSnapshot.Item>,
        base: UnsafeBufferPointer<LogSnapshot.Item>, baseStarts: [Int], baseChunks: [StoredChunk],
        from nextBase: inout Int
    ) -> StoredChunk? {
        guard !baseStarts.isEmpty else { return nil }
        let first = items[start].id
        var candidate = nextBase
        while candidate < min(nextBase + 4, baseChunks.count) {
            defer { candidate += 1 }
            let baseStart = baseStarts[candidate]
            guard literallyEqualStrings(base[baseStart].id, first) else { continue }
            let count = baseChunks[candidate].itemCount
            guard start + count <= items.count else { return nil }
            guard mayReuse(candidate, of: baseChunks.count, endingAt: start + count, sectionEnd: items.count) else {
                return nil
            }
            guard sameItems(items, from: start, as: base, from: baseStart, count: count) else { return nil }
            nextBase = candidate + 1
            return baseChunks[candidate]
        }
        return nil
    }

    /// The base chunk whose content is `items[range]`: one with the same fingerprint whose items
    /// are the same byte for byte. The fingerprint only finds the candidates: XXH3 is not
    /// collision resistant (with its public default secret, text that differs in two bytes can
    /// be made to share a fingerprint), and reusing a colliding chunk would store the base's
    /// items instead of the appended ones. Where the base chunks' positions are unknown
    /// (`baseStarts` empty, which only tests build), the fingerprint is taken as is. `index`
    /// finds the candidates.
    private static func baseChunk(
        holding range: Range<Int>, of items: UnsafeBufferPointer<LogSnapshot.Item>, fingerprint: Fingerprint,
        base: UnsafeBufferPointer<LogSnapshot.Item>, baseStarts: [Int], baseChunks: [StoredChunk],
        index byFingerprint: inout FingerprintIndex
    ) -> StoredChunk? {
        byFingerprint.lastMatch(of: fingerprint, in: baseChunks) { index in
            guard !baseStarts.isEmpty else { return baseChunks[index] }
            guard baseChunks[index].itemCount == range.count,
                sameItems(items, from: range.lowerBound, as: base, from: baseStarts[index], count: range.count)
            else { return nil }
            return baseChunks[index]
        }
    }

    /// Whether the `count` items of `items` from `start` are those of `base` from `baseStart`,
    /// byte for byte.
    @inline(__always)
    private static func sameItems(
        _ items: UnsafeBufferPointer<LogSnapshot.Item>, from start: Int, as base: UnsafeBufferPointer<LogSnapshot.Item>,
        from baseStart: Int, count: Int
    ) -> Bool {
        (0..<count).allSatisfy { sameBytes(base, baseStart + $0, items, start + $0) }
    }

    /// Whether `lhs[left]` and `rhs[right]` are the same byte for byte (items compare their
    /// strings code point by code point): items whose bits are the same (strings shared with the
    /// previous snapshot) are compared without copying them, which would retain and release
    /// their strings.
    @inline(__always)
    static func sameBytes(
        _ lhs: UnsafeBufferPointer<LogSnapshot.Item>, _ left: Int, _ rhs: UnsafeBufferPointer<LogSnapshot.Item>,
        _ right: Int
    ) -> Bool {
        identicalBits(lhs.baseAddress! + left, rhs.baseAddress! + right) || lhs[left] == rhs[right]
    }

    /// The end of the item chunk that starts at `start` (``ChunkingPolicy``).
    static func runEnd(in items: UnsafeBufferPointer<LogSnapshot.Item>, from start: Int) -> Int {
        run(in: items, from: start).end
    }

    /// The end of the item chunk that starts at `start`, and the bytes of its items' strings
    /// plus one per string.
    private static func run(in items: UnsafeBufferPointer<LogSnapshot.Item>, from start: Int) -> (end: Int, bytes: Int)
    {
        var bytes = 0
        var offset = start
        while offset < items.count {
            bytes += items[offset].id.utf8.count + (items[offset].summary?.utf8.count ?? 0) + 2
            let isBoundary =
                ContentHash.boundaryHash(items[offset].id) & ChunkingPolicy.itemBoundaryMask
                == ChunkingPolicy.itemBoundaryMask
            offset += 1
            if isBoundary || offset - start >= ChunkingPolicy.maximumItemsPerChunk
                || bytes >= ChunkingPolicy.maximumItemChunkBytes
            {
                return (offset, bytes)
            }
        }
        return (offset, bytes)
    }

    /// The ranges of `items` that form item chunks (``ChunkingPolicy``).
    static func itemRuns(of items: [LogSnapshot.Item]) -> [Range<Int>] {
        items.withUnsafeBufferPointer { items in
            var runs: [Range<Int>] = []
            var start = 0
            while start < items.count {
                let end = runEnd(in: items, from: start)
                runs.append(start..<end)
                start = end
            }
            return runs
        }
    }

    /// The ranges of `sections` that form section runs (``ChunkingPolicy``).
    static func sectionRuns(of sections: [LogSnapshot.Section]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        for (offset, section) in sections.enumerated() {
            let isBoundary =
                ContentHash.boundaryHash(section.title) & ChunkingPolicy.sectionBoundaryMask
                == ChunkingPolicy.sectionBoundaryMask
            if isBoundary || offset + 1 - start >= ChunkingPolicy.maximumSectionsPerRun {
                runs.append(start..<(offset + 1))
                start = offset + 1
            }
        }
        if start < sections.count {
            runs.append(start..<sections.count)
        }
        return runs
    }
}
