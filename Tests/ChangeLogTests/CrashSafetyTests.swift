import ChangeLogTestSupport
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
@Suite("Crash safety of every write path", .serialized, .timeLimit(.minutes(10)))
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
                    try log.store.lmdb.readLMDB(during: "checking") {
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
}
