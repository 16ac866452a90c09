import ListAdapter

/// What a reader of consecutive revisions makes of each stored revision: its full record (the
/// snapshot read from its chunks) or its changes alone (the revision record only, no chunk).
///
/// A decoding keeps what it learned from one revision for the next (``RecordDecoding`` the
/// sections and item chunks already decoded), so it is passed along, `inout`, from one read
/// transaction to the next.
protocol RevisionDecoding<Element>: Sendable {
    /// What each revision becomes.
    associatedtype Element: Sendable

    /// Reads, checks and decodes `revision`.
    ///
    /// - Throws: ``ChangeLogError`` naming the revision, or the engine's failure.
    mutating func element<T: LogReadTransaction & ~Copyable>(
        at revision: UInt64, store: LogStore, in transaction: borrowing T
    ) throws -> Element

    /// The revision number of `element`.
    static func revision(of element: Element) -> UInt64
}

/// Full records: the revision record and the snapshot's chunks, through one ``SnapshotLoader``
/// so that what consecutive snapshots share is decoded once.
struct RecordDecoding: RevisionDecoding {
    var loader: SnapshotLoader

    init(loader: SnapshotLoader = SnapshotLoader()) {
        self.loader = loader
    }

    mutating func element<T: LogReadTransaction & ~Copyable>(
        at revision: UInt64, store: LogStore, in transaction: borrowing T
    ) throws -> RevisionRecord {
        try store.record(at: revision, loader: &loader, in: transaction)
    }

    static func revision(of element: RevisionRecord) -> UInt64 { element.revision }
}

/// The changes alone: the revision record is read and checked, the snapshot's chunks are not.
struct ChangesDecoding: RevisionDecoding {
    mutating func element<T: LogReadTransaction & ~Copyable>(
        at revision: UInt64, store: LogStore, in transaction: borrowing T
    ) throws -> RevisionChanges {
        try store.changes(at: revision, in: transaction)
    }

    static func revision(of element: RevisionChanges) -> UInt64 { element.revision }
}

extension LogStore {
    /// The changes of `revision`, from its record alone (checked against its checksum).
    func changes<T: LogReadTransaction & ~Copyable>(at revision: UInt64, in transaction: borrowing T) throws
        -> RevisionChanges
    {
        let body = try body(at: revision, in: transaction)
        return RevisionChanges(
            revision: revision, millisecondsSince1970: body.timestamp, meta: body.meta, changes: body.changes,
            sectionCount: body.sectionCount, itemCount: body.itemCount)
    }

    /// The elements of `revisions` in order, up to the first one that cannot be read, and that
    /// one's error: readers hand out the elements before a missing or damaged revision, then fail.
    func elements<Decoding: RevisionDecoding, T: LogReadTransaction & ~Copyable>(
        _ revisions: ClosedRange<UInt64>, decoding: inout Decoding, in transaction: borrowing T
    ) -> (elements: [Decoding.Element], failure: (any Error)?) {
        var elements: [Decoding.Element] = []
        // The range may reach far past the latest revision (`records(in: 1...UInt64.max)`): the
        // reads stop there, so reserve for a batch of ordinary size at most.
        elements.reserveCapacity(Int(Swift.min(revisions.upperBound - revisions.lowerBound, 1_023)) + 1)
        for revision in revisions {
            do {
                elements.append(try decoding.element(at: revision, store: self, in: transaction))
            } catch {
                return (elements, error)
            }
        }
        return (elements, nil)
    }
}
