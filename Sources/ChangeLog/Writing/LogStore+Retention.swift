// Retention: dropping the revisions before a given one, inside the writer's transaction.
extension LogStore {
    /// Removes the revisions before `target` and every chunk no remaining revision uses.
    func dropRevisions<T: LogWriteTransaction & ~Copyable>(before target: UInt64, in transaction: borrowing T) throws
        -> RetentionReport
    {
        guard let latest = try latest(in: transaction)?.revision, let first = try first(in: transaction) else {
            throw ChangeLogError(
                code: .invalidArgument, message: "the log at \(path) is empty: there is nothing to drop", path: path)
        }
        guard target <= latest else {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "cannot drop the revisions before \(target): the latest revision is \(latest) and must be "
                    + "kept; pass at most \(latest)",
                revision: target, path: path)
        }
        guard target > first else {
            return RetentionReport(firstRevision: first, droppedRevisions: 0, droppedChunks: 0)
        }
        for revision in first..<target {
            try transaction.deleteRecord(revision)
        }
        try transaction.dropHistory(before: target)
        // Mark every chunk a remaining revision uses, reading each run and section once.
        var live = Set<UInt64>()
        for revision in target...latest {
            let body = try body(at: revision, in: transaction)
            for runID in body.sectionRuns where live.insert(runID).inserted {
                guard case .sections(let sectionIDs) = try chunk(runID, of: revision, in: transaction) else {
                    throw error(
                        for: ChunkFailure(chunkID: runID, kind: .inconsistent("not a section run")), revision: revision)
                }
                for sectionID in sectionIDs where live.insert(sectionID).inserted {
                    guard case .section(_, _, _, let itemChunkIDs) = try chunk(sectionID, of: revision, in: transaction)
                    else {
                        throw error(
                            for: ChunkFailure(chunkID: sectionID, kind: .inconsistent("not a section")),
                            revision: revision)
                    }
                    live.formUnion(itemChunkIDs)
                }
            }
        }
        // Sweep the others, except the newest chunk: it marks the highest identifier used, so
        // identifiers are never reused (readers cache decoded chunks by identifier).
        live.insert(try nextChunkID(in: transaction) - 1)
        let droppedChunks = try transaction.deleteChunks { id, stored in
            // Dictionaries are kept: compressed chunks name them, and a log holds one or two.
            guard let id, live.contains(id) || stored.first == Chunk.Kind.dictionary.rawValue else { return true }
            return false
        }
        return RetentionReport(
            firstRevision: target, droppedRevisions: Int(target - first), droppedChunks: droppedChunks)
    }

    private func chunk<T: LogReadTransaction & ~Copyable>(
        _ id: UInt64, of revision: UInt64, in transaction: borrowing T
    )
        throws -> Chunk
    {
        do {
            return try transaction.chunk(id).chunk
        } catch let failure as ChunkFailure {
            throw error(for: failure, revision: revision)
        }
    }
}
