import ChangeLog
import ChangeLogFile
import ChangeLogTestSupport
import Foundation
import Synchronization

#if Postgres
    import ChangeLogPostgres
#endif

/// Every engine the conformance suite runs on. A new engine is one more line here (and its
/// target among this test target's dependencies).
let engines: [EngineUnderTest] = [.lmdb, .file, .memory] + EngineUnderTest.postgres

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

extension EngineUnderTest {
    /// PostgreSQL (ChangeLogPostgres) on the test server, `CHANGELOG_TEST_POSTGRES_URL`, which
    /// scripts/with-postgres.sh starts: a log of its own per test directory. Without a server
    /// the suite runs without it, saying so in one line; under CI (`CI=true`) it runs all the
    /// same, and every case fails for want of the server.
    static var postgres: [EngineUnderTest] {
        #if Postgres
            let environment = ProcessInfo.processInfo.environment
            let server = environment["CHANGELOG_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
            guard server != nil || environment["CI"] == "true" else {
                print("EngineConformanceTests: PostgreSQL left out, CHANGELOG_TEST_POSTGRES_URL is not set")
                return []
            }
            return [
                EngineUnderTest(
                    name: "PostgreSQL",
                    location: { directory in
                        let url = server ?? "postgres://missing-test-server"
                        let name = "conformance-" + (directory.split(separator: "/").last.map(String.init) ?? "log")
                        return url + (url.contains("?") ? "&" : "?") + "log=" + name.lowercased()
                    },
                    open: { location, options in
                        guard server != nil else {
                            throw ConformanceFailure(
                                description: "CI=true and CHANGELOG_TEST_POSTGRES_URL is not set: run the tests "
                                    + "through scripts/with-postgres.sh")
                        }
                        return try ChangeLog(url: location, options: options)
                    },
                    workerEngine: "postgres")
            ]
        #else
            return []
        #endif
    }
}

/// The memory engine's logs, by location.
private let memoryLogs = Mutex<[String: MemoryLogStorage]>([:])
