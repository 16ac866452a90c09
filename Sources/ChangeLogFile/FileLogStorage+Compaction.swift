import ChangeLog
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Retention on a log file: a write transaction that deletes is committed by writing a new file
// of what is kept and renaming it over the old one; readers reopen the replacement.
extension FileLogStorage {
    /// The most bytes of frames one transaction of a compacted file holds: the copy is written
    /// in transactions of about this size, so that it never holds the whole log in memory.
    static let compactionBatch = 4 << 20

    /// Commits `pending`, a transaction that deleted records or chunks: writes `PATH.compact`
    /// (the header, the chunks kept in ascending order, then the records kept, in ordered
    /// transactions), syncs it, takes the writer's lock on it, renames it over the path and
    /// syncs the directory, then reads on in the new file. Until the rename the old file is
    /// whole and current, so a crash leaves it as it was (a writer's open removes a left-over
    /// `PATH.compact`); after it, the new file is the log.
    ///
    /// Must be called under ``writing``.
    func compact(_ pending: PendingFrames) throws {
        if let failure = state.withLock({ $0.syncFailure }) { throw failure }
        let (old, index) = state.withLock { ($0.generation, $0.index) }
        let temporary = Self.compactionPath(of: path)
        var information = stat()
        guard fstat(old.descriptor, &information) == 0 else { throw FileEngineError.systemCall("reading the file") }
        _ = unlink(temporary)
        let descriptor = Self.systemOpen(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw FileEngineError.systemCall("creating \(temporary)") }
        let generation: FileLogGeneration
        let compacted: FileLogIndex
        do {
            _ = fchmod(descriptor, information.st_mode & 0o7777)
            compacted = try copyKept(pending, from: index, in: old.descriptor, to: descriptor)
            guard fsync(descriptor) == 0 else { throw FileEngineError.systemCall("syncing \(temporary)") }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                throw FileEngineError.systemCall("locking \(temporary)")
            }
            var written = stat()
            guard fstat(descriptor, &written) == 0 else { throw FileEngineError.systemCall("reading \(temporary)") }
            generation = FileLogGeneration(
                descriptor: descriptor, device: UInt64(written.st_dev), inode: UInt64(written.st_ino))
        } catch {
            close(descriptor)
            _ = unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            _ = unlink(temporary)
            throw FileEngineError.systemCall("renaming \(temporary) over the log file")
        }
        state.withLock { state in
            old.retiredIndex = state.index
            state.generation = generation
            state.index = compacted
            state.window = FileWindow(descriptor: generation.descriptor)
            state.unflushed = false
        }
        do {
            try Self.syncDirectory(of: path)
        } catch {
            let failure = FileEngineError(
                what: "syncing the directory after compacting, so whether the compacted file is the log after a "
                    + "power loss is unknown until the log is reopened",
                code: (error as? FileEngineError)?.code)
            state.withLock { $0.syncFailure = failure }
            throw failure
        }
    }

    /// Writes the header and what `pending` keeps of `index` (whose file is open as `source`)
    /// and of its own frames to the empty file open as `destination`; returns the new file's index.
    private func copyKept(
        _ pending: PendingFrames, from index: FileLogIndex, in source: Int32, to destination: Int32
    ) throws -> FileLogIndex {
        try Self.writeAll(FileLogLayout.header(), at: 0, to: destination)
        var compacted = FileLogIndex()
        var batch = PendingFrames(start: compacted.end, snapshot: compacted.snapshot)
        func add(_ kind: FileLogLayout.Kind, key: UInt64, old: FileLogIndex.Location?, new: Range<Int>?) throws {
            if let new {
                _ = batch.add(kind, key: key, payload: Array(pending.bytes[new]))
            } else if let old {
                _ = try withBytes(at: old, in: source) { bytes in batch.add(kind, key: key, payload: Array(bytes!)) }
            }
            guard batch.bytes.count >= Self.compactionBatch else { return }
            try flushBatch()
        }
        func flushBatch() throws {
            guard !batch.bytes.isEmpty else { return }
            var bytes = batch.bytes
            bytes += FileLogLayout.commitFrame(of: batch.bytes, start: batch.start, kind: .orderedCommit)
            try Self.writeAll(bytes, at: batch.start, to: destination)
            let end = batch.start + UInt64(bytes.count)
            if let wrong = compacted.add(batch.frames, end: end) {
                throw FileEngineError(what: "compacting: \(wrong)", reportsDamage: false)
            }
            batch = PendingFrames(start: end, snapshot: compacted.snapshot)
        }
        let chunkIDs = Set(index.chunks.keys).union(pending.chunks.keys).subtracting(pending.deletedChunks)
        for id in chunkIDs.sorted() {
            try add(.chunk, key: id, old: index.chunks[id], new: pending.chunks[id])
        }
        if let latest = pending.latestRevision {
            let first = pending.keptFrom ?? index.firstRevision
            for revision in first...latest {
                try add(
                    .record, key: revision, old: index.record(revision, in: index.snapshot),
                    new: pending.records[revision])
            }
        }
        try flushBatch()
        return compacted
    }

    /// Reopens the file now at the path, which replaced the one `state` reads: scans it into a
    /// new index; the old generation keeps its index for the reads still on it.
    ///
    /// Must be called under the state's lock, by a reader.
    func reopen(_ state: inout State) throws {
        let descriptor = Self.systemOpen(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0)
        guard descriptor >= 0 else { return }  // Gone meanwhile: read on in the open file.
        var information = stat()
        guard fstat(descriptor, &information) == 0 else {
            close(descriptor)
            throw FileEngineError.systemCall("reading the replaced log file")
        }
        let generation = FileLogGeneration(
            descriptor: descriptor, device: UInt64(information.st_dev), inode: UInt64(information.st_ino))
        let window = FileWindow(descriptor: descriptor)
        let size = UInt64(information.st_size)
        let header = try window.withBytes(at: 0, count: Int(min(size, UInt64(FileLogLayout.headerSize)))) { Array($0) }
        guard case .valid = FileLogLayout.check(header: header ?? []) else {
            throw ChangeLogError(
                code: .malformedRecord,
                message: "the log file \(path) was replaced by a file that is no log file of this layout", path: path)
        }
        var index = FileLogIndex()
        let outcome = try FileLogScanner(window: window).scan(into: &index, fileSize: size)
        if case .damage(_, let reason) = outcome {
            throw ChangeLogError(
                code: .malformedRecord,
                message: "the log file \(path) is damaged: \(reason); restore it from a backup", path: path)
        }
        state.generation.retiredIndex = state.index
        state.generation = generation
        state.index = index
        state.window = window
        state.rescans += 1
        if case .tail = outcome { state.tailSeenAtSize = size } else { state.tailSeenAtSize = nil }
    }

    /// Where a compaction of the log file at `path` writes the new file.
    static func compactionPath(of path: String) -> String {
        path + ".compact"
    }

    /// Syncs the directory holding `path`, so that a rename in it is on disk.
    static func syncDirectory(of path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = Self.systemOpen(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY, 0)
        guard descriptor >= 0 else { throw FileEngineError.systemCall("opening the log file's directory") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileEngineError.systemCall("syncing the log file's directory") }
    }
}
