import ListAdapter

/// What a revision record stores (RecordFormat.md, "Revision records"): everything about a
/// revision except the snapshot's content, which lives in chunks the record points to.
struct RevisionRecordBody: Hashable, Sendable {
    /// The record format of a revision without section summaries, the only one before they
    /// existed: its changes have no section updates and no section summaries.
    static let versionWithoutSectionSummaries: UInt8 = 1
    /// The record format of a revision whose snapshot or changes hold section summaries, or
    /// whose changes hold a reload: its changes also store inserted sections' summaries and
    /// section updates.
    static let formatVersion: UInt8 = 2
    /// The flag (version 2 only) of a record whose updated items each carry their kind: set when
    /// one of them is a ``ItemUpdateKind/reload``, so a record without reloads has no flags.
    static let updateKindsFlag: UInt8 = 0x01

    /// The record format version the body is stored in.
    var version: UInt8
    /// When the revision was appended: milliseconds since 1970-01-01T00:00:00Z.
    var timestamp: Int64
    /// The revision's annotations.
    var meta: [String: String]
    /// The number of sections of the snapshot, checked against its chunks when read.
    var sectionCount: Int
    /// The number of items of the snapshot, checked against its chunks when read.
    var itemCount: Int
    /// The snapshot's section-run chunks, in order.
    var sectionRuns: [UInt64]
    /// The changes from the previous revision's snapshot to this one's.
    var changes: LogChanges

    /// The version a revision with `snapshot` and `changes` is stored in: version 1 unless one of
    /// them holds a section summary or a section update, or the changes a reload, so that logs
    /// that use neither stay readable by readers that predate them.
    /// - Complexity: O(*s* + *u*), where *s* counts the snapshot's sections and the inserted
    ///   ones, and *u* the updated items.
    static func version(snapshot: LogSnapshot, changes: LogChanges) -> UInt8 {
        let usesSectionSummaries =
            !changes.updatedSections.isEmpty
            || changes.insertedSections.contains { $0.section.summary != nil }
            || snapshot.sections.contains { $0.summary != nil }
        return usesSectionSummaries || hasReloads(changes) ? formatVersion : versionWithoutSectionSummaries
    }

    /// Whether one of the updated items of `changes` is a reload.
    /// - Complexity: O(*u*), where *u* counts the updated items.
    static func hasReloads(_ changes: LogChanges) -> Bool {
        changes.updatedItems.contains { $0.kind == .reload }
    }

    /// The flags byte of the record: ``updateKindsFlag`` for a version-2 record with a reload,
    /// else none. A version-1 record never carries kinds (its reloads read back as reconfigures).
    var flags: UInt8 {
        version >= Self.formatVersion && Self.hasReloads(changes) ? Self.updateKindsFlag : 0
    }

    /// The record as stored under `revision`: version, flags, fields, then the XXH3-64
    /// checksum of all of that seeded with `revision`.
    func encoded(revision: UInt64) -> [UInt8] {
        var writer = RecordWriter(capacity: 64 + 3 * sectionRuns.count + 16 * changes.operationCount)
        writer.writeByte(version)
        let flags = flags
        writer.writeByte(flags)
        writer.writeSigned(Int(timestamp))
        writer.writeCount(meta.count)
        for key in meta.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            writer.writeString(key)
            writer.writeString(meta[key] ?? "")
        }
        writer.writeCount(sectionCount)
        writer.writeCount(itemCount)
        writer.writeCount(sectionRuns.count)
        for id in sectionRuns {
            writer.writeVarint(id)
        }
        writer.writeChanges(changes, version: version, withKinds: flags & Self.updateKindsFlag != 0)
        writer.seal(seed: revision)
        return writer.bytes
    }

    /// Why a stored record could not be read.
    enum Failure: Error, Hashable, Sendable {
        /// The stored and computed checksums differ, or the record is shorter than a checksum.
        case checksumMismatch(stored: UInt64?, computed: UInt64?)
        /// The record was written by a newer format version.
        case unsupportedVersion(UInt8)
        /// The bytes pass the checksum but do not decode.
        case malformed(RecordDecodingError)
    }

    /// The checksum a stored record ends with, or `nil` when it is too short to have one.
    static func storedChecksum(of bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard bytes.count >= 8 else { return nil }
        var value: UInt64 = 0
        for index in (bytes.count - 8..<bytes.count).reversed() {
            value = (value << 8) | UInt64(bytes[index])
        }
        return value
    }

    /// Checks and decodes the record stored under `revision`.
    init(decoding bytes: UnsafeRawBufferPointer, revision: UInt64) throws(Failure) {
        let content: UnsafeRawBufferPointer
        switch SealCheck(bytes, seed: revision) {
        case .valid(let checked): content = checked
        case .tooShort: throw .checksumMismatch(stored: nil, computed: nil)
        case .mismatch(let stored, let computed): throw .checksumMismatch(stored: stored, computed: computed)
        }
        guard let version = content.first else {
            throw .malformed(RecordDecodingError(offset: 0, reason: "empty record"))
        }
        guard version == Self.versionWithoutSectionSummaries || version == Self.formatVersion else {
            throw .unsupportedVersion(version)
        }
        var reader = RecordReader(content, offset: 1)
        do throws(RecordDecodingError) {
            let flags = try reader.readByte()
            let knownFlags = version >= Self.formatVersion ? Self.updateKindsFlag : 0
            guard flags & ~knownFlags == 0 else { throw reader.failure("unknown flags \(flags)") }
            let timestamp = try reader.readSigned()
            let metaCount = try reader.readCount(minimumElementSize: 2)
            var meta: [String: String] = [:]
            meta.reserveCapacity(metaCount)
            for _ in 0..<metaCount {
                let key = try reader.readString()
                let value = try reader.readString()
                guard meta.updateValue(value, forKey: key) == nil else {
                    throw reader.failure("duplicate meta key \(quotedExcerpt(key))")
                }
            }
            let sectionCount = try reader.readTotal()
            let itemCount = try reader.readTotal()
            let runCount = try reader.readCount()
            var runs: [UInt64] = []
            runs.reserveCapacity(runCount)
            for _ in 0..<runCount {
                runs.append(try reader.readChunkID())
            }
            let changes = try reader.readChanges(version: version, withKinds: flags & Self.updateKindsFlag != 0)
            try reader.expectEnd()
            self.init(
                version: version, timestamp: Int64(timestamp), meta: meta, sectionCount: sectionCount,
                itemCount: itemCount,
                sectionRuns: runs, changes: changes)
        } catch {
            throw .malformed(error)
        }
    }

    /// A body in `version` (``version(snapshot:changes:)`` chooses it when appending).
    init(
        version: UInt8, timestamp: Int64, meta: [String: String], sectionCount: Int, itemCount: Int,
        sectionRuns: [UInt64], changes: LogChanges
    ) {
        self.version = version
        self.timestamp = timestamp
        self.meta = meta
        self.sectionCount = sectionCount
        self.itemCount = itemCount
        self.sectionRuns = sectionRuns
        self.changes = changes
    }
}
