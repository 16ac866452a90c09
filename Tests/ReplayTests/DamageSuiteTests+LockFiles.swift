import ChangeLog
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

extension DamageSuiteTests {
    /// What a damaged copy's `lock.mdb` is, taken in turn by copy index.
    enum LockFile: CaseIterable {
        /// A symbolic link to a file outside the log.
        case linkToFile
        /// A symbolic link to a path where nothing is.
        case danglingLink
        /// A file of 1 GB, all holes.
        case sparse
    }

    @Test("damaged copies whose lock.mdb is a link or sparse are read or refused, and the lock's target is untouched")
    func damagedCopiesWithHostileLockFiles() async throws {
        let count = ProcessInfo.processInfo.environment["DAMAGE_COPIES"].flatMap { Int($0) }.map { min($0, 12) } ?? 12
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let base = directory.path("base")
        try #require(try await ToolRunner.run(["demo", "--log", base, "--revisions", "60"]).status == 0)
        let used = try ChangeLog(path: base, options: .init(readOnly: true)).bytesInUse
        let file = try #require(FileManager.default.contents(atPath: base + "/data.mdb"))
        let copies = DamagedCopies(of: [UInt8](file.prefix(used)), seed: 7)
        let notes = try directory.write("notes.txt", "a file of the reader's\n")
        let nowhere = directory.path("nowhere")
        var problems: [String] = []
        for index in 0..<count {
            let copy = copies.copy(index)
            let log = directory.path("copy-\(index)")
            try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: false)
            try Data(copy.bytes).write(to: URL(fileURLWithPath: log + "/data.mdb"))
            let lockFile = LockFile.allCases[index % LockFile.allCases.count]
            switch lockFile {
            case .linkToFile:
                try FileManager.default.createSymbolicLink(atPath: log + "/lock.mdb", withDestinationPath: notes)
            case .danglingLink:
                try FileManager.default.createSymbolicLink(atPath: log + "/lock.mdb", withDestinationPath: nowhere)
            case .sparse:
                #expect(FileManager.default.createFile(atPath: log + "/lock.mdb", contents: nil))
                #expect(truncate(log + "/lock.mdb", 1 << 30) == 0)
            }
            let watched = lockFile == .sparse ? log + "/lock.mdb" : notes
            var before = stat()
            _ = lstat(watched, &before)
            let contents = FileManager.default.contents(atPath: notes)
            for command in Self.commands {
                let outcome = try await Self.run(
                    command + ["--log", log],
                    warning: "replay: warning: reading the log at \(log) without its lock file")
                if case .crashed = outcome {
                    problems.append("\(copy), lock file \(lockFile), `\(command.joined(separator: " "))`: \(outcome)")
                }
                if case .unexpected = outcome {
                    problems.append("\(copy), lock file \(lockFile), `\(command.joined(separator: " "))`: \(outcome)")
                }
                var after = stat()
                _ = lstat(watched, &after)
                if after.st_size != before.st_size || after.st_blocks != before.st_blocks
                    || FileManager.default.contents(atPath: notes) != contents
                    || FileManager.default.fileExists(atPath: nowhere)
                {
                    problems.append(
                        "\(copy), lock file \(lockFile), `\(command.joined(separator: " "))` wrote through it")
                }
            }
            try FileManager.default.removeItem(atPath: log)
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
