import ChangeLog
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file engine of a log: the log as one append-only file (``FileLogLayout``) of the same
/// sealed records and chunks the other engines store, in pure Swift over POSIX calls.
///
/// - One writing process at a time: a writer holds an exclusive `flock` on the file from its
///   open to its release; a second writer (in any process, this one included) is refused.
/// - A write transaction is buffered and appended after the file's end, ended by its commit
///   frame; it counts only once that frame is whole and checks.
/// - Readers never lock: a read first re-scans what was appended since the last one (only
///   committed transactions count), then sees the file as it was at that moment. A tail it
///   found is not scanned again while the file's size stays the same.
/// - Durability: ``ChangeLog/Durability/durable`` writes a transaction's frames, syncs the file
///   (`fsync`), then writes its ordered commit frame and syncs again before an append returns;
///   ``ChangeLog/Durability/noMetaSync`` does the same with `fdatasync` (which skips
///   timestamps). So damage to a synced transaction is refused, never cut as a tail
///   (``FileLogLayout``). ``ChangeLog/Durability/noSync`` writes each transaction and its
///   commit frame in one `pwrite` and never syncs but on ``flush()``, which syncs and then
///   appends an ordered commit frame of no frames: a process killed loses nothing it appended;
///   after a power loss the log opens at the last flush or later (what follows the first
///   transaction that did not reach the disk is cut as a tail), and damage before the last
///   flush is refused.
/// - Retention compacts: a write transaction that deletes records or chunks is committed by
///   writing what is kept, and that transaction's frames, into `PATH.compact`, syncing it and
///   renaming it over the path (``FileLogStorage/compact(_:)``): all or nothing, a crash leaves
///   the old file whole. Readers notice the replacement (device and inode) at their next read
///   and reopen; a read that began before keeps reading the old file.
/// - There is no history index: histories are answered by reading the revisions.
final class FileLogStorage: LogStorage {
    let path: String
    let isReadOnly: Bool
    /// How appends are synced.
    let durability: ChangeLog.Durability
    /// The torn tail this open found after the last committed transaction: cut away by a
    /// writer, ignored by a reader.
    let tornTail: FileLogTornTail?

    struct State {
        /// The file open now; a compaction replaces it.
        var generation: FileLogGeneration
        /// The current generation's index.
        var index: FileLogIndex
        var window: FileWindow
        /// Set when a sync failed: whether the last transaction reached the disk is unknown, and
        /// other processes may already read it, so this instance writes nothing more.
        var syncFailure: FileEngineError?
        /// The file's size when a reader's scan last ended in a tail: while the size stays so,
        /// the tail is not scanned again.
        var tailSeenAtSize: UInt64?
        /// How many re-scans this instance ran, for the tests.
        var rescans = 0
        /// Whether a ``ChangeLog/Durability/noSync`` transaction was appended since the last
        /// ordered commit frame.
        var unflushed = false
        /// The size the writer keeps the file under (``revisionToKeepFrom()``), if any.
        var sizeBudget: Int?
    }

    let state: Mutex<State>
    /// Serializes this instance's write transactions.
    let writing = NSLock()

    init(
        path: String, descriptor: Int32, readOnly: Bool, durability: ChangeLog.Durability, index: FileLogIndex,
        identity: (UInt64, UInt64), tornTail: FileLogTornTail?
    ) {
        let generation = FileLogGeneration(descriptor: descriptor, device: identity.0, inode: identity.1)
        var initial = State(generation: generation, index: index, window: FileWindow(descriptor: descriptor))
        // What an earlier noSync writer appended may not be flushed: the first flush says so.
        initial.unflushed = !readOnly && durability == .noSync
        if readOnly, let tornTail { initial.tailSeenAtSize = tornTail.offset + tornTail.length }
        self.path = path
        self.isReadOnly = readOnly
        self.durability = durability
        self.tornTail = tornTail
        state = Mutex(initial)
    }

    /// The current generation's descriptor; a writer's stays the same while it holds ``writing``.
    var descriptor: Int32 {
        state.withLock { $0.generation.descriptor }
    }

    // MARK: - Transactions

    func read<R>(_ body: (borrowing any LogReadTransaction & ~Copyable) throws -> R) throws -> R {
        let (generation, snapshot) = try refreshed()
        return try body(FileLogTransaction(storage: self, generation: generation, snapshot: snapshot, pending: nil))
    }

