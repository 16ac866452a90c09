import ListAdapter

/// Why a snapshot's chunks could not be read.
struct ChunkFailure: Error, Sendable {
    enum Kind: Sendable {
        /// No chunk is stored under the identifier.
        case missing
        /// The chunk does not match its checksum.
        case checksumMismatch(stored: UInt64?, computed: UInt64?)
        /// The chunk passes its checksum but does not decode.
        case malformed(RecordDecodingError)
        /// The chunks decode but do not fit together.
        case inconsistent(String)
        /// The chunk is compressed, and this build leaves zstd out (the package trait `Zstd`).
        case compressionLeftOut
    }

    /// The chunk concerned, when there is one.
    var chunkID: UInt64?
    var kind: Kind

    var description: String {
        let chunk = chunkID.map { "chunk \($0)" } ?? "the snapshot's chunks"
        switch kind {
        case .missing:
            return "\(chunk) is missing"
        case .checksumMismatch(let stored?, let computed?):
            return "\(chunk) fails its checksum (stored \(hex(stored)), computed \(hex(computed)))"
        case .checksumMismatch:
            return "\(chunk) is too short to hold a checksum"
        case .malformed(let error):
            return "\(chunk) does not decode: \(error)"
        case .inconsistent(let reason):
            return "\(chunk): \(reason)"
        case .compressionLeftOut:
            return "\(chunk) is compressed with zstd, which this build leaves out: enable the package trait `Zstd`"
        }
    }
}

/// `0x` and sixteen hexadecimal digits.
func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
}

/// The decoded items of an item chunk, the fingerprint of its content and its identifiers'
/// hashes (`IdentifierIndex.hash(of:)`, computed by this process when it decoded the chunk).
private struct ItemChunk {
    var items: [LogSnapshot.Item]
    var fingerprint: Fingerprint
    var hashes: [Int]

    init(items: [LogSnapshot.Item], fingerprint: Fingerprint) {
        self.items = items
        self.fingerprint = fingerprint
        hashes = items.map { IdentifierIndex<String>.hash(of: $0.id) }
    }
}

/// A decoded section, where it is stored, and its identifiers' hashes in display order.
private struct LoadedSection {
    var section: LogSnapshot.Section
    var stored: StoredSection
    var hashes: [Int]
}

/// Reads snapshots from their chunks, checking every chunk's checksum and how the chunks fit
/// together. It remembers the sections and item chunks of the last snapshot it read, so reading
/// consecutive revisions reads and decodes only the chunks each one added (each chunk is
/// checked when the loader first reads it).
///
/// The snapshot it hands out is always the one the chunks hold, never one derived from the
/// revision's changes: the changes are a second, independent record of the revision, which
/// ``ChangeLog/verify(_:progress:)`` compares with the chunks, so trusting them here would hide
/// exactly the disagreement it must report. What the loader carries from one snapshot to the
/// next is work this process did on the same bytes: the decoded sections and item chunks, the
/// digested dictionaries, and the hash of every identifier, which it computes once, when it
/// decodes the item chunk holding it. Each snapshot's index is built afresh from those hashes, in display order, with the
/// same duplicate check as `ListSnapshot(sections:)`, so a revision costs the chunks it added,
/// plus filing (not hashing) its identifiers.
struct SnapshotLoader {
    /// The most elements a total read from the log reserves room for up front. The totals
    /// (sections and items of a record, items of a section) are checked against the chunks
    /// only as these are read, and one damaged or forged total must fail those checks rather
    /// than ask for terabytes first.
    private static let largestReservation = 1 << 16
    private var sectionsByChunk: [UInt64: LoadedSection] = [:]
    /// The items of every item chunk of the last snapshot loaded: a section that changed
    /// usually keeps most of its item chunks, which need not be read and decoded again.
    private var itemsByChunk: [UInt64: ItemChunk] = [:]
    /// The dictionaries read so far, checked and digested, by chunk identifier (see
    /// `LogReadTransaction.decodeChunk`).
    private var dictionaries: [UInt64: DecompressionDictionary] = [:]
    /// Whether the loader keeps, from one snapshot to the next, the identifiers' hashes (each
    /// snapshot's index is built from them) and the digested dictionaries (`true`); or hashes
    /// every identifier and checks and digests a compressed chunk's dictionary for every chunk
    /// (`false`: how every snapshot was read before, kept as the benchmarks' baseline).
    let keepsWork: Bool

