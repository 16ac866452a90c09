import ChangeLog
import Foundation

// Subscriptions, retention, read-only opening and writers in other processes.
extension EngineConformance {
    /// A subscription from any revision (the first, one in the middle, the latest, the next)
    /// delivers each revision from there once, in order, then says it caught up; one that
    /// starts while appends go on passes from catching up to following them with no gap and
    /// no duplicate.
    package static func subscriptions(_ engine: EngineUnderTest, in directory: String) async throws {
        let log = try await log(engine, in: directory, revisions: 5)
        for start in UInt64(1)...6 {
            var revisions: [UInt64] = []
            var caughtUp: UInt64?
            for try await event in log.subscribe(from: start, batchSize: 2) {
                switch event {
                case .revision(let record): revisions.append(record.revision)
                case .caughtUp(let latest): caughtUp = latest
                }
                if caughtUp != nil { break }
            }
            try require(
                revisions == Array(start..<6) && caughtUp == 5,
                "a subscription from \(start) of 5 revisions delivered \(revisions), then caught up at \(caughtUp as Any)"
            )
        }
        let appender = Task {
            for revision in UInt64(6)...25 {
                _ = try await log.append(try snapshot(revision))
            }
        }
        var revisions: [UInt64] = []
        for try await event in log.subscribe(from: 2, batchSize: 3) {
            guard case .revision(let record) = event else { continue }
            revisions.append(record.revision)
            try require(
                record.snapshot == (try snapshot(record.revision)),
                "revision \(record.revision) arrived with another snapshot")
            if record.revision == 25 || revisions.count >= 24 { break }
        }
        try await appender.value
        try require(
            revisions == Array(2...25),
            "a subscription from 2 while revisions 6 to 25 were appended delivered \(revisions)")
    }

    /// Dropping the revisions before one keeps the rest readable and verifiable, and appends go
    /// on after the latest; an engine without retention refuses it with a clear error and
    /// keeps every revision.
    package static func retention(_ engine: EngineUnderTest, in directory: String) async throws {
        let log = try await log(engine, in: directory, revisions: 10)
        guard engine.retention.isSupported else {
            do {
                _ = try await log.dropRevisions(before: 6)
                throw ConformanceFailure(description: "an engine without retention dropped revisions")
            } catch let error as ChangeLogError {
                try require(!error.message.isEmpty, "the refusal of retention says nothing")
            }
            try require(
                try log.firstRevision == 1, "a refused drop left the first revision at \(try log.firstRevision)")
            try require(try await log.verify().isValid, "the log does not verify")
            return
        }
        _ = try await log.dropRevisions(before: 6)
        try require(
            try log.firstRevision == 6, "after dropping before 6 the first revision is \(try log.firstRevision)")
        try require(try log.latestRevision == 10, "after dropping the latest revision is \(try log.latestRevision)")
        try require((try? log.record(at: 5)) == nil, "dropped revision 5 still reads")
        for revision in UInt64(6)...10 {
            try require(
                try log.record(at: revision).snapshot == (try snapshot(revision)), "kept revision \(revision) changed")
        }
        let next = try await log.append(try snapshot(11))
        try require(next.revision == 11, "the append after a drop got revision \(next.revision), not 11")
        try require(try await log.verify().isValid, "the log does not verify after a drop")
    }

    /// A log opened for reading only refuses appends, batches and retention with `readOnly`,
    /// and reads, verifies and subscribes.
    package static func readOnlyRefusesWrites(_ engine: EngineUnderTest, in directory: String) async throws {
        let location = engine.location(directory)
        do {
            let writer = try engine.open(location, ChangeLog.Options())
            _ = try await writer.append(contentsOf: (1...3).map { ChangeLog.AppendEntry(try snapshot($0)) })
        }
        let log = try engine.open(location, ChangeLog.Options(readOnly: true))
        let next = try snapshot(4)
        let refusals: [(String, () async throws -> Void)] = [
            ("append", { _ = try await log.append(next) }),
            ("append(contentsOf:)", { _ = try await log.append(contentsOf: [.init(next)]) }),
            ("dropRevisions(before:)", { _ = try await log.dropRevisions(before: 2) }),
        ]
        for (name, call) in refusals {
            do {
                try await call()
                throw ConformanceFailure(description: "\(name) succeeded on a log opened for reading only")
            } catch let error as ChangeLogError {
                try require(error.code == .readOnly, "\(name) on a read-only log failed with \(error), not readOnly")
            }
        }
        try require(try log.latestRevision == 3, "the read-only log's latest revision is \(try log.latestRevision)")
        try require(try log.record(at: 3).snapshot == (try snapshot(3)), "revision 3 reads another snapshot")
        try require(try await log.verify().isValid, "the read-only log does not verify")
        var delivered: [UInt64] = []
        for try await event in log.subscribe(from: 1) {
            guard case .revision(let record) = event else { break }
            delivered.append(record.revision)
        }
        try require(delivered == [1, 2, 3], "a subscription on the read-only log delivered \(delivered)")
    }

    /// Of two processes appending with the same `expectedLatest`, exactly one wins and the
    /// other reports `conflict`; this process sees the winner's revision. Three rounds, each
    /// with two `ChangeLogWorker race` processes told to go only once both opened the log.
    package static func conflictAcrossProcesses(_ engine: EngineUnderTest, in directory: String) async throws {
        let location = engine.location(directory)
        let log = try await log(engine, in: directory, revisions: 1)
        for latest in UInt64(1)...3 {
            let workers = try (0..<2).map { index in
                try WorkerProcess(
                    [
                        "race", "--engine", engine.workerEngine, "--log", location, "--expected", "\(latest)",
                        "--seed", "\(latest * 2 + UInt64(index))",
                    ], writableInput: true)
            }
            for worker in workers { _ = try await worker.waitForLine { $0 == "ready" } }
            for worker in workers { try worker.send("go") }
            var outcomes: [String] = []
            for worker in workers {
                let status = try await worker.waitForExit()
                try require(status == 0, "a racing worker exited with \(status): \(worker.errors)")
                outcomes.append(contentsOf: worker.lines.map(\.text).filter { $0 != "ready" })
            }
            try require(
                outcomes.sorted() == ["conflict", "won \(latest + 1)"],
                "two processes expecting revision \(latest) as the latest reported \(outcomes)")
            try require(
                try log.latestRevision == latest + 1,
                "after the race this process sees revision \(try log.latestRevision), not \(latest + 1)")
        }
        try require(try await log.verify().isValid, "the log does not verify")
    }
}
