import ListAdapter

/// Stores snapshots as chunks inside one write transaction: gives the new chunks of a
/// ``SnapshotCut`` their identifiers, builds the section and section-run chunks, and collects
/// the chunks that must be written.
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

    /// Stores `snapshot` as the revision after `base`, reusing `base`'s chunks wherever the
    /// content is the same (``SnapshotCut/init(_:against:)``).
    mutating func store(_ snapshot: LogSnapshot, reusing base: StoredSnapshot) -> StoredSnapshot {
        // The cut's chunks are `base`'s own: nothing to look up.
        store(snapshot, cut: SnapshotCut(snapshot, against: base), after: base, resolving: false)!
    }

    /// Stores `snapshot`, cut by `cut` against another account of `predecessor`'s snapshot, as
    /// the revision after `predecessor`; `nil`, with nothing stored, when the cut does not fit.
    ///
    /// The cut may have been made against a layout in which `predecessor`'s snapshot was cut
    /// but not stored yet (``SnapshotCut/layout(of:)``), so the chunks it reuses are taken by
    /// fingerprint among `predecessor`'s chunks of the same section: every identifier stored
    /// comes from `predecessor` or is new. The cut does not fit when one of them is not there
    /// (`predecessor` was stored with other cuts, by an older version say). A new chunk whose
    /// content one of `predecessor`'s already holds reuses it.
    ///
    /// - Precondition: `cut` was made against `predecessor`'s snapshot (``SnapshotCut/base``).
    mutating func store(_ snapshot: LogSnapshot, cut: SnapshotCut, after predecessor: StoredSnapshot)
        -> StoredSnapshot?
    {
        let (savedID, savedCount) = (nextID, newChunks.count)
        guard let stored = store(snapshot, cut: cut, after: predecessor, resolving: true) else {
            nextID = savedID
            newChunks.removeLast(newChunks.count - savedCount)
            return nil
        }
        return stored
    }

    /// Stores `snapshot` as cut by `cut`; with `resolving`, the chunks the cut reuses are looked
    /// up in `predecessor` by fingerprint. `nil` when one is not there.
    private mutating func store(
        _ snapshot: LogSnapshot, cut: SnapshotCut, after predecessor: StoredSnapshot, resolving: Bool
    ) -> StoredSnapshot? {
        precondition(cut.sections.count == snapshot.sections.count, "a cut of another snapshot")
        var sections: [StoredSection] = []
        sections.reserveCapacity(snapshot.sections.count)
        for (section, cutSection) in zip(snapshot.sections, cut.sections) {
            let previous = predecessor.snapshot.sectionOffset(titled: section.title).map { predecessor.sections[$0] }
            switch cutSection {
            case .unchanged(let stored):
                guard resolving else {
                    sections.append(stored)
                    continue
                }
                // The same items as the predecessor's section of this title: its chunks.
                guard let previous else { return nil }
                sections.append(previous)
            case .changed(let cutChunks):
                let known = previous?.itemChunks ?? []
                var itemChunks: [StoredChunk] = []
                itemChunks.reserveCapacity(cutChunks.count)
                var ids: [UInt64] = []
                ids.reserveCapacity(cutChunks.count)
                var cursor = 0
                for cutChunk in cutChunks {
                    var stored: StoredChunk
                    switch cutChunk {
                    case .stored(let chunk):
                        if resolving {
                            guard let found = Self.find(chunk.fingerprint, in: known, from: &cursor) else { return nil }
                            stored = StoredChunk(id: found.id, fingerprint: chunk.fingerprint, itemCount: chunk.itemCount)
                        } else {
                            stored = chunk
                        }
                    case .new(let content, let fingerprint, let itemCount):
                        // A cut against the predecessor itself already looked the content up there.
                        stored = chunk(for: content, fingerprint: fingerprint, known: resolving ? known : [])
                        stored.itemCount = itemCount
                    }
                    itemChunks.append(stored)
                    ids.append(stored.id)
                }
                let content = Chunk.section(title: section.title, itemCount: section.items.count, itemChunks: ids)
                    .content
                let knownSection = previous.map { [$0.chunk] } ?? []
                sections.append(
                    StoredSection(
                        chunk: chunk(for: content, fingerprint: ContentHash.fingerprint(content), known: knownSection),
                        itemChunks: itemChunks))
            }
        }
        var runs: [StoredChunk] = []
        for run in SnapshotCut.sectionRuns(of: snapshot.sections) {
            let content = Chunk.sections(sections[run].map(\.chunk.id)).content
            runs.append(chunk(for: content, fingerprint: ContentHash.fingerprint(content), known: predecessor.runs))
        }
        return StoredSnapshot(snapshot: snapshot, sections: sections, runs: runs)
    }

    /// The chunk of `chunks` with `fingerprint`, looked for from `cursor` on first (reused
    /// chunks come in order), then everywhere; `cursor` moves past it.
    private static func find(_ fingerprint: Fingerprint, in chunks: [StoredChunk], from cursor: inout Int)
        -> StoredChunk?
    {
        for offset in chunks.indices {
            let index = (cursor + offset) % chunks.count
            if chunks[index].fingerprint == fingerprint {
                cursor = index + 1
                return chunks[index]
            }
        }
        return nil
    }

    /// The chunk holding `content`: one of `known` (a handful) with the same fingerprint,
    /// otherwise a new one.
    private mutating func chunk(
        for content: consuming [UInt8], fingerprint: Fingerprint, known: some BidirectionalCollection<StoredChunk>
    ) -> StoredChunk {
        if let match = known.last(where: { $0.fingerprint == fingerprint }) {
            return StoredChunk(id: match.id, fingerprint: fingerprint)
        }
        let id = nextID
        nextID += 1
        newChunks.append((id, Chunk.sealed(content, id: id)))
        return StoredChunk(id: id, fingerprint: fingerprint)
    }
}