    /// A loader that has read nothing yet.
    init(keepsWork: Bool = true) {
        self.keepsWork = keepsWork
    }

    /// Reads chunk `id`, with the dictionaries kept when the loader keeps them.
    private mutating func chunk<T: LogReadTransaction & ~Copyable>(_ id: UInt64, in transaction: borrowing T) throws
        -> (chunk: Chunk, fingerprint: Fingerprint)
    {
        guard keepsWork else { return try transaction.chunk(id) }
        return try transaction.chunk(id, dictionaries: &dictionaries)
    }

    /// Reads the snapshot of the revision described by `body`.
    ///
    /// - Throws: ``ChunkFailure`` for a missing, damaged or inconsistent chunk; the engine's
    ///   failures.
    mutating func load<T: LogReadTransaction & ~Copyable>(_ body: RevisionRecordBody, in transaction: borrowing T)
        throws -> StoredSnapshot
    {
        var sections: [LogSnapshot.Section] = []
        var storedSections: [StoredSection] = []
        var runs: [StoredChunk] = []
        var loaded: [UInt64: LoadedSection] = [:]
        var hashes: [[Int]] = []
        var loadedItems: [UInt64: ItemChunk] = [:]
        loadedItems.reserveCapacity(itemsByChunk.count)
        sections.reserveCapacity(min(body.sectionCount, Self.largestReservation))
        storedSections.reserveCapacity(min(body.sectionCount, Self.largestReservation))
        hashes.reserveCapacity(min(body.sectionCount, Self.largestReservation))
        var itemTotal = 0
        for runID in body.sectionRuns {
            let run = try chunk(runID, in: transaction)
            guard case .sections(let sectionIDs) = run.chunk else {
                throw ChunkFailure(chunkID: runID, kind: .inconsistent("expected a section run, found another kind"))
            }
            runs.append(StoredChunk(id: runID, fingerprint: run.fingerprint, sectionCount: sectionIDs.count))
            for sectionID in sectionIDs {
                guard sections.count < body.sectionCount else {
                    throw ChunkFailure(kind: .inconsistent("more sections than the \(body.sectionCount) recorded"))
                }
                let entry: LoadedSection
                if let known = loaded[sectionID] ?? sectionsByChunk[sectionID] {
                    entry = known
                    // Keep its item chunks for the next snapshot (a read section records its own).
                    for chunk in known.stored.itemChunks where loadedItems[chunk.id] == nil {
                        loadedItems[chunk.id] = itemsByChunk[chunk.id]
                    }
                } else {
                    entry = try readSection(
                        sectionID, limit: body.itemCount - itemTotal, loadedItems: &loadedItems,
                        in: transaction)
                }
                itemTotal += entry.section.items.count
                guard itemTotal <= body.itemCount else {
                    throw ChunkFailure(kind: .inconsistent("more items than the \(body.itemCount) recorded"))
                }
                loaded[sectionID] = entry
                sections.append(entry.section)
                storedSections.append(entry.stored)
                hashes.append(entry.hashes)
            }
        }
        guard sections.count == body.sectionCount, itemTotal == body.itemCount else {
            throw ChunkFailure(
                kind: .inconsistent(
                    "the chunks hold \(sections.count) sections and \(itemTotal) items, the record says "
                        + "\(body.sectionCount) and \(body.itemCount)"))
        }
        let snapshot: LogSnapshot
        do {
            snapshot = try LogSnapshot(sections: sections, itemHashes: keepsWork ? hashes : nil)
        } catch {
            throw ChunkFailure(kind: .inconsistent(error.description))
        }
        sectionsByChunk = loaded
        itemsByChunk = loadedItems
        return StoredSnapshot(snapshot: snapshot, sections: storedSections, runs: runs)
    }

