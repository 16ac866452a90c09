// Checking, when an untrusted log opens, that its databases hold what their names say.
extension LogStore {
    /// Checks that the revisions database holds revision records: the first and the latest
    /// revision's records decode, and the first chunk the latest names is in the chunks
    /// database.
    ///
    /// The page walk of an untrusted log (`ChangeLog.Options.untrusted`) proves the B-trees
    /// sound, not that each is the tree its name says: a log whose main database names the chunks
    /// tree as its revisions (two records exchanged) walks clean, and would be read as revisions
    /// numbered after chunk IDs. Every reader of such a log fails at its first record; this makes
    /// every opener, a server too, refuse it at once instead of reporting its keys.
    ///
    /// - Throws: ``ChangeLogError`` naming the revision whose record fails
    ///   (``ChangeLogError/Code/malformedRecord``, ``ChangeLogError/Code/checksumMismatch``,
    ///   ``ChangeLogError/Code/unsupportedFormat``), or a key that is not a revision's.
    /// - Complexity: two record reads and one chunk lookup.
    func checkRecords() throws(ChangeLogError) {
        try read(during: "opening") { transaction in
            guard let latest = try latest(in: transaction)?.revision, let first = try first(in: transaction) else {
                return
            }
            _ = try body(at: first, in: transaction)
            let body = try body(at: latest, in: transaction)
            guard let run = body.sectionRuns.first else { return }
            let present = try transaction.withChunk(run) { $0 != nil }
            guard present else {
                throw ChangeLogError(
                    code: .malformedRecord,
                    message: "the record of revision \(latest) names chunk \(run), which the log at \(path) does not "
                        + "hold: its databases were exchanged or damaged; restore the log from a backup",
                    revision: latest, path: path)
            }
        }
    }
}