    func write<R>(appending: Bool, _ body: (borrowing any LogWriteTransaction & ~Copyable) throws -> R) throws -> R {
        writing.lock()
        defer { writing.unlock() }
        let (generation, snapshot) = try refreshed()
        let pending = PendingFrames(start: snapshot.end, snapshot: snapshot)
        let result = try body(
            FileLogTransaction(storage: self, generation: generation, snapshot: snapshot, pending: pending))
        if pending.deletes {
            try compact(pending)
        } else {
            try commit(pending)
        }
        return result
    }

    /// The generation and index as a read beginning now sees them: a file that replaced the
    /// one open reopened, what other writers committed since the last read added first (a
    /// writer's own index is always whole).
    private func refreshed() throws -> (FileLogGeneration, FileLogIndex.Snapshot) {
        try state.withLock { state throws -> (FileLogGeneration, FileLogIndex.Snapshot) in
            guard isReadOnly else { return (state.generation, state.index.snapshot) }
            if !state.generation.isAt(path) { try reopen(&state) }
            let size = try Self.fileSize(of: state.generation.descriptor)
            guard size != state.index.end, size != state.tailSeenAtSize else {
                return (state.generation, state.index.snapshot)
            }
            guard size > state.index.end else {
                throw FileEngineError(
                    what: "the file ends at offset \(size), before the end of what was committed, \(state.index.end)",
                    reportsDamage: true)
            }
            state.window.invalidate()
            state.rescans += 1
            let outcome = try FileLogScanner(window: state.window).scan(into: &state.index, fileSize: size)
            if case .tail = outcome { state.tailSeenAtSize = size } else { state.tailSeenAtSize = nil }
            if case .damage(_, let reason) = outcome {
                throw ChangeLogError(
                    code: .malformedRecord,
                    message: "the log file \(path) is damaged: \(reason); restore it from a backup", path: path)
            }
            return (state.generation, state.index.snapshot)
        }
    }

    /// The size of the file open as `descriptor` now.
    static func fileSize(of descriptor: Int32) throws -> UInt64 {
        var information = stat()
        guard fstat(descriptor, &information) == 0 else { throw FileEngineError.systemCall("reading the file's size") }
        return UInt64(information.st_size)
    }

    /// How many times a read re-scanned the file (a reader's count), for the tests.
    var rescans: Int {
        state.withLock { $0.rescans }
    }

    /// Appends `pending`'s frames and their commit frame, syncs as the durability says, and
    /// adds them to the index. Nothing to append, nothing is written.
    private func commit(_ pending: PendingFrames) throws {
        guard !pending.bytes.isEmpty else { return }
        if let failure = state.withLock({ $0.syncFailure }) { throw failure }
        let end: UInt64
        if durability == .noSync {
            var bytes = pending.bytes
            bytes += FileLogLayout.commitFrame(of: pending.bytes, start: pending.start, kind: .commit)
            try append(bytes, at: pending.start)
            end = pending.start + UInt64(bytes.count)
            state.withLock { $0.unflushed = true }
        } else {
            end = try appendOrdered(pending.bytes, at: pending.start)
        }
        let frames = pending.frames
        let wrong = state.withLock { state in state.index.add(frames, end: end) }
        // The writer holds the lock and builds on its own index: a transaction the index refuses
        // is a defect of this engine, which must not go on writing over it.
        precondition(wrong == nil, "a transaction of this writer does not continue the log: \(wrong ?? "")")
    }

    /// Writes `frames` at `start`, syncs, writes their ordered commit frame after them and syncs
    /// again; returns where the transaction ends.
    private func appendOrdered(_ frames: [UInt8], at start: UInt64) throws -> UInt64 {
        try append(frames, at: start)
        try syncOrStop()
        let commitAt = start + UInt64(frames.count)
        try append(FileLogLayout.commitFrame(of: frames, start: start, kind: .orderedCommit), at: commitAt)
        try syncOrStop()
        return commitAt + UInt64(FileLogLayout.commitFrameSize)
    }

    /// Writes `bytes` at `offset`, cutting them away again if the write fails.
    private func append(_ bytes: [UInt8], at offset: UInt64) throws {
        do {
            try Self.writeAll(bytes, at: offset, to: descriptor)
        } catch {
            // Without its whole commit frame the transaction is no transaction to a reader; cut
            // it, so that nothing of it stays for a later one to follow (a full disk recovers).
            _ = ftruncate(descriptor, off_t(offset))
            throw error
        }
    }

    /// Syncs the file as the durability says; a failure stops this writer.
    private func syncOrStop() throws {
        do {
            try sync(durability == .noSync ? .durable : durability)
        } catch {
            // The transaction may be on disk or not, and readers may have seen it: it is neither
            // cut nor followed. Reopening the log (a writer's open cuts a tail that did not
            // reach the disk whole) tells which.
            let failure = FileEngineError(
                what: "syncing the file, so whether the last append reached the disk is unknown until the log "
                    + "is reopened",
                code: (error as? FileEngineError)?.code)
            state.withLock { $0.syncFailure = failure }
            throw failure
        }
    }

