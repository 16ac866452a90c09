import Foundation
import Testing

@testable import ChangeLog

/// SIGKILL at random moments of every write path: retention, map growth, the refill of the
/// space kept ahead of `data.mdb`, batched appends and imports, the relaxed durability modes,
/// and a writer killed while another process keeps appending. After each kill the log must
/// open (read-only and read-write), verify, hold revisions without a gap from its first to its
/// latest, hold every revision a worker reported committed with the content `CrashContent`
/// gives it, keep its first revision either where it was or where a retention begun put it,
/// and take a new append. The workers are `ChangeLogWorker write` (Tests/ChangeLogWorker).
@Suite("Crash safety of every write path", .serialized, .timeLimit(.minutes(3)))
struct CrashSafetyTests {
    /// One kind of worker to kill, and how.
    struct Scenario: CustomStringConvertible {
        var name: String
        /// The worker's arguments after `write --log PATH --content-seed S`.
        var arguments: [String]
        /// Revisions per transaction: the log grows by multiples of it (one writer).
        var batch: UInt64 = 1
        /// Options the parent opens the log with for writing.
        var options = ChangeLog.Options(createIfMissing: false)
        /// In odd rounds, the line (prefix) after which the random delay starts, instead of `ready`.
        var armOn: String?
        /// In odd rounds, kill as soon as `data.mdb` grows after `ready`, instead of at random.
        var killOnFileGrowth = false
        /// The size of `CrashContent`'s item pool.
        var items = 120
        /// The longest random delay before a kill, in microseconds, after `ready` or `armOn`.
        var maxDelay = 30_000
        var armedMaxDelay = 30_000
        /// Revisions the log holds before the first kill, appended in one transaction.
        var prefill: UInt64 = 0
        var description: String { name }
    }

    static let contentSeed: UInt64 = 0xC4A5_11FE

    @Test("a retention (dropRevisions) killed at random moments leaves the old or the new first revision")
    func retention() async throws {
        try await run(
            Scenario(
                name: "retention", arguments: ["--batch", "4", "--drop-every", "1", "--keep", "3"],
                batch: 4, armOn: "dropping ", items: 300, armedMaxDelay: 3_000))
    }

    @Test("appends killed while the map grows from 32 KB")
    func mapGrowth() async throws {
        try await run(
            Scenario(
                name: "map growth", arguments: ["--map-size", "32768", "--reopen-every", "6"],
                options: .init(createIfMissing: false, initialMapSize: 32 << 10), items: 200))
    }

    @Test("appends killed while the space ahead of data.mdb is refilled")
    func reserveRefill() async throws {
        try await run(
            Scenario(
                name: "reserve refill", arguments: [], killOnFileGrowth: true, items: 2000, maxDelay: 60_000,
                prefill: 200))
    }

    @Test("batched appends (append(contentsOf:)) killed at random moments are all or nothing")
    func batchedAppends() async throws {
        try await run(Scenario(name: "batched appends", arguments: ["--batch", "7"], batch: 7))
    }

    @Test("imports (SnapshotImporter, commitEvery 5) killed at random moments keep whole transactions")
    func imports() async throws {
        try await run(
            Scenario(
                name: "import", arguments: ["--batch", "5", "--import", "3"], batch: 5, armOn: "importing ",
                maxDelay: 60_000, armedMaxDelay: 60_000))
    }

    @Test(
        "a process killed under a relaxed durability mode loses nothing committed",
        arguments: ["noMetaSync", "noSync"])
    func relaxedDurability(mode: String) async throws {
        try await run(
            Scenario(
                name: mode, arguments: ["--durability", mode, "--batch", "2", "--drop-every", "5", "--keep", "20"],
                batch: 2))
    }

