import ChangeLog
import Foundation

/// The engine-level guarantees of a log, written once against `ChangeLog`'s API and checked on
/// every engine (``EngineUnderTest``): each check opens a new log of the engine in `directory`
/// (a fresh empty directory) and throws a ``ConformanceFailure`` naming what it saw when the
/// engine breaks the guarantee.
package enum EngineConformance {
    /// The snapshot of revision `revision` in every check: a few sections and items, each
    /// revision's its own.
    package static func snapshot(_ revision: UInt64, seed: UInt64 = 7) throws -> LogSnapshot {
        try CrashContent.snapshot(seed: seed, revision: revision, items: 8)
    }

    /// Opens a new log of `engine` in `directory` holding revisions 1 to `count`.
    package static func log(
        _ engine: EngineUnderTest, in directory: String, revisions count: UInt64
    ) async throws -> ChangeLog {
        let log = try engine.open(engine.location(directory), ChangeLog.Options())
        if count > 0 {
            _ = try await log.append(contentsOf: (1...count).map { ChangeLog.AppendEntry(try snapshot($0)) })
        }
        return log
    }

    /// Revisions are numbered from 1 without gaps, by single appends and batches alike, and
    /// each reads back as appended.
    package static func revisionsFromOneWithoutGaps(_ engine: EngineUnderTest, in directory: String) async throws {
        let log = try await log(engine, in: directory, revisions: 0)
        try require(try log.latestRevision == 0, "a new log's latest revision is \(try log.latestRevision), not 0")
        for revision in UInt64(1)...3 {
            let appended = try await log.append(try snapshot(revision))
            try require(appended.revision == revision, "append \(revision) got revision \(appended.revision)")
        }
        let batch = try await log.append(contentsOf: (4...7).map { ChangeLog.AppendEntry(try snapshot($0)) })
        try require(batch.map(\.revision) == [4, 5, 6, 7], "a batch after 3 got revisions \(batch.map(\.revision))")
        try require(try log.firstRevision == 1, "the first revision is \(try log.firstRevision), not 1")
        try require(try log.latestRevision == 7, "the latest revision is \(try log.latestRevision), not 7")
        for revision in UInt64(1)...7 {
            let record = try log.record(at: revision)
            try require(record.revision == revision, "record(at: \(revision)) is revision \(record.revision)")
            try require(record.snapshot == (try snapshot(revision)), "revision \(revision) reads another snapshot")
        }
        try require(try await log.verify().isValid, "the log does not verify")
    }

    /// Of two appends racing with the same `expectedLatest` in one process, exactly one wins;
    /// the other fails with `conflict` and stores nothing. Five rounds.
    package static func conflictInProcess(_ engine: EngineUnderTest, in directory: String) async throws {
        let log = try await log(engine, in: directory, revisions: 1)
        for latest in UInt64(1)...5 {
            let (one, other) = (try snapshot(latest + 1), try snapshot(latest + 1, seed: 8))
            async let first = attempt(log, one, expectedLatest: latest)
            async let second = attempt(log, other, expectedLatest: latest)
            let outcomes = await [first, second]
            let won = outcomes.compactMap { try? $0.get() }
            let conflicts = outcomes.filter {
                if case .failure(let error) = $0 { error.code == .conflict } else { false }
            }
            try require(
                won == [latest + 1] && conflicts.count == 1,
                "two appends expecting revision \(latest) as the latest ended \(outcomes): one must win revision "
                    + "\(latest + 1), the other conflict")
        }
        try require(try log.latestRevision == 6, "after five races the latest revision is \(try log.latestRevision)")
        try require(try await log.verify().isValid, "the log does not verify")
    }

    /// The revision an append got, or its error.
    private static func attempt(
        _ log: ChangeLog, _ snapshot: LogSnapshot, expectedLatest: UInt64
    ) async -> Result<UInt64, ChangeLogError> {
        do {
            return .success(try await log.append(snapshot, expectedLatest: expectedLatest).revision)
        } catch {
            return .failure(error)
        }
    }

    /// A batch with one invalid entry (changes that do not take the previous snapshot to its
    /// own) stores none of its entries, and the next append takes the number the batch would
    /// have taken.
    package static func batchIsAllOrNothing(_ engine: EngineUnderTest, in directory: String) async throws {
        let log = try await log(engine, in: directory, revisions: 2)
        let entries = [
            ChangeLog.AppendEntry(try snapshot(3)),
            ChangeLog.AppendEntry(try snapshot(4), changes: LogChanges(deletedSections: [9]), verifiesChanges: true),
            ChangeLog.AppendEntry(try snapshot(5)),
        ]
        do {
            let appended = try await log.append(contentsOf: entries)
            throw ConformanceFailure(
                description: "a batch with invalid changes was stored as \(appended.map(\.revision))")
        } catch let error as ChangeLogError {
            try require(error.code == .invalidChanges, "the invalid batch failed with \(error), not invalidChanges")
        }
        try require(
            try log.latestRevision == 2, "a refused batch left the latest revision at \(try log.latestRevision)")
        let next = try await log.append(try snapshot(3))
        try require(next.revision == 3, "the append after a refused batch got revision \(next.revision), not 3")
        try require(try await log.verify().isValid, "the log does not verify")
    }

    /// Appends queued while a transaction commits share the next one (group commit), and each
    /// caller still gets its own revision, with its own snapshot stored there.
    ///
    /// The engine's storage is wrapped (``GatedLogStorage``): the first append's transaction is
    /// held at its start until every other appender has called `append`, then let go.
    package static func groupCommit(_ engine: EngineUnderTest, in directory: String) async throws {
        let opened = try engine.open(engine.location(directory), ChangeLog.Options())
        let storage = GatedLogStorage(opened.storage)
        let log = try ChangeLog(storage: storage, options: opened.options)
        let appenders = 12
        storage.holdNextWrite()
        let first = Task { try await log.append(try snapshot(1)).revision }
        await storage.waitUntilHeld()
        let (arrivals, arrival) = AsyncStream<Void>.makeStream()
        let others = (2...UInt64(appenders) + 1).map { index in
            Task {
                arrival.yield()
                return (index, try await log.append(try snapshot(index)).revision)
            }
        }
        var arrived = 0
        for await _ in arrivals {
            arrived += 1
            if arrived == appenders { break }
        }
        storage.release()
        try require(try await first.value == 1, "the first append did not get revision 1")
        var revisionOf: [UInt64: UInt64] = [:]
        for task in others {
            let (index, revision) = try await task.value
            revisionOf[index] = revision
        }
        let revisions = revisionOf.values.sorted()
        try require(
            revisions == Array(2...UInt64(appenders) + 1),
            "\(appenders) concurrent appends after revision 1 got revisions \(revisions)")
        for (index, revision) in revisionOf {
            try require(
                try log.record(at: revision).snapshot == (try snapshot(index)),
                "revision \(revision) does not hold the snapshot its caller appended")
        }
        try require(
            storage.writes < appenders + 1,
            "\(appenders + 1) appends took \(storage.writes) write transactions: none shared one")
        try require(try await log.verify().isValid, "the log does not verify")
    }
}
