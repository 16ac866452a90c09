import ListAdapter

/// One stored piece of a snapshot (RecordFormat.md, "Chunks"): a run of items, a section, or a
/// run of sections. Chunks are immutable once written and shared by every revision whose
/// snapshot contains them.
enum Chunk: Hashable, Sendable {
    /// Consecutive items of one section.
    case items([LogSnapshot.Item])
    /// A section: its title, its summary (kind `4`; kind `2` has none), its total item count, and
    /// its item chunks in order.
    case section(title: String, summary: String?, itemCount: Int, itemChunks: [UInt64])
    /// Consecutive sections of a snapshot.
    case sections([UInt64])

    /// The kind byte that starts the chunk.
    enum Kind: UInt8 {
        case items = 1
        case section = 2
        case sections = 3
        case sectionWithSummary = 4
        /// A chunk of another kind, compressed (``ChunkCompression``): read where it is stored,
        /// never as content.
        case compressed = 5
        /// A compression dictionary: named by compressed chunks, never part of a snapshot.
        case dictionary = 6
    }

    /// The chunk's content: its kind byte and payload, without the checksum.
    var content: [UInt8] {
        var writer = RecordWriter()
        switch self {
        case .items(let items):
            items.withUnsafeBufferPointer { Self.writeItems($0, in: $0.indices, to: &writer) }
        case .section(let title, let summary, let itemCount, let itemChunks):
            Self.writeSection(
                title: title, summary: summary, itemCount: itemCount, itemChunks: itemChunks, to: &writer)
        case .sections(let sectionChunks):
            Self.writeSections(sectionChunks, to: &writer)
        }
        return writer.bytes
    }

    /// Writes the content of a section chunk, without building the chunk: kind `2` for a section
    /// without a summary (the layout logs had before section summaries), kind `4`, with the
    /// summary after the title, for one with a summary.
    static func writeSection(
        title: String, summary: String?, itemCount: Int, itemChunks: some Collection<UInt64>,
        to writer: inout RecordWriter
    ) {
        writer.writeByte(summary == nil ? Kind.section.rawValue : Kind.sectionWithSummary.rawValue)
        writer.writeString(title)
        if let summary { writer.writeString(summary) }
        writer.writeCount(itemCount)
        writer.writeCount(itemChunks.count)
        for id in itemChunks {
            writer.writeVarint(id)
        }
    }

    /// Writes the content of a section-run chunk, without building the chunk.
    static func writeSections(_ sectionChunks: some Collection<UInt64>, to writer: inout RecordWriter) {
        writer.writeByte(Kind.sections.rawValue)
        writer.writeCount(sectionChunks.count)
        for id in sectionChunks {
            writer.writeVarint(id)
        }
    }

    /// Writes the content of an item chunk holding `items[range]`, without building the chunk.
    static func writeItems(
        _ items: UnsafeBufferPointer<LogSnapshot.Item>, in range: Range<Int>, to writer: inout RecordWriter
    ) {
        writer.writeByte(Kind.items.rawValue)
        writer.writeCount(range.count)
        for index in range {
            writer.writeItem(items[index])
        }
    }

    /// The stored value for `content` under chunk identifier `id`: the content, then its
    /// XXH3-64 checksum seeded with `id`.
    static func sealed(_ content: consuming [UInt8], id: UInt64) -> [UInt8] {
        var bytes = content
        let checksum = ContentHash.checksum(bytes, seed: id)
        withUnsafeBytes(of: checksum.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Decodes a chunk's content (checksum already checked and removed).
    init(content: UnsafeRawBufferPointer) throws(RecordDecodingError) {
        var reader = RecordReader(content)
        let kindByte = try reader.readByte()
        switch Kind(rawValue: kindByte) {
        case .items:
            let count = try reader.readCount(minimumElementSize: 2)
            var items: [LogSnapshot.Item] = []
            items.reserveCapacity(count)
            for _ in 0..<count {
                items.append(try reader.readItem())
            }
            self = .items(items)
        case .section, .sectionWithSummary:
            let title = try reader.readString()
            let summary = kindByte == Kind.sectionWithSummary.rawValue ? try reader.readString() : nil
            let itemCount = try reader.readTotal()
            let chunkCount = try reader.readCount()
            var ids: [UInt64] = []
            ids.reserveCapacity(chunkCount)
            for _ in 0..<chunkCount {
                ids.append(try reader.readChunkID())
            }
            self = .section(title: title, summary: summary, itemCount: itemCount, itemChunks: ids)
        case .sections:
            let count = try reader.readCount()
            var ids: [UInt64] = []
            ids.reserveCapacity(count)
            for _ in 0..<count {
                ids.append(try reader.readChunkID())
            }
            self = .sections(ids)
        case .compressed, .dictionary:
            throw RecordDecodingError(offset: 0, reason: "chunk kind \(kindByte) where a snapshot chunk belongs")
        case nil:
            throw RecordDecodingError(offset: 0, reason: "unknown chunk kind \(kindByte)")
        }
        try reader.expectEnd()
    }
}

extension RecordWriter {
    /// An item: its identifier, then its optional summary.
    mutating func writeItem(_ item: LogSnapshot.Item) {
        writeString(item.id)
        writeOptionalString(item.summary)
    }

    /// An item path: section, then item, each zigzag-signed.
    mutating func writePath(_ path: ItemPath) {
        writeSigned(path.section)
        writeSigned(path.item)
    }
}

extension RecordReader {
    mutating func readItem() throws(RecordDecodingError) -> LogSnapshot.Item {
        let id = try readString()
        let summary = try readOptionalString()
        return LogSnapshot.Item(id: id, summary: summary)
    }

    mutating func readPath() throws(RecordDecodingError) -> ItemPath {
        let section = try readSigned()
        let item = try readSigned()
        return ItemPath(section: section, item: item)
    }
}
