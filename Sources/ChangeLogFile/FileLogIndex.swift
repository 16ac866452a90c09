/// Where each committed record and chunk of a log file is: built by the opening scan, extended
/// by every commit (this instance's) and re-scan (another writer's). It only grows (a torn tail
/// cut was never indexed); retention writes a new file, which gets a new index.
struct FileLogIndex {
    /// A payload's place in the file.
    struct Location {
        /// The offset of the payload's first byte.
        var offset: UInt64
        /// The payload's length.
        var length: Int
    }

    /// The oldest revision stored; meaningful when ``records`` is not empty.
    var firstRevision: UInt64 = 1
    /// The records, from ``firstRevision`` on, without gaps.
    var records: [Location] = []
    /// The chunks by identifier.
    var chunks: [UInt64: Location] = [:]
    /// The largest chunk identifier stored.
    var largestChunk: UInt64?
    /// The offset just after the last committed transaction: where the next one starts.
    var end = UInt64(FileLogLayout.headerSize)

    /// The latest revision, or `nil` when none is stored.
    var latestRevision: UInt64? {
        records.isEmpty ? nil : firstRevision + UInt64(records.count) - 1
    }

    /// What a read sees: the index as it was when the read began.
    var snapshot: Snapshot {
        Snapshot(
            firstRevision: firstRevision, recordCount: records.count, largestChunk: largestChunk, end: end)
    }

    /// The index as one read sees it: the records before ``recordCount`` and the chunks before
    /// ``end``, whatever is committed meanwhile.
    struct Snapshot {
        var firstRevision: UInt64
        var recordCount: Int
        var largestChunk: UInt64?
        var end: UInt64

        /// The latest revision seen, or `nil` when none.
        var latestRevision: UInt64? {
            recordCount == 0 ? nil : firstRevision + UInt64(recordCount) - 1
        }
    }

    /// The location of the record of `revision` as `snapshot` sees it.
    func record(_ revision: UInt64, in snapshot: Snapshot) -> Location? {
        guard revision >= snapshot.firstRevision else { return nil }
        let index = revision - snapshot.firstRevision
        guard index < UInt64(snapshot.recordCount) else { return nil }
        return records[Int(index)]
    }

    /// The location of chunk `id` as `snapshot` sees it.
    func chunk(_ id: UInt64, in snapshot: Snapshot) -> Location? {
        guard let location = chunks[id], location.offset < snapshot.end else { return nil }
        return location
    }
}

/// A frame of a transaction: its kind, key and payload's place.
struct FileLogFrame {
    var kind: FileLogLayout.Kind
    var key: UInt64
    var location: FileLogIndex.Location
}

extension FileLogIndex {
    /// Adds the frames of one committed transaction, ending at `end`, checking that they
    /// continue the log: each record the revision after the latest, each chunk after the largest.
    ///
    /// - Returns: `nil`, or what is wrong with them (the index is then unchanged).
    mutating func add(_ frames: [FileLogFrame], end: UInt64) -> String? {
        var next = latestRevision.map { $0 + 1 }
        var largest = largestChunk
        for frame in frames {
            switch frame.kind {
            case .record:
                if let expected = next, frame.key != expected {
                    return "a committed record of revision \(frame.key) follows revision \(expected - 1)"
                }
                guard frame.key >= 1, frame.key < UInt64.max else {
                    return "a committed record is keyed with revision \(frame.key)"
                }
                next = frame.key + 1
            case .chunk:
                if let largest, frame.key <= largest {
                    return "a committed chunk \(frame.key) follows chunk \(largest)"
                }
                largest = frame.key
            case .commit, .orderedCommit:
                return "a commit frame inside a transaction"
            }
        }
        for frame in frames {
            switch frame.kind {
            case .record:
                if records.isEmpty { firstRevision = frame.key }
                records.append(frame.location)
            case .chunk:
                chunks[frame.key] = frame.location
            case .commit, .orderedCommit:
                break
            }
        }
        largestChunk = largest
        self.end = end
        return nil
    }
}
