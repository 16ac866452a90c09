import ListAdapter

/// A stored chunk as the writer remembers it: its identifier and the fingerprint of its content.
struct StoredChunk: Hashable, Sendable {
    var id: UInt64
    var fingerprint: Fingerprint
}

/// A stored section: its section chunk and its item chunks, in order.
struct StoredSection: Hashable, Sendable {
    var chunk: StoredChunk
    var itemChunks: [StoredChunk]
}

/// A snapshot together with the chunks that store it, so that the next revision can reuse every
/// chunk whose content did not change.
struct StoredSnapshot: Sendable {
    /// The snapshot.
    var snapshot: LogSnapshot
    /// The chunks of each section, parallel to `snapshot.sections`.
    var sections: [StoredSection]
    /// The section-run chunks, in order.
    var runs: [StoredChunk]

    /// The empty snapshot, stored as no chunk at all.
    static let empty = StoredSnapshot(snapshot: LogSnapshot(), sections: [], runs: [])
}

/// The latest revision as the writer last stored or read it.
struct LatestRevision: Sendable {
    /// The revision number.
    var revision: UInt64
    /// The checksum its record ends with: if the stored record's differs, the cache is stale.
    var checksum: UInt64
    /// Its snapshot and chunks.
    var stored: StoredSnapshot
}

/// Where the writer cuts snapshots into chunks. Cuts depend on identifiers and titles, not on
/// positions, so an insertion, deletion or move changes only the chunks around it, and an
/// update only the chunk of its item (content-defined chunking). Readers do not depend on
/// these numbers: any cut decodes.
enum ChunkingPolicy {
    /// An item whose identifier's XXH3-64 has these low bits all set ends its chunk: chunks
    /// hold 8 items on average.
    static let itemBoundaryMask: UInt64 = 0x7
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

/// Cuts a snapshot into chunks, reusing the chunks of a base snapshot wherever the content is
/// the same, and collects the chunks that must be written.
struct ChunkPlanner {
    /// The identifier the next new chunk gets.
    private(set) var nextID: UInt64
    /// The new chunks, sealed, in ascending identifier order.
    private(set) var newChunks: [(id: UInt64, value: [UInt8])] = []

    init(nextID: UInt64) {
        self.nextID = nextID
    }

    /// The total size of the new chunks' values.
    var newBytes: Int { newChunks.reduce(0) { $0 + $1.value.count } }

    private mutating func chunk(for content: [UInt8], known: [Fingerprint: UInt64]) -> StoredChunk {
        let fingerprint = ContentHash.fingerprint(content)
        if let id = known[fingerprint] {
            return StoredChunk(id: id, fingerprint: fingerprint)
        }
        let id = nextID
        nextID += 1
        newChunks.append((id, Chunk.sealed(content, id: id)))
        return StoredChunk(id: id, fingerprint: fingerprint)
    }

    /// Stores `snapshot`, reusing `base`'s chunks: a section whose items are unchanged keeps all
    /// of its chunks, a changed section keeps the item chunks whose content is unchanged, and
    /// section runs are reused by content.
    mutating func store(_ snapshot: LogSnapshot, reusing base: StoredSnapshot) -> StoredSnapshot {
        var sections: [StoredSection] = []
        sections.reserveCapacity(snapshot.sections.count)
        for section in snapshot.sections {
            let baseOffset = base.snapshot.sectionOffset(titled: section.title)
            if let baseOffset, Self.sameBytes(base.snapshot.sections[baseOffset].items, section.items) {
                sections.append(base.sections[baseOffset])
                continue
            }
            var knownItemChunks: [Fingerprint: UInt64] = [:]
            if let baseOffset {
                for chunk in base.sections[baseOffset].itemChunks {
                    knownItemChunks[chunk.fingerprint] = chunk.id
                }
            }
            var itemChunks: [StoredChunk] = []
            for run in Self.itemRuns(of: section.items) {
                itemChunks.append(chunk(for: Chunk.items(Array(section.items[run])).content, known: knownItemChunks))
            }
            let content = Chunk.section(
                title: section.title, itemCount: section.items.count, itemChunks: itemChunks.map(\.id)
            ).content
            var knownSection: [Fingerprint: UInt64] = [:]
            if let baseOffset {
                let baseChunk = base.sections[baseOffset].chunk
                knownSection[baseChunk.fingerprint] = baseChunk.id
            }
            sections.append(StoredSection(chunk: chunk(for: content, known: knownSection), itemChunks: itemChunks))
        }
        var knownRuns: [Fingerprint: UInt64] = [:]
        for run in base.runs {
            knownRuns[run.fingerprint] = run.id
        }
        var runs: [StoredChunk] = []
        for run in Self.sectionRuns(of: snapshot.sections) {
            runs.append(chunk(for: Chunk.sections(sections[run].map(\.chunk.id)).content, known: knownRuns))
        }
        return StoredSnapshot(snapshot: snapshot, sections: sections, runs: runs)
    }

    /// Whether two item lists are the same byte for byte. Swift's `==` on strings treats
    /// canonically equivalent strings (a precomposed "é" and "e" + U+0301) as equal; reusing a
    /// chunk on that basis would store the old bytes for the new snapshot.
    static func sameBytes(_ lhs: [LogSnapshot.Item], _ rhs: [LogSnapshot.Item]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (left, right) in zip(lhs, rhs) {
            guard left.id.utf8.elementsEqual(right.id.utf8) else { return false }
            switch (left.summary, right.summary) {
            case (nil, nil): continue
            case (let left?, let right?): guard left.utf8.elementsEqual(right.utf8) else { return false }
            default: return false
            }
        }
        return true
    }

    /// The ranges of `items` that form item chunks (``ChunkingPolicy``).
    static func itemRuns(of items: [LogSnapshot.Item]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        var bytes = 0
        for (offset, item) in items.enumerated() {
            bytes += item.id.utf8.count + (item.summary?.utf8.count ?? 0) + 2
            let isBoundary =
                ContentHash.boundaryHash(item.id) & ChunkingPolicy.itemBoundaryMask
                == ChunkingPolicy.itemBoundaryMask
            if isBoundary || offset + 1 - start >= ChunkingPolicy.maximumItemsPerChunk
                || bytes >= ChunkingPolicy.maximumItemChunkBytes
            {
                runs.append(start..<(offset + 1))
                start = offset + 1
                bytes = 0
            }
        }
        if start < items.count {
            runs.append(start..<items.count)
        }
        return runs
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

/// The size of a snapshot's plain binary encoding, without any chunking: the section count,
/// then for each section its title, item count and items, with RECORD-FORMAT.md's primitives.
/// This is the yardstick for the storage a revision costs.
package func plainEncodedSize(of snapshot: LogSnapshot) -> Int {
    var writer = RecordWriter(capacity: 1 << 16)
    writer.writeCount(snapshot.sections.count)
    for section in snapshot.sections {
        writer.writeString(section.title)
        writer.writeCount(section.items.count)
        for item in section.items {
            writer.writeItem(item)
        }
    }
    return writer.bytes.count
}
