import ListAdapter

/// A stored chunk as the writer remembers it: its identifier and the fingerprint of its content.
///
/// A fingerprint only finds candidates for reuse: a chunk is reused once its content is
/// confirmed to be the same (XXH3 is not collision resistant), through the counts kept here.
struct StoredChunk: Hashable, Sendable {
    var id: UInt64
    var fingerprint: Fingerprint
    /// For an item chunk, the number of items it holds; 0 when not known (other kinds).
    var itemCount = 0
    /// For a section-run chunk, the number of sections it holds; 0 when not known (other kinds).
    var sectionCount = 0
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
    /// How the writer compresses the chunks it adds after it.
    var compression = ChunkCompressionState()
    /// The bytes of its record when this process's writer put it; `nil` when it was read from
    /// the log. An engine that appends in one step (``LogStorage/appendInOneStep(_:)``)
    /// compares them with the stored latest record.
    var record: [UInt8]? = nil
}

/// The size of a snapshot's plain binary encoding, without any chunking: the section count,
/// then for each section its title, item count and items, with RecordFormat.md's primitives.
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
