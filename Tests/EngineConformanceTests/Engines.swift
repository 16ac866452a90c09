import ChangeLog
import ChangeLogFile
import ChangeLogTestSupport
import Synchronization

/// Every engine the conformance suite runs on. A new engine is one more line here (and its
/// target among this test target's dependencies).
let engines: [EngineUnderTest] = [.lmdb, .file, .memory]

extension EngineUnderTest {
    /// LMDB, the embedded default: a log directory.
    static let lmdb = EngineUnderTest(
        name: "LMDB", location: { $0 + "/log.lmdb" }, open: { try ChangeLog(path: $0, options: $1) },
        workerEngine: "lmdb")

    /// The file engine (ChangeLogFile): one append-only file.
    static let file = EngineUnderTest(
        name: "file", location: { $0 + "/log.changelog" }, open: { try ChangeLog(fileAt: $0, options: $1) },
        workerEngine: "file",
        // One process writes a log file at a time: a second writing process is refused at open
        // (FileLogProcessTests.aSecondWritingProcessIsRefused), so no two processes race.
        racingProcesses: .unsupported(because: "the file engine refuses a second writing process"))

    /// The in-memory test engine (MemoryLogStorage): a log per location, kept for the test
    /// process's life, so that a location opened again (read-only) is the same log.
    static let memory = EngineUnderTest(
        name: "memory", location: { "memory:" + $0 },
        open: { location, options in
            let storage = memoryLogs.withLock { logs in
                if let storage = logs[location] { return storage }
                let storage = MemoryLogStorage(path: location)
                logs[location] = storage
                return storage
            }
            return try ChangeLog(storage: storage, options: options)
        },
        // Its records live in this process's memory: no other process can open the log.
        racingProcesses: .unsupported(because: "the memory engine's log lives in one process"))
}

/// The memory engine's logs, by location.
private let memoryLogs = Mutex<[String: MemoryLogStorage]>([:])