    /// Kills `scenario`'s worker 20 times, checking the log after each kill.
    private func run(_ scenario: Scenario, rounds: Int = 20) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            var state = try LogState.created(at: path, items: scenario.items, options: scenario.options)
            if scenario.prefill > 0 {
                let worker = try WorkerProcess([
                    "write", "--log", path, "--content-seed", "\(Self.contentSeed)", "--items", "\(scenario.items)",
                    "--batch", "\(scenario.prefill)", "--transactions", "1",
                ])
                #expect(try await worker.waitForExit() == 0, "\(worker.errors)")
                state.latest = scenario.prefill
                state.first = 1
            }
            let nameHash = scenario.name.utf8.reduce(UInt64(0xCBF2_9CE4_8422_2325)) {
                ($0 ^ UInt64($1)) &* 0x100_0000_01B3
            }
            var generator = SeededGenerator(seed: nameHash)
            var mapSizes: Set<Int> = []
            var delays: [Int] = []
            var killedCommitted = 0
            var killedDropping = 0
            var killedRefilling = 0
            for round in 0..<rounds {
                let worker = try WorkerProcess(
                    [
                        "write", "--log", path, "--content-seed", "\(Self.contentSeed)", "--writer", "round\(round)",
                        "--items", "\(scenario.items)",
                    ] + scenario.arguments)
                let armed = round % 2 == 1 && scenario.armOn != nil
                let delay = Int.random(in: 0..<(armed ? scenario.armedMaxDelay : scenario.maxDelay), using: &generator)
                delays.append(delay)
                var sizeAtReady = -1
                if round % 5 == 0 {
                    // Any moment from the start, opening the log included.
                    try await Task.sleep(for: .microseconds(delay))
                } else if round % 2 == 1, scenario.killOnFileGrowth {
                    _ = try await worker.waitForLine { $0.hasPrefix("ready ") }
                    sizeAtReady = fileSize(path + "/data.mdb")
                    let deadline = ContinuousClock.now + .seconds(5)
                    while fileSize(path + "/data.mdb") == sizeAtReady, ContinuousClock.now < deadline {}
                } else {
                    let arm = armed ? scenario.armOn ?? "ready " : "ready "
                    _ = try await worker.waitForLine { $0.hasPrefix(arm) }
                    try await Task.sleep(for: .microseconds(delay))
                }
                worker.kill()
                let status = try await worker.waitForExit()
                #expect(status == SIGKILL, "round \(round): the worker ended by itself: \(worker.errors)")
                let lines = worker.lines.map(\.text)
                if lines.contains(where: { $0.hasPrefix("committed ") || $0.hasPrefix("imported ") }) {
                    killedCommitted += 1
                }
                if let last = lines.last, last.hasPrefix("dropping ") { killedDropping += 1 }
                let sizeAtDeath = fileSize(path + "/data.mdb")
                state = try await state.checked(
                    afterRound: round, lines: lines, batch: scenario.batch, contentSeed: Self.contentSeed,
                    options: scenario.options)
                mapSizes.insert(recordedMapSize(path + "/data.mdb"))
                if sizeAtReady >= 0, sizeAtDeath > sizeAtReady, sizeAtDeath < state.refilledEnd {
                    killedRefilling += 1
                }
                state = try await state.appendingOne(options: scenario.options, contentSeed: Self.contentSeed)
            }
            let report = try await ChangeLog(path: path, options: scenario.options).verify()
            #expect(report.isValid, "\(report)")
            #expect(report.revisionsChecked == Int(state.latest - state.first + 1))
            print(
                "crash safety, \(scenario): \(rounds) SIGKILLs (delays in µs: \(delays)); \(killedCommitted) after a "
                    + "commit, \(killedDropping) while dropping, \(killedRefilling) with the reserve's refill "
                    + "unfinished; map sizes the workers committed with: \(mapSizes.sorted()); revisions \(state.first) to "
                    + "\(state.latest), every one checked")
            if scenario.options.initialMapSize < 1 << 20 {
                #expect(mapSizes.count > 2, "the map did not grow: \(mapSizes.sorted())")
            }
        }
    }

    @Test("a writer killed 20 times while another process keeps appending: the other never stalls, nothing is lost")
    func killedBesideAnotherWriter() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            let options = ChangeLog.Options(createIfMissing: false)
            var state = try LogState.created(at: path, items: 120, options: .init(maxReaders: 12))
            let stopFile = directory + "/stop"
            let steady = try WorkerProcess([
                "write", "--log", path, "--content-seed", "\(Self.contentSeed)", "--writer", "steady", "--stop-file",
                stopFile, "--pause-ms", "3",
            ])
            _ = try await steady.waitForLine { $0.hasPrefix("ready ") }
            var generator = SeededGenerator(seed: 0x5EED_0006)
            var delays: [Int] = []
            var killedCommitted = 0
            var allLines: [String] = []
            for round in 0..<20 {
                let arguments =
                    round % 2 == 0 ? ["--batch", "3"] : ["--batch", "2", "--drop-every", "1", "--keep", "40"]
                let worker = try WorkerProcess(
                    ["write", "--log", path, "--content-seed", "\(Self.contentSeed)", "--writer", "round\(round)"]
                        + arguments)
                let delay = Int.random(in: 0..<30_000, using: &generator)
                delays.append(delay)
                if round % 5 != 0 {
                    _ = try await worker.waitForLine { $0.hasPrefix("ready ") }
                }
                try await Task.sleep(for: .microseconds(delay))
                worker.kill()
                #expect(try await worker.waitForExit() == SIGKILL, "round \(round): \(worker.errors)")
                if worker.lines.contains(where: { $0.text.hasPrefix("committed ") }) { killedCommitted += 1 }
                // The other writer goes on: a dead writer's lock is recovered, its reader slots too.
                let seen = steady.lines.count
                _ = try await steady.waitForLine(after: seen) { $0.hasPrefix("committed ") }
                allLines += worker.lines.map(\.text)
                state = try await state.checked(
                    afterRound: round, lines: allLines + steady.lines.map(\.text), batch: 1,
                    contentSeed: Self.contentSeed, options: options, concurrent: true)
            }
            _ = FileManager.default.createFile(atPath: stopFile, contents: nil)
            #expect(try await steady.waitForExit() == 0, "\(steady.errors)")
            state = try await state.checked(
                afterRound: 20, lines: allLines + steady.lines.map(\.text), batch: 1, contentSeed: Self.contentSeed,
                options: options, concurrent: true)
            state = try await state.appendingOne(options: options, contentSeed: Self.contentSeed)
            let report = try await ChangeLog(path: path, options: options).verify()
            #expect(report.isValid, "\(report)")
            #expect(report.revisionsChecked == Int(state.latest - state.first + 1))
            let steadyCommits = steady.lines.count { $0.text.hasPrefix("committed ") }
            print(
                "crash safety, beside another writer: 20 SIGKILLs (delays in µs: \(delays)), \(killedCommitted) "
                    + "after a commit; the other process committed \(steadyCommits) transactions; revisions "
                    + "\(state.first) to \(state.latest)")
        }
    }

    @Test("a process killed holding LMDB's writer lock, with a write in its transaction: the next writer goes on")
    func deadWriterLock() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            var state = try LogState.created(at: path, items: 120, options: .init())
            state = try await state.appendingOne(options: .init(), contentSeed: Self.contentSeed)
            // The log stays open in this process while the other one dies holding the lock.
            let log = try ChangeLog(path: path)
            for round in 0..<3 {
                let worker = try WorkerProcess(["hold-writer", "--log", path])
                _ = try await worker.waitForLine { $0 == "holding" }
                worker.kill()
                #expect(try await worker.waitForExit() == SIGKILL)
                let next = state.latest + 1
                let appended = try await log.append(
                    try CrashContent.snapshot(seed: Self.contentSeed, revision: next, items: 120),
                    meta: CrashContent.meta(revision: next, writer: "parent"))
                #expect(appended.revision == next)
                state = try await state.checked(
                    afterRound: round, lines: [], batch: 1, contentSeed: Self.contentSeed, options: .init(),
                    sharingWith: log)
                #expect(
                    try log.store.read(during: "checking") {
                        try $0.value(forKey: Array("left by a dead writer".utf8), in: log.store.meta)
                    } == nil)
            }
        }
    }

    @Test("a reserve refill cut short anywhere (a file of any length past its pages) opens, verifies and appends")
    func partialRefill() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/log"
            var state = try LogState.created(at: path, items: 120, options: .init())
            state = try await state.appendingOne(options: .init(), contentSeed: Self.contentSeed)
            for extra in [1, 4095, 4097, 12_345, 300_001] {
                let size = fileSize(path + "/data.mdb")
                let handle = try #require(FileHandle(forWritingAtPath: path + "/data.mdb"))
                try handle.truncate(atOffset: UInt64(size + extra))
                try handle.close()
                state = try await state.checked(
                    afterRound: extra, lines: [], batch: 1, contentSeed: Self.contentSeed, options: .init())
                state = try await state.appendingOne(options: .init(), contentSeed: Self.contentSeed)
            }
        }
    }

    @Test("CrashContent is the same in the tests and in the worker")
    func sameContentGenerator() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let here = try Data(contentsOf: tests.appendingPathComponent("CrashContent.swift"))
        let worker = try Data(
            contentsOf: tests.deletingLastPathComponent().appendingPathComponent("ChangeLogWorker/CrashContent.swift"))
        #expect(here == worker)
    }
}

