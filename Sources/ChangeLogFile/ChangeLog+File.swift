import ChangeLog

extension ChangeLog {
    /// Opens the log stored in the file at `path` (the file engine, `FileLogLayout`), creating
    /// the file and an empty log when `Options.createIfMissing` allows it. The log works as one
    /// on LMDB does: appending, every reading API, verify, play and subscriptions.
    ///
    /// What the options mean for a file: `Options.durability` says how appends are synced
    /// (`Durability.durable`: the frames, then the commit frame, each synced with `fsync`
    /// before an append returns; `Durability.noMetaSync`: the same with `fdatasync`;
    /// `Durability.noSync`: only `flush()` syncs, and a power loss may cut what followed the
    /// last flush, never what preceded it); `Options.readOnly` opens without
    /// the writer's lock; `Options.fileMode` is the new file's mode; `Options.untrusted` checks
    /// every record at open. The map and reader options are LMDB's, and ignored.
    ///
    /// Retention compacts: `dropRevisions(before:)` writes what is kept into `PATH.compact`,
    /// syncs it and renames it over `PATH` (whatever the durability), so the file shrinks, and a
    /// crash before the rename leaves the old file whole (the next writer's open removes the
    /// left-over `PATH.compact`). Readers, in this process or others, reopen the new file at
    /// their next read; a read that began before finishes on the old one.
    ///
    /// One process writes at a time: a writer holds an exclusive lock on the file until it is
    /// released, and a second writer, in any process, is refused. Readers see what writers
    /// committed (flushed or not), each read picking up what was appended since the last.
    ///
    /// Opening scans the file. A tail after the last committed transaction (a write cut short)
    /// is cut away by a writer and ignored by a reader; either way `fileTornTail` reports it.
    ///
    /// - Throws: `ChangeLogError` with `ChangeLogError.Code.logNotFound` (no file, and the
    ///   open may not create one), `ChangeLogError.Code.cannotOpen` (a directory, a link, a
    ///   special file, no permission, not a log file, damage before the tail, another writer),
    ///   `ChangeLogError.Code.unsupportedFormat` (another layout version),
    ///   `ChangeLogError.Code.invalidArgument` (an empty path, a bad file mode).
    public convenience init(fileAt path: String, options: Options = Options()) throws(ChangeLogError) {
        try Self.checkPath(path)
        try Self.checkFileMode(options.fileMode, path: path)
        let storage = try FileLogStorage.open(path: path, options: options)
        try self.init(storage: storage, options: options)
    }

    /// Opens the log stored in the file at `path` as ``init(fileAt:options:)`` does, and keeps
    /// the file within `sizeBudget` bytes: after a commit that takes the file past it, the
    /// writer drops the oldest revisions (as `dropRevisions(before:)` does, compacting the file)
    /// before the appends return, keeping the revisions whose records lie in the last half of
    /// the budget. What is kept is the newest history, from a revision whose snapshot is whole,
    /// so it reads and verifies; the latest revision is always kept, so a single revision
    /// larger than the budget leaves the file over it. The budget applies to a writer; a
    /// reader ignores it. A drop that fails leaves the appends committed, and is tried again
    /// after the next commit.
    ///
    /// - Parameters:
    ///   - path: the log file's path.
    ///   - options: as for ``init(fileAt:options:)``.
    ///   - sizeBudget: the most bytes the file should take after each commit, at least 4096.
    /// - Throws: as ``init(fileAt:options:)``, and `ChangeLogError.Code.invalidArgument` for a
    ///   budget under 4096 bytes.
    public convenience init(fileAt path: String, options: Options = Options(), sizeBudget: Int)
        throws(ChangeLogError)
    {
        guard sizeBudget >= 4096 else {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "a log file's size budget of \(sizeBudget) bytes is too small: pass at least 4096",
                path: path)
        }
        try Self.checkPath(path)
        try Self.checkFileMode(options.fileMode, path: path)
        let storage = try FileLogStorage.open(path: path, options: options)
        if !options.readOnly { storage.setSizeBudget(sizeBudget) }
        try self.init(storage: storage, options: options)
    }

    /// The torn tail the open of this log file found after its last committed transaction, or
    /// `nil` when there was none, or the log is not a file (`init(fileAt:options:)`).
    public var fileTornTail: FileLogTornTail? {
        (storage as? FileLogStorage)?.tornTail
    }
}
