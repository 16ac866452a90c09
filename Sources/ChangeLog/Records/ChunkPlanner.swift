import ListAdapter

/// Stores snapshots as chunks inside one write transaction: cuts each snapshot against the one
/// before (``SnapshotCut``), gives the new chunks their identifiers, builds the section and
/// section-run chunks, and collects the chunks that must be written.
struct ChunkPlanner {
    /// The identifier the next new chunk gets.
    private(set) var nextID: UInt64
    /// The new chunks, sealed, in ascending identifier order.
    private(set) var newChunks: [(id: UInt64, value: [UInt8])] = []
    /// Whether the identifiers ran out: a new chunk got the largest one, and a chunk after it
    /// repeated it. Only a damaged chunk key, read as the largest stored, starts the count so
    /// high; the plan must then not be written.
    private(set) var ranOutOfIdentifiers = false
    /// Whether ``nextID`` was given out and could not advance past the largest identifier.
    private var identifiersExhausted = false
    /// The log's dictionary, or the samples one will be trained on.
    private(set) var compression: ChunkCompressionState
    private var compressor: ChunkCompressor

    init(nextID: UInt64, compression: ChunkCompressionState = ChunkCompressionState()) {
        self.nextID = nextID
        self.compression = compression
        compressor = ChunkCompressor(dictionary: compression.dictionary)
    }

    /// Whether a new chunk is compressed or a dictionary: the log's layout must then say so.
    private(set) var usesCompression = false

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
                        var stored = newChunk(content, fingerprint: fingerprint)
                        stored.itemCount = itemCount
                        itemChunks.append(stored)
                    }
                }
                // The base's section chunk holds the same content when it names the same title and
                // summary (byte for byte), item count and item chunks: compared as such, never by
                // fingerprint alone (XXH3 is not collision resistant).
                if let baseOffset, Self.sameSection(section, itemChunks, as: baseOffset, of: base) {
                    sections.append(StoredSection(chunk: base.sections[baseOffset].chunk, itemChunks: itemChunks))
                    continue
                }
                // Room for the title, the summary, the counts, the identifiers and the checksum.
                var writer = RecordWriter(
                    capacity: section.title.utf8.count + (section.summary?.utf8.count ?? 0) + 10 * itemChunks.count
                        + 32)
                Chunk.writeSection(
                    title: section.title, summary: section.summary, itemCount: section.items.count,
                    itemChunks: itemChunks.lazy.map(\.id), to: &writer)
                sections.append(StoredSection(chunk: newChunk(writer.takeBytes()), itemChunks: itemChunks))
            }
        }
        let baseRunStarts = Self.runStarts(of: base)
        var runsByFingerprint = FingerprintIndex()
        var runs: [StoredChunk] = []
        for run in SnapshotCut.sectionRuns(of: snapshot.sections) {
            var writer = RecordWriter(capacity: 10 * run.count + 24)
            Chunk.writeSections(sections[run].lazy.map(\.chunk.id), to: &writer)
            let content = writer.takeBytes()
            let fingerprint = ContentHash.fingerprint(content)
            // A base run with the same fingerprint is reused once its sections are confirmed.
            let match = baseRunStarts.flatMap { starts in
                runsByFingerprint.lastMatch(of: fingerprint, in: base.runs) { index -> Int? in
                    let baseRun = starts[index]..<(starts[index] + base.runs[index].sectionCount)
                    let same =
                        baseRun.count == run.count
                        && zip(base.sections[baseRun], sections[run]).allSatisfy { $0.chunk.id == $1.chunk.id }
                    return same ? index : nil
                }
            }
            var stored = match.map { base.runs[$0] } ?? newChunk(content, fingerprint: fingerprint)
            stored.sectionCount = run.count
            runs.append(stored)
        }
        return StoredSnapshot(snapshot: snapshot, sections: sections, runs: runs)
    }

    /// Whether `base`'s section at `offset` is stored as `section` with `itemChunks` would be:
    /// the same title byte for byte, the same item count and the same item chunks.
    private static func sameSection(
        _ section: LogSnapshot.Section, _ itemChunks: [StoredChunk], as offset: Int, of base: StoredSnapshot
    ) -> Bool {
        let baseSection = base.snapshot.sections[offset]
        let baseChunks = base.sections[offset].itemChunks
        return baseSection.items.count == section.items.count && baseChunks.count == itemChunks.count
            && literallyEqualStrings(baseSection.title, section.title)
            && literallyEqual(baseSection.summary, section.summary)
            && zip(baseChunks, itemChunks).allSatisfy { $0.id == $1.id }
    }

    /// Where each of `base`'s runs starts among its sections; `nil` when a run's section count
    /// is unknown or the counts do not add up (then no run is reused).
    private static func runStarts(of base: StoredSnapshot) -> [Int]? {
        var starts: [Int] = []
        starts.reserveCapacity(base.runs.count)
        var start = 0
        for run in base.runs {
            guard run.sectionCount > 0 else { return nil }
            starts.append(start)
            start += run.sectionCount
        }
        return start == base.sections.count ? starts : nil
    }

    /// A new chunk holding `content`, with the next identifier, compressed when that makes it
    /// smaller. Until the log has a dictionary, the content is kept as a sample; once the samples
    /// are large enough, a dictionary is trained on them and stored as a chunk of its own.
    private mutating func newChunk(_ content: consuming [UInt8], fingerprint: Fingerprint? = nil) -> StoredChunk {
        let fingerprint = fingerprint ?? ContentHash.fingerprint(content)
        let id = takeID()
        let stored = ChunkCompression.encode(content, with: compressor)
        if stored.first == Chunk.Kind.compressed.rawValue { usesCompression = true }
        newChunks.append((id, Chunk.sealed(stored, id: id)))
        #if Zstd
            if compression.dictionary == nil {
                compression.samples.append(content)
                if compression.samples.bytes.count >= ChunkSamples.trainingSize { storeDictionary() }
            }
        #endif
        return StoredChunk(id: id, fingerprint: fingerprint)
    }

    /// Trains a dictionary on the samples and stores it as the next chunk; later chunks are
    /// compressed with it. When no dictionary comes out, the samples start over.
    private mutating func storeDictionary() {
        let trained = ChunkCompression.trainDictionary(on: compression.samples)
        compression.samples = ChunkSamples()
        guard let trained else { return }
        let id = takeID()
        let dictionary = trained.withUnsafeBytes { CompressionDictionary(id: id, bytes: $0) }
        var content = [Chunk.Kind.dictionary.rawValue]
        content.append(contentsOf: trained)
        newChunks.append((id, Chunk.sealed(content, id: id)))
        usesCompression = true
        guard let dictionary else { return }
        compression.dictionary = dictionary
        compressor = ChunkCompressor(dictionary: dictionary)
    }

    /// The next identifier, given out.
    private mutating func takeID() -> UInt64 {
        let id = nextID
        if identifiersExhausted { ranOutOfIdentifiers = true }
        let (next, overflow) = nextID.addingReportingOverflow(1)
        if overflow { identifiersExhausted = true } else { nextID = next }
        return id
    }
}

/// How a writer compresses the chunks it adds: with the log's dictionary once it has one,
/// before that with none, keeping the contents as samples to train the dictionary on.
struct ChunkCompressionState: Sendable {
    /// The log's dictionary, or `nil` before it has one.
    var dictionary: CompressionDictionary?
    /// The contents of chunks written since the writer started without a dictionary.
    var samples = ChunkSamples()
}