/// What the parent knows of a crash test's log between kills.
private struct LogState {
    var path: String
    /// The size of the item pool `CrashContent` draws from.
    var items: Int
    var first: UInt64 = 0
    var latest: UInt64 = 0
    /// The data file's end after a complete refill of the space ahead, at the log's used size.
    var refilledEnd = 0

    /// Creates the log at `path`.
    static func created(at path: String, items: Int, options: ChangeLog.Options) throws -> LogState {
        var options = options
        options.createIfMissing = true
        _ = try ChangeLog(path: path, options: options)
        return LogState(path: path, items: items)
    }

    /// Checks the log after a worker was killed, given every line the workers printed (for
    /// `concurrent` writers, every line since the start), and returns what it holds now.
    func checked(
        afterRound round: Int, lines: [String], batch: UInt64, contentSeed: UInt64, options: ChangeLog.Options,
        concurrent: Bool = false, sharingWith open: ChangeLog? = nil
    ) async throws -> LogState {
        func numbers(_ prefix: String) -> [[UInt64]] {
            lines.filter { $0.hasPrefix(prefix) }.map {
                $0.dropFirst(prefix.count).split(separator: " ").compactMap { UInt64($0) }
            }
        }
        let committed = numbers("committed ") + numbers("imported ")
        let expectations = Expectations(
            round: round, before: self, reportedLatest: committed.compactMap(\.last).max(),
            dropped: numbers("dropped ").compactMap(\.first), dropping: numbers("dropping ").compactMap(\.first),
            importing: numbers("importing ").compactMap(\.last).max(), batch: batch, concurrent: concurrent)
        var result = self
        // Read-only first: it must open a log a writer left in the middle of a transaction
        // (unless this process has it open for writing).
        if open == nil {
            var readOnly = options
            readOnly.readOnly = true
            let log = try ChangeLog(path: path, options: readOnly)
            try expectations.check(log, contentSeed: contentSeed, into: &result)
            // What changed since the last check (and the revision before it): callers verify the
            // whole log at the end.
            let latest = try log.latestRevision
            let from = max(try log.firstRevision, min(latest, self.latest))
            let range = latest > 0 ? from...latest : nil
            let report = try await log.verify(range)
            #expect(report.isValid, "round \(round), read-only: \(report)")
        }
        let log = try open ?? ChangeLog(path: path, options: options)
        try expectations.check(log, contentSeed: contentSeed, into: &result)
        return result
    }

