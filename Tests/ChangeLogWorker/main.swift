import CLMDB
import ChangeLog
import ChangeLogFile
import ChangeLogTestSupport
import ChangeLogTools
import Foundation

// A helper process for ChangeLogTests' multi-process tests and ReplayTests' reduce predicates (subscriptions from another process,
// crash safety under SIGKILL, concurrent appenders). Each line it prints is written with one
// unbuffered write, so a parent reading its output sees every line as soon as it happened.
//
//   ChangeLogWorker drifting-renderer
//       reads revision lines on standard input; exits 1 when they corrupt DriftingRenderer
//   ChangeLogWorker append --log PATH --count N [--items K] [--seed S] [--engine file]
//       appends N revisions, one per transaction, and prints `committed R` after each returns;
//       with `--engine file` (here and for subscribe) the log is a file (ChangeLogFile)
//   ChangeLogWorker subscribe --log PATH --from R --count N [--poll-ms P] [--engine file] [--read-only yes]
//       prints `caughtUp L` when caught up and each revision number it receives; exits after N;
//       checks for other processes' appends on file events and every P ms (default 100);
//       `--read-only yes` opens the log for reading only (beside a writing process)
//   ChangeLogWorker resubscribe --log PATH --count N
//       subscribes from revision 1 and breaks off once caught up, N times in a row; prints
//       `descriptors B P` and `threads B P`: the process's counts before the loop and at their
//       highest, sampled every 10 subscriptions
//   ChangeLogWorker hold-readers --log PATH --count N
//       begins N read transactions through LMDB's C API, prints `holding N`, and waits to be
//       killed: the reader slots of a process that died reading
//   ChangeLogWorker hold-writer --log PATH
//       begins a write transaction through LMDB's C API, writes into it, prints `holding`, and
//       waits to be killed: LMDB's writer lock held by a dead process
//   ChangeLogWorker write --log PATH --content-seed S [--items K] [--batch B] [--import T]
//         [--drop-every D] [--keep K] [--durability durable|noMetaSync|noSync] [--map-size M]
//         [--reopen-every N] [--transactions N] [--pause-ms P] [--writer W] [--stop-file PATH]
//         [--engine file|postgres] [--report-conflicts yes]
//       appends revision r as CrashContent's snapshot for (S, r), B revisions per transaction
//       (or T transactions of B through SnapshotImporter), drops all but the last K revisions
//       every D transactions, and prints a line after each committed step (see WriteCommand.swift)
//   ChangeLogWorker read-without-data-descriptor --log PATH --grow-to BYTES
//       opens the log, prints `opened`, waits until another process has grown data.mdb to
//       BYTES, closes the descriptor LMDB reads it through (so that its size cannot be read),
//       then reads every revision and prints `read L` or `refused R: MESSAGE`
//   ChangeLogWorker read-without-descriptors --log PATH --revision R --map-size M --append-items N
//       opens the log with a map of M bytes, appends a snapshot (so that libdispatch has its
//       threads), takes every file descriptor the process may still open, appends a snapshot of N items, which makes the map grow (so the values lent after
//       the remap cannot open /proc/self/maps to find it), prints `grew` or `did not grow`,
//       gives the descriptors back, then reads revision R and prints `read R` or `refused R: ...`
//   ChangeLogWorker race --log PATH --expected L --seed S [--engine file]
//       prints `ready`, waits for a line on standard input, appends one snapshot with
//       expectedLatest L and prints `won R` or `conflict` (see RaceCommand.swift)
//   ChangeLogWorker follow --log PATH --until R [--from F] [--poll-ms P] [--engine postgres] [--read-only yes]
//       subscribes from F (0: the first stored) and prints `R DIGEST` for each revision it
//       receives, until revision R; then `done` (see FollowCommand.swift)
//   ChangeLogWorker time-stats --log PATH --untrusted 0|1
//       opens the log for reading (walking its pages first with 1: Options.untrusted), computes
//       its statistics as `replay stats` does, and prints `open S stats S` in seconds

/// Writes `line` and a newline to standard output at once.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data(("ChangeLogWorker: " + message + "\n").utf8))
    exit(status)
}

/// The command line: a command, then `--name value` pairs.
struct Arguments {
    var command: String
    var values: [String: String] = [:]

