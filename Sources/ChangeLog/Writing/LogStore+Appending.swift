import ListAdapter
import ListFormat

/// The end of the log an append follows: its latest revision with its chunks (`nil` for an
/// empty log), and the identifier its next new chunk gets. Everything an append's records and
/// chunks depend on besides its own entries.
struct LogEnd: Sendable {
    var latest: LatestRevision?
    var nextChunkID: UInt64

    /// Whether `other` is the same end: the same latest revision, ending with the same checksum,
    /// and the same next chunk identifier. Records and chunks prepared after one can be put
    /// after the other.
    func isSame(as other: LogEnd) -> Bool {
        latest?.revision == other.latest?.revision && latest?.checksum == other.latest?.checksum
            && nextChunkID == other.nextChunkID
    }
}

/// An append request's chunks and records, encoded and sealed, ready to be put after the
/// ``LogEnd`` they were prepared against (``LogStore/prepareAppend(_:expectedLatest:changesInAdvance:abandonWhen:after:)``).
struct PreparedAppend: Sendable {
    /// The new chunks, sealed, in ascending identifier order.
    var chunks: [(id: UInt64, value: [UInt8])]
    /// The revision records, in ascending revision order.
    var records: [(revision: UInt64, bytes: [UInt8])]
    /// What the request's caller gets back.
    var revisions: [AppendedRevision]
    /// The log's end once these are stored.
    var end: LogEnd
    /// Whether a chunk is compressed or a dictionary: the log's layout version becomes
    /// one that says so (``LogWriteTransaction/noteCompressedChunks()``).
    var usesCompression = false
    /// What each record's revision touched, for the history index, in the order of `records`;
    /// empty when the engine keeps none (``LogStorage/indexesHistory``).
    var touched: [HistoryAnalysis.Touched] = []
}

// Appending, in two parts: preparing a request's records and chunks needs no transaction, only
// the end of the log they follow; putting them is the part that needs the write transaction.
extension LogStore {
    /// The end of the log as `transaction` sees it; its latest revision is `cached` when that is
    /// still the latest stored one (``loadLatest(cached:in:)``).
    func end<T: LogReadTransaction & ~Copyable>(cached: LatestRevision?, in transaction: borrowing T) throws -> LogEnd {
        LogEnd(latest: try loadLatest(cached: cached, in: transaction), nextChunkID: try nextChunkID(in: transaction))
    }

