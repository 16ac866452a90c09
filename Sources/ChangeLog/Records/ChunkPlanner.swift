import ListAdapter

/// Stores snapshots as chunks inside one write transaction: cuts each snapshot against the one
/// before (``SnapshotCut``), gives the new chunks their identifiers, builds the section and
/// section-run chunks, and collects the chunks that must be written.
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
    /// content is the same (``SnapshotCut/init(_:against:)``); section chunks and section runs
    /// are reused by content.
    mutating func store(_ snapshot: LogSnapshot, reusing base: StoredSnapshot) -> StoredSnapshot {
        let cut = SnapshotCut(snapshot, against: base)
        var sections: [StoredSection] = []
        sections.reserveCapacity(snapshot.sections.count)
        for (section, cutSection) in zip(snapshot.sections, cut.sections) {
            switch cutSection {
            case .unchanged(let stored):
                sections.append(stored)
            case .changed(let cutChunks, let baseOffset):
                var itemChunks: [StoredChunk] = []
                itemChunks.reserveCapacity(cutChunks.count)
                for cutChunk in cutChunks {
                    switch cutChunk {
                    case .stored(let chunk):
                        itemChunks.append(chunk)
                    case .new(let content, let fingerprint, let itemCount):
                        // The cut already looked the content up among the base section's.
                        var stored = chunk(for: content, fingerprint: fingerprint, known: [])
                        stored.itemCount = itemCount
                        itemChunks.append(stored)
                    }
                }
                // Room for the title, the counts, the identifiers and the checksum.
                var writer = RecordWriter(capacity: section.title.utf8.count + 10 * itemChunks.count + 32)
                Chunk.writeSection(
                    title: section.title, itemCount: section.items.count, itemChunks: itemChunks.lazy.map(\.id),
                    to: &writer)
                let content = writer.takeBytes()
                let knownSection = baseOffset.map { [base.sections[$0].chunk] } ?? []
                sections.append(
                    StoredSection(
                        chunk: chunk(for: content, fingerprint: ContentHash.fingerprint(content), known: knownSection),
                        itemChunks: itemChunks))
            }
        }
        var runs: [StoredChunk] = []
        for run in SnapshotCut.sectionRuns(of: snapshot.sections) {
            var writer = RecordWriter(capacity: 10 * run.count + 24)
            Chunk.writeSections(sections[run].lazy.map(\.chunk.id), to: &writer)
            let content = writer.takeBytes()
            runs.append(chunk(for: content, fingerprint: ContentHash.fingerprint(content), known: base.runs))
        }
        return StoredSnapshot(snapshot: snapshot, sections: sections, runs: runs)
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