    init(_ arguments: [String]) {
        guard let command = arguments.first else {
            fail("usage: ChangeLogWorker append|subscribe --log PATH ...", status: 2)
        }
        self.command = command
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard name.hasPrefix("--"), let value = rest.popFirst() else {
                fail("expected `--name value`, found \(name)", status: 2)
            }
            values[String(name.dropFirst(2))] = value
        }
    }

    func string(_ name: String) -> String {
        guard let value = values[name] else { fail("missing --\(name)", status: 2) }
        return value
    }

    func number(_ name: String, default defaultValue: UInt64? = nil) -> UInt64 {
        guard let text = values[name] else {
            guard let defaultValue else { fail("missing --\(name)", status: 2) }
            return defaultValue
        }
        guard let value = UInt64(text) else { fail("--\(name) takes a number, not \(text)", status: 2) }
        return value
    }
}

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
if arguments.command == "hold-readers" {
    var environment: OpaquePointer?
    guard mdb_env_create(&environment) == MDB_SUCCESS,
        mdb_env_set_maxdbs(environment, 4) == MDB_SUCCESS,
        mdb_env_open(environment, arguments.string("log"), UInt32(MDB_NOTLS | MDB_RDONLY), 0o644) == MDB_SUCCESS
    else { fail("cannot open the environment at \(arguments.string("log"))") }
    let count = arguments.number("count")
    for index in 0..<count {
        var transaction: OpaquePointer?
        let result = mdb_txn_begin(environment, nil, UInt32(MDB_RDONLY), &transaction)
        guard result == MDB_SUCCESS else { fail("read transaction \(index): \(String(cString: mdb_strerror(result)))") }
    }
    emit("holding \(count)")
    while true { sleep(60) }
}
if arguments.command == "hold-writer" {
    var environment: OpaquePointer?
    var transaction: OpaquePointer?
    var database: MDB_dbi = 0
    guard mdb_env_create(&environment) == MDB_SUCCESS,
        mdb_env_set_maxdbs(environment, 4) == MDB_SUCCESS,
        mdb_env_open(environment, arguments.string("log"), UInt32(MDB_NOTLS), 0o644) == MDB_SUCCESS,
        mdb_txn_begin(environment, nil, 0, &transaction) == MDB_SUCCESS,
        mdb_dbi_open(transaction, "meta", 0, &database) == MDB_SUCCESS
    else { fail("cannot begin a write transaction at \(arguments.string("log"))") }
    var bytes: [UInt8] = Array("left by a dead writer".utf8)
    let result = bytes.withUnsafeMutableBytes { buffer in
        var key = MDB_val(mv_size: buffer.count, mv_data: buffer.baseAddress)
        var value = MDB_val(mv_size: buffer.count, mv_data: buffer.baseAddress)
        return mdb_put(transaction, database, &key, &value, 0)
    }
    guard result == MDB_SUCCESS else { fail("put: \(String(cString: mdb_strerror(result)))") }
    emit("holding")
    while true { sleep(60) }
}
if arguments.command == "drifting-renderer" {
    // A predicate for `replay reduce`: exits 1 when the revision lines on standard input corrupt
    // the drifting renderer, 0 otherwise.
    let input = String(decoding: FileHandle.standardInput.readToEndRetryingInterruptions(), as: UTF8.self)
    do {
        let history = try ReducibleHistory(jsonLines: input)
        exit(DriftingRenderer.corruption(in: history) == nil ? 0 : 1)
    } catch {
        fail("\(error)", status: 2)
    }
}
if arguments.command == "time-stats" {
    // scripts/walk-cost.sh: the page walk's cost beside the reading it guards.
    do {
        let clock = ContinuousClock()
        let start = clock.now
        let log = try ChangeLog(
            path: arguments.string("log"), options: .init(readOnly: true, untrusted: arguments.number("untrusted") != 0)
        )
        let opened = clock.now
        _ = try await log.statistics()
        let done = clock.now
        func seconds(_ duration: Duration) -> String {
            String(format: "%.3f", Double(duration.components.attoseconds) / 1e18 + Double(duration.components.seconds))
        }
        emit("open \(seconds(opened - start)) stats \(seconds(done - opened))")
        exit(0)
    } catch {
        fail("\(error)")
    }
}
if arguments.command == "race" {
    do {
        try await runRace(arguments)
    } catch {
        fail("\(error)")
    }
    exit(0)
}
if arguments.command == "follow" {
    do {
        try await runFollow(arguments)
    } catch {
        fail("\(error)")
    }
    exit(0)
}
if arguments.command == "write" {
    do {
        try await runWrite(arguments)
    } catch {
        fail("\(error)")
    }
    exit(0)
}
do {
    let options = ChangeLog.Options(
        initialMapSize: Int(arguments.number("map-size", default: 16 << 20)),
        subscriptionPollInterval: .milliseconds(Int64(arguments.number("poll-ms", default: 100))),
        readOnly: arguments.values["read-only"] != nil)
    let log = try openWorkerLog(arguments, options: options)
    switch arguments.command {
    case "append":
        let count = arguments.number("count")
        let seed = arguments.number("seed", default: UInt64(ProcessInfo.processInfo.processIdentifier))
        let latest = try log.latestRevision
        var churn = SnapshotChurn(
            seed: seed, items: Int(arguments.number("items", default: 20)),
            startingFrom: latest > 0 ? try log.snapshot(at: latest) : nil)
        for _ in 0..<count {
            let appended = try await log.append(try churn.next(), meta: ["worker": String(seed)])
            emit("committed \(appended.revision)")
        }
    case "subscribe":
        let count = arguments.number("count")
        var received: UInt64 = 0
        guard count > 0 else { break }
        for try await event in log.subscribe(from: arguments.number("from")) {
            switch event {
            case .caughtUp(let latest):
                emit("caughtUp \(latest)")
            case .revision(let record):
                emit("\(record.revision)")
                received += 1
            }
            if received == count { break }
        }
    case "read-without-data-descriptor":
        // Reading the latest revision makes the bounds learn the file's size as it is now.
        _ = try log.record(at: try log.latestRevision)
        emit("opened")
        let grown = Int(arguments.number("grow-to"))
        var status = stat()
        while stat(arguments.string("log") + "/data.mdb", &status) == 0, Int(status.st_size) < grown {
            usleep(10_000)
        }
        guard let descriptor = log.dataFileDescriptor, close(descriptor) == 0 else { fail("cannot close data.mdb") }
        let latest = try log.latestRevision
        for revision in 1...max(latest, 1) {
            do {
                _ = try log.record(at: revision)
            } catch {
                emit("refused \(revision): \(error.message)")
                exit(0)
            }
        }
        emit("read \(latest)")
    case "read-without-descriptors":
        // libdispatch needs descriptors of its own the first time its threads start: let the
        // writer's queue start them first.
        _ = try await log.append(try LogSnapshot(sections: [.init(title: "warm-up", items: [])]))
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = min(limit.rlim_cur, 512)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        var taken: [Int32] = []
        while case let descriptor = open("/dev/null", O_RDONLY), descriptor >= 0 {
            taken.append(descriptor)
        }
        guard errno == EMFILE else { fail("open: errno \(errno)") }
        let items = (0..<Int(arguments.number("append-items"))).map {
            LogSnapshot.Item(id: "grown \($0)", summary: String(repeating: "x", count: 100))
        }
        let mapSize = log.mapSize
        _ = try await log.append(try LogSnapshot(sections: [.init(title: "grown", items: items)]))
        emit(log.mapSize > mapSize ? "grew" : "did not grow")
        for descriptor in taken {
            close(descriptor)
        }
        let revision = arguments.number("revision")
        do {
            _ = try log.record(at: revision)
            emit("read \(revision)")
        } catch {
            emit("refused \(revision): \(error.message)")
        }
    case "resubscribe":
        func entries(_ directory: String) -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: directory).count) ?? 0
        }
        let descriptors = entries("/proc/self/fd")
        let threads = entries("/proc/self/task")
        var peak = (descriptors: descriptors, threads: threads)
        for index in 0..<arguments.number("count") {
            for try await event in log.subscribe(from: 1) {
                if case .caughtUp = event { break }
            }
            if index % 10 == 0 {
                peak = (max(peak.descriptors, entries("/proc/self/fd")), max(peak.threads, entries("/proc/self/task")))
            }
        }
        emit("descriptors \(descriptors) \(peak.descriptors)")
        emit("threads \(threads) \(peak.threads)")
    default:
        fail(
            "unknown command \(arguments.command); use append, subscribe, resubscribe, read-without-descriptors, "
                + "read-without-data-descriptor, "
                + "hold-readers, race, write or follow", status: 2
        )
    }
} catch {
    fail("\(error)")
}
