import ChangeLogTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A log from elsewhere whose `lock.mdb` is a symbolic link (to a file of the reader's, or to
/// nothing), or a sparse file of 2 GB, is read by every reading command without its lock file:
/// the same answer as the intact log's, one warning line naming the lock file, and the link's
/// target, or the sparse file, exactly as it was (bytes, size, blocks), no file created. A
/// `data.mdb` that is a symbolic link is refused with one line, its target untouched.
@Suite("replay on a log whose lock.mdb or data.mdb is a link or sparse")
struct HostileLockFileTests {
    /// The reading commands but `serve` (``served(damage:)``), with the arguments they need;
    /// `OUT` is replaced by a file in the test's directory.
    static let commands = [
        ["verify"], ["export"], ["show", "1"], ["stats"], ["log"], ["play", "--into", "text"], ["tail", "--from", "1"],
        ["view", "--out", "OUT", "--force"],
    ]

    /// What is done to the log's files.
    enum Damage: String, CaseIterable, CustomStringConvertible {
        /// `lock.mdb` a symbolic link to a file outside the log.
        case lockLinkedToFile
        /// `lock.mdb` a symbolic link to a path where nothing is.
        case lockLinkedToNothing
        /// `lock.mdb` cut to 2 GB, all holes past its own bytes.
        case sparseLock
        /// `data.mdb` a symbolic link to a copy of the data file outside the log.
        case dataLinked

        var description: String { rawValue }
    }

    /// A log with `damage` done, beside the file it concerns (the link's target, or the sparse
    /// lock file), in `directory`.
    struct Scene {
        let directory: TemporaryDirectory
        let log: String
        /// The file whose bytes, size and blocks must not change: the link's target, or the
        /// sparse lock file; for a dangling link, the path that must stay empty.
        let watched: String
        let damage: Damage

        init(_ damage: Damage) async throws {
            self.damage = damage
            (directory, log) = try await ReadingCommandTests.makeLog()
            let lockFile = log + "/lock.mdb"
            switch damage {
            case .lockLinkedToFile:
                watched = try directory.write("notes.txt", "notes the reader keeps\n")
                try FileManager.default.removeItem(atPath: lockFile)
                try FileManager.default.createSymbolicLink(atPath: lockFile, withDestinationPath: watched)
            case .lockLinkedToNothing:
                watched = directory.path("created-by-a-reader")
                try FileManager.default.removeItem(atPath: lockFile)
                try FileManager.default.createSymbolicLink(atPath: lockFile, withDestinationPath: watched)
            case .sparseLock:
                watched = lockFile
                #expect(truncate(lockFile, 2 << 30) == 0)
            case .dataLinked:
                watched = directory.path("data-elsewhere.mdb")
                try FileManager.default.moveItem(atPath: log + "/data.mdb", toPath: watched)
                try FileManager.default.createSymbolicLink(atPath: log + "/data.mdb", withDestinationPath: watched)
            }
        }

        /// The watched file's bytes (its first 64 KB: a sparse file's are all that can differ
        /// without its blocks changing too), size and blocks; `nil` when there is none.
        func state() -> (prefix: Data, size: Int, blocks: Int)? {
            var information = stat()
            guard lstat(watched, &information) == 0 else { return nil }
            let handle = FileHandle(forReadingAtPath: watched)
            defer { try? handle?.close() }
            let prefix = (try? handle?.read(upToCount: 64 << 10)) ?? Data()
            return (prefix, Int(information.st_size), Int(information.st_blocks))
        }

        /// The files in the test's directory and the log's, by name.
        func files() throws -> Set<String> {
            let top = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            let inLog = try FileManager.default.contentsOfDirectory(atPath: log).map { "app.lmdb/" + $0 }
            return Set(top + inLog)
        }

        /// The one warning line a reading command prints, or the one refusal of a linked data file.
        var expectedStderr: String {
            let lockFile: String
            switch damage {
            case .lockLinkedToFile, .lockLinkedToNothing:
                lockFile = "its lock.mdb is a symbolic link, which reading never follows"
            case .sparseLock:
                lockFile = "its lock.mdb is \(2 << 30) bytes, a size LMDB never makes"
            case .dataLinked:
                return
                    "replay: cannot open the log at \(log): its data.mdb is a symbolic link to \(watched), and a log's "
                    + "files are never followed through links; put the file itself in the log's directory, or pass the "
                    + "directory of a log\n"
            }
            return "replay: warning: reading the log at \(log) without its lock file (\(lockFile)): writers running at "
                + "the same time are not seen, and may change pages while they are read; read it while nothing writes "
                + "to it, or read a copy\n"
        }
    }

    @Test(
        "every reading command reads past a linked or sparse lock.mdb, and refuses a linked data.mdb, touching neither",
        arguments: Damage.allCases)
    func readingCommands(damage: Damage) async throws {
        let scene = try await Scene(damage)
        defer { scene.directory.remove() }
        let out = scene.directory.path("view.html")
        let commands = Self.commands.map { $0.map { $0 == "OUT" ? out : $0 } }
        // The answers of the intact log, read from a copy made before the damage is done.
        let intact = scene.directory.path("intact")
        try FileManager.default.createDirectory(atPath: intact, withIntermediateDirectories: false)
        let dataFile = damage == .dataLinked ? scene.watched : scene.log + "/data.mdb"
        try FileManager.default.copyItem(atPath: dataFile, toPath: intact + "/data.mdb")
        var expected: [[String]: String] = [:]
        for command in commands {
            let run = try await ToolRunner.run(command + ["--log", intact])
            try #require(run.status == 0, "\(command): \(run)")
            expected[command] = run.stdout.replacingOccurrences(of: intact, with: scene.log)
        }
        try FileManager.default.removeItem(atPath: intact)
        let before = scene.state()
        let files = try scene.files()
        for command in commands {
            let result = try await ToolRunner.run(command + ["--log", scene.log])
            if damage == .dataLinked {
                #expect(result.status == 2, "\(command): \(result)")
                #expect(result.stdout.isEmpty, "\(command): \(result)")
            } else {
                #expect(result.status == 0, "\(command): \(result)")
                #expect(result.stdout == expected[command], "\(command)")
            }
            #expect(result.stderr == scene.expectedStderr, "\(command)")
            let after = scene.state()
            #expect(after?.prefix == before?.prefix, "\(command) changed \(scene.watched)")
            #expect(after?.size == before?.size, "\(command) resized \(scene.watched)")
            #expect(after?.blocks == before?.blocks, "\(command) allocated blocks of \(scene.watched)")
            #expect(try scene.files() == files, "\(command) created or removed a file")
        }
    }

    @Test(
        "serve reads past a linked or sparse lock.mdb, and refuses a linked data.mdb, touching neither",
        arguments: Damage.allCases)
    func served(damage: Damage) async throws {
        let scene = try await Scene(damage)
        defer { scene.directory.remove() }
        let before = scene.state()
        let files = try scene.files()
        if damage == .dataLinked {
            let result = try await ToolRunner.run(["serve", "--port", "0", "--log", scene.log])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr == scene.expectedStderr)
        } else {
            let (server, port) = try await ToolRunner.serve(["--log", scene.log])
            let response = try await LoopbackHTTP.get(port: port, target: "/api/log")
            server.process.terminate()
            server.process.waitUntilExit()
            #expect(response.status == 200, "\(response)")
            #expect(response.body.contains(#""latest":3"#), "\(response)")
            let stderr = String(decoding: server.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(stderr == scene.expectedStderr)
        }
        let after = scene.state()
        #expect(after?.prefix == before?.prefix)
        #expect(after?.size == before?.size)
        #expect(after?.blocks == before?.blocks)
        #expect(try scene.files() == files)
    }
}