    /// Reads section chunk `id`, taking the item chunks the last snapshot loaded from
    /// ``itemsByChunk`` and reading the others; records every item chunk in `loadedItems`.
    private mutating func readSection<T: LogReadTransaction & ~Copyable>(
        _ id: UInt64, limit: Int, loadedItems: inout [UInt64: ItemChunk], in transaction: borrowing T
    ) throws -> LoadedSection {
        let read = try chunk(id, in: transaction)
        guard case .section(let title, let summary, let itemCount, let itemChunkIDs) = read.chunk else {
            throw ChunkFailure(chunkID: id, kind: .inconsistent("expected a section, found another kind"))
        }
        guard itemCount <= limit else {
            throw ChunkFailure(
                chunkID: id, kind: .inconsistent("section of \(itemCount) items exceeds the record's total"))
        }
        var items: [LogSnapshot.Item] = []
        items.reserveCapacity(min(itemCount, Self.largestReservation))
        var itemChunks: [StoredChunk] = []
        itemChunks.reserveCapacity(itemChunkIDs.count)
        var hashes: [Int] = []
        hashes.reserveCapacity(min(itemCount, Self.largestReservation))
        for itemChunkID in itemChunkIDs {
            let itemChunk: ItemChunk
            if let known = itemsByChunk[itemChunkID] ?? loadedItems[itemChunkID] {
                itemChunk = known
            } else {
                let read = try chunk(itemChunkID, in: transaction)
                guard case .items(let readItems) = read.chunk else {
                    throw ChunkFailure(chunkID: itemChunkID, kind: .inconsistent("expected items, found another kind"))
                }
                itemChunk = ItemChunk(items: readItems, fingerprint: read.fingerprint)
            }
            let chunkItems = itemChunk.items
            guard items.count + chunkItems.count <= itemCount else {
                throw ChunkFailure(chunkID: id, kind: .inconsistent("section holds more than its \(itemCount) items"))
            }
            items.append(contentsOf: chunkItems)
            hashes.append(contentsOf: itemChunk.hashes)
            loadedItems[itemChunkID] = itemChunk
            itemChunks.append(
                StoredChunk(id: itemChunkID, fingerprint: itemChunk.fingerprint, itemCount: chunkItems.count))
        }
        guard items.count == itemCount else {
            throw ChunkFailure(
                chunkID: id, kind: .inconsistent("section holds \(items.count) items, it says \(itemCount)"))
        }
        return LoadedSection(
            section: LogSnapshot.Section(title: title, summary: summary, items: items),
            stored: StoredSection(chunk: StoredChunk(id: id, fingerprint: read.fingerprint), itemChunks: itemChunks),
            hashes: hashes)
    }
}

extension LogReadTransaction where Self: ~Copyable {
    /// Reads the chunk stored under `id`, checks its checksum, decompresses it if it is
    /// compressed, decodes it and fingerprints its content.
    ///
    /// - Throws: ``ChunkFailure`` for a missing or damaged chunk; the engine's failures.
    func chunk(_ id: UInt64) throws -> (chunk: Chunk, fingerprint: Fingerprint) {
        var dictionaries: [UInt64: DecompressionDictionary] = [:]
        return try chunk(id, dictionaries: &dictionaries)
    }

    /// Reads chunk `id` as ``chunk(_:)`` does, taking its dictionary from `dictionaries` when
    /// it is there and adding it when it is read (see `decodeChunk`).
    ///
    /// - Throws: ``ChunkFailure`` for a missing or damaged chunk; the engine's failures.
    func chunk(_ id: UInt64, dictionaries: inout [UInt64: DecompressionDictionary]) throws -> (
        chunk: Chunk, fingerprint: Fingerprint
    ) {
        try withChunk(id) { bytes in
            guard let bytes else { throw ChunkFailure(chunkID: id, kind: .missing) }
            switch SealCheck(bytes, seed: id) {
            case .valid(let content):
                return try decodeChunk(content, id: id, dictionaries: &dictionaries)
            case .tooShort:
                throw ChunkFailure(chunkID: id, kind: .checksumMismatch(stored: nil, computed: nil))
            case .mismatch(let stored, let computed):
                throw ChunkFailure(chunkID: id, kind: .checksumMismatch(stored: stored, computed: computed))
            }
        }
    }
}