    /// Writes all of `bytes` at `offset`.
    static func writeAll(_ bytes: [UInt8], at offset: UInt64, to descriptor: Int32) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                pwrite(
                    descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(offset) + off_t(written))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw FileEngineError.systemCall("writing \(bytes.count) bytes at offset \(offset)")
            }
            written += result
        }
    }

    /// Syncs the file as `durability` says an append must.
    private func sync(_ durability: ChangeLog.Durability) throws {
        switch durability {
        case .noSync: return
        case .noMetaSync: try syncData()
        default: try syncAll()
        }
    }

    private func syncAll() throws {
        guard fsync(descriptor) == 0 else { throw FileEngineError.systemCall("syncing the file (fsync)") }
    }

    private func syncData() throws {
        #if canImport(Darwin)
            try syncAll()
        #else
            guard fdatasync(descriptor) == 0 else { throw FileEngineError.systemCall("syncing the file (fdatasync)") }
        #endif
    }

    // MARK: - Reading bytes

    /// The location of what `lookup` finds in `generation`'s index, under the index's lock.
    func location(in generation: FileLogGeneration, _ lookup: (FileLogIndex) -> FileLogIndex.Location?)
        -> FileLogIndex.Location?
    {
        state.withLock { state in
            state.generation === generation ? lookup(state.index) : generation.retiredIndex.flatMap(lookup)
        }
    }

    /// Lends the `location`'s bytes, read from the file open as `descriptor`, to `body`.
    func withBytes<R>(
        at location: FileLogIndex.Location, in descriptor: Int32, _ body: (UnsafeRawBufferPointer?) throws -> R
    ) throws -> R {
        var bytes = [UInt8](repeating: 0, count: location.length)
        var read = 0
        while read < location.length {
            let result = bytes.withUnsafeMutableBytes { buffer in
                pread(
                    descriptor, buffer.baseAddress! + read, location.length - read, off_t(location.offset) + off_t(read)
                )
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw FileEngineError.systemCall("reading \(location.length) bytes at offset \(location.offset)")
            }
            guard result > 0 else {
                throw FileEngineError(
                    what: "the file ends before the \(location.length) bytes committed at offset \(location.offset)",
                    reportsDamage: true)
            }
            read += result
        }
        return try bytes.withUnsafeBytes { try body($0) }
    }

    // MARK: - Watching, history, space

    func makeCommitWatcher(pollInterval: Duration, watchesFiles: Bool, check: @escaping @Sendable () -> Void)
        -> any CommitWatcher
    {
        LogFileWatcher(dataFile: path, pollInterval: pollInterval, watchesFile: watchesFiles, check: check)
    }

    func historyIndex() -> any HistoryIndexStorage {
        NoHistoryIndex()
    }

    /// The file engine keeps no history index.
    var indexesHistory: Bool { false }

    /// Syncs the file. After ``ChangeLog/Durability/noSync`` appends it also appends an ordered
    /// commit frame of no frames and syncs it: what was appended before it is then protected
    /// like a durable append (damage to it is refused, not cut after a power loss).
    func flush() throws(ChangeLogError) {
        guard !isReadOnly else { return }
        writing.lock()
        defer { writing.unlock() }
        do {
            guard state.withLock({ $0.unflushed }) else { return try syncAll() }
            if let failure = state.withLock({ $0.syncFailure }) { throw failure }
            let start = state.withLock { $0.index.end }
            let end = try appendOrdered([], at: start)
            let wrong = state.withLock { state in
                state.unflushed = false
                return state.index.add([], end: end)
            }
            precondition(wrong == nil, "an empty transaction does not continue the log: \(wrong ?? "")")
        } catch {
            throw ChangeLogError(
                code: .storage, message: "cannot flush the log file \(path): \(error)", path: path,
                cause: error as? FileEngineError)
        }
    }

    var bytesInUse: Int {
        Int(state.withLock { $0.index.end })
    }

    func space() throws(ChangeLogError) -> StorageSpace {
        let size = (try? Self.fileSize(of: descriptor)) ?? 0
        return StorageSpace(bytesOnDisk: Int(size), bytesInUse: bytesInUse, bytesFree: 0)
    }

    /// Whether the file at the path is the one open. A writer's compaction replaces the file
    /// with the same log, and the writer then holds the new one, so this stays true for the
    /// writer; a reader reopens the replacement at its next read.
    var isStillAtPath: Bool {
        state.withLock { $0.generation }.isAt(path)
    }
}