    /// Appends the next revision (as a worker would), checks it, and returns the new state.
    func appendingOne(options: ChangeLog.Options, contentSeed: UInt64) async throws -> LogState {
        let log = try ChangeLog(path: path, options: options)
        while true {
            let latest = try log.latestRevision
            let next = latest + 1
            do {
                let appended = try await log.append(
                    try CrashContent.snapshot(seed: contentSeed, revision: next, items: items),
                    meta: CrashContent.meta(revision: next, writer: "parent"), expectedLatest: latest)
                #expect(appended.revision == next)
                var result = self
                result.latest = next
                result.first = try log.firstRevision
                return result
            } catch let error as ChangeLogError where error.code == .conflict {
                continue
            }
        }
    }
}

/// What a log must hold after a round, from what the workers reported.
private struct Expectations {
    var round: Int
    var before: LogState
    var reportedLatest: UInt64?
    var dropped: [UInt64]
    var dropping: [UInt64]
    var importing: UInt64?
    var batch: UInt64
    var concurrent: Bool

    /// Checks `log`, and records its first and latest revision in `result`.
    func check(_ log: ChangeLog, contentSeed: UInt64, into result: inout LogState) throws {
        let (first, latest, stored) = try log.store.read(during: "checking") { transaction in
            (
                try log.store.first(in: transaction) ?? 0, try log.store.latest(in: transaction)?.revision ?? 0,
                try transaction.statistics(of: log.store.revisions).entries
            )
        }
        #expect(stored == (latest == 0 ? 0 : Int(latest - first + 1)), "round \(round): a gap in \(first)...\(latest)")
        #expect(
            latest >= (reportedLatest ?? 0), "round \(round): reported up to \(reportedLatest ?? 0), latest \(latest)")
        #expect(latest >= before.latest, "round \(round): the log went back from \(before.latest) to \(latest)")
        // The first revision: where the last reported retention put it, or where the one begun
        // and not reported would put it, nothing in between.
        let confirmedFirst = max(before.first, dropped.max() ?? 0, latest > 0 ? 1 : 0)
        let pending = dropping.filter { !dropped.contains($0) }.max()
        if concurrent {
            #expect(
                first >= confirmedFirst && first <= max(confirmedFirst, pending ?? 0),
                "round \(round): first \(first), confirmed \(confirmedFirst), pending \(pending.map(String.init) ?? "-")"
            )
        } else {
            var allowed: Set<UInt64> = [confirmedFirst]
            if let pending { allowed.insert(pending) }
            #expect(allowed.contains(first), "round \(round): first \(first), expected one of \(allowed.sorted())")
            // At most one transaction the worker did not report: an append of `batch` revisions,
            // or an import's unfinished range.
            let ceiling = max(importing ?? 0, (reportedLatest ?? before.latest) + batch)
            #expect(latest <= ceiling, "round \(round): latest \(latest) past \(ceiling)")
            #expect(
                (latest - before.latest) % batch == 0,
                "round \(round): \(latest - before.latest) revisions after \(before.latest), not whole batches of \(batch)"
            )
        }
        if latest > 0 {
            for revision in max(first, before.latest, 1)...latest {
                let record = try log.record(at: revision)
                #expect(record.meta["revision"] == "\(revision)", "round \(round): revision \(revision)'s meta")
                let expected = try CrashContent.snapshot(seed: contentSeed, revision: revision, items: before.items)
                #expect(record.snapshot == expected, "round \(round): revision \(revision) holds another snapshot")
            }
        }
        result.first = first
        result.latest = latest
        let info = log.store.environment.info()
        let used = info.usedBytes
        let end = used + DataFileReserve.target(usedBytes: used)
        result.refilledEnd = (end + info.pageSize - 1) / info.pageSize * info.pageSize
    }
}

/// The size of the file at `path`, or -1.
private func fileSize(_ path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else { return -1 }
    return Int(status.st_size)
}

/// The map size LMDB recorded in the newest of the two meta pages of the data file at `path`
/// (lmdb.h's `MDB_meta` after a 16-byte page header: the map size at byte 32, the transaction
/// identifier at byte 144), or 0.
private func recordedMapSize(_ path: String, pageSize: Int = Int(getpagesize())) -> Int {
    guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.read(upToCount: 2 * pageSize),
        data.count == 2 * pageSize
    else { return 0 }
    func word(_ offset: Int) -> Int {
        data[offset..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
    return word(144) >= word(pageSize + 144) ? word(32) : word(pageSize + 32)
}