    /// Prepares `entries` as the revisions after `end`, all or nothing; touches no transaction.
    ///
    /// Everything that can fail for a reason of the request's own (a conflict, changes that do
    /// not apply) fails here, so that a request's failure leaves the transaction it would have
    /// been put in, and the other requests of that transaction, untouched.
    ///
    /// `changesInAdvance` holds the entries' changes as the caller computes them; each is used
    /// when it starts from the snapshot its entry follows and is ready. `abandonWhen` is asked
    /// before each entry is prepared: true throws ``ChangeLogError/Code/abandoned``.
    func prepareAppend(
        _ entries: [ChangeLog.AppendEntry], expectedLatest: UInt64?, changesInAdvance: ChangesInAdvance? = nil,
        abandonWhen: (@Sendable () -> Bool)? = nil, after end: LogEnd
    ) throws(ChangeLogError) -> PreparedAppend {
        let base = end.latest
        let baseRevision = base?.revision ?? 0
        if let expectedLatest, expectedLatest != baseRevision {
            let why =
                expectedLatest < baseRevision
                ? "another writer appended first" : "revision \(expectedLatest) does not exist yet"
            throw ChangeLogError(
                code: .conflict,
                message: "expected revision \(expectedLatest) to be the latest, but it is \(baseRevision): \(why); "
                    + "read the latest revision and retry",
                revision: baseRevision, path: path)
        }
        guard !entries.isEmpty else { return PreparedAppend(chunks: [], records: [], revisions: [], end: end) }
        // The latest key comes from the file: a damaged one may read the largest revision number.
        guard baseRevision <= UInt64.max - UInt64(entries.count) else {
            throw ChangeLogError(
                code: .malformedRecord,
                message: "the latest revision key of the log at \(path) reads \(baseRevision), after which "
                    + "\(entries.count) revisions cannot be numbered: a key was damaged, or changed behind the log's "
                    + "back; restore the log from a backup",
                revision: baseRevision, path: path)
        }
        var current = base?.stored ?? .empty
        var planner = ChunkPlanner(nextID: end.nextChunkID, compression: base?.compression ?? ChunkCompressionState())
        var records: [(revision: UInt64, bytes: [UInt8])] = []
        var appended: [AppendedRevision] = []
        records.reserveCapacity(entries.count)
        appended.reserveCapacity(entries.count)
        // What each revision touched, only for an engine that keeps a history index.
        let indexesHistory = storage.indexesHistory
        var touched: [HistoryAnalysis.Touched] = []
        if indexesHistory { touched.reserveCapacity(entries.count) }
        var revision = baseRevision
        for (index, entry) in entries.enumerated() {
            if let abandonWhen, abandonWhen() {
                throw ChangeLogError(
                    code: .abandoned,
                    message: "the append of \(entries.count) revisions after revision \(baseRevision) was abandoned "
                        + "at its caller's request; nothing of it was written",
                    revision: baseRevision + 1, path: path)
            }
            revision += 1
            // Chunks first: a caller computing this entry's changes in advance gets the time.
            let stored = planner.store(entry.snapshot, reusing: current)
            guard !planner.ranOutOfIdentifiers else {
                throw ChangeLogError(
                    code: .malformedRecord,
                    message: "the log at \(path) holds a chunk key that reads \(end.nextChunkID - 1), after which the "
                        + "chunks of revision \(revision) cannot be numbered: a key was damaged, or changed behind the "
                        + "log's back; restore the log from a backup",
                    revision: revision, path: path)
            }
            let changes: LogChanges
            var disagrees = false
            if let given = entry.changes {
                if entry.verifiesChanges {
                    try verify(given, from: current.snapshot, to: entry.snapshot, revision: revision)
                } else if entry.reportsDisagreement {
                    disagrees = (try? current.snapshot.applying(given)) != entry.snapshot
                }
                changes = given
            } else if let advance = changesInAdvance?.changes(at: index, from: current.snapshot) {
                changes = advance
            } else {
                changes = current.snapshot.changesFollowingEdits(to: entry.snapshot)
            }
            let timestamp = entry.millisecondsSince1970 ?? Timestamp.now()
            let body = RevisionRecordBody(
                version: RevisionRecordBody.version(snapshot: entry.snapshot, changes: changes), timestamp: timestamp,
                meta: entry.meta, sectionCount: entry.snapshot.sectionCount,
                itemCount: entry.snapshot.itemCount, sectionRuns: stored.runs.map(\.id), changes: changes)
            records.append((revision, body.encoded(revision: revision)))
            var revisionAppended = AppendedRevision(
                revision: revision, millisecondsSince1970: timestamp, changes: changes)
            revisionAppended.changesDisagree = disagrees
            appended.append(revisionAppended)
            if indexesHistory {
                touched.append(HistoryAnalysis.touched(old: current.snapshot, new: entry.snapshot, changes: changes))
            }
            current = stored
        }
        let checksum = records.last.flatMap { record in
            record.bytes.withUnsafeBytes { RevisionRecordBody.storedChecksum(of: $0) }
        }
        let latest = LatestRevision(
            revision: revision, checksum: checksum ?? 0, stored: current, compression: planner.compression,
            record: records.last?.bytes)
        return PreparedAppend(
            chunks: planner.newChunks, records: records, revisions: appended,
            end: LogEnd(latest: latest, nextChunkID: planner.nextID), usesCompression: planner.usesCompression,
            touched: touched)
    }

    /// Puts `prepared`'s chunks and records; the transaction must end where they were prepared
    /// after.
    func put<T: LogWriteTransaction & ~Copyable>(_ prepared: PreparedAppend, in transaction: borrowing T) throws {
        // A reader that predates compressed chunks refuses the log at its layout version, rather
        // than failing on its first compressed chunk as if it were damaged.
        if prepared.usesCompression {
            try transaction.noteCompressedChunks()
        }
        for chunk in prepared.chunks {
            try transaction.putChunk(chunk.value, id: chunk.id)
        }
        for record in prepared.records {
            try transaction.putRecord(record.bytes, revision: record.revision)
        }
        for (record, touched) in zip(prepared.records, prepared.touched) {
            try transaction.indexHistory(touched, revision: record.revision)
        }
    }

    private func verify(
        _ changes: LogChanges, from old: LogSnapshot, to new: LogSnapshot, revision: UInt64
    ) throws(ChangeLogError) {
        let result: LogSnapshot
        do {
            result = try old.applying(changes)
        } catch {
            throw ChangeLogError(
                code: .invalidChanges,
                message: "the changes given for revision \(revision) do not apply to revision \(revision - 1)'s "
                    + "snapshot (\(error)); compute them with changes(to:) or fix their producer",
                revision: revision, path: path, cause: error)
        }
        guard result == new else {
            throw ChangeLogError(
                code: .invalidChanges,
                message: "the changes given for revision \(revision) do not take revision \(revision - 1)'s snapshot "
                    + "to the appended one; compute them with changes(to:) or fix their producer",
                revision: revision, path: path)
        }
    }
}
