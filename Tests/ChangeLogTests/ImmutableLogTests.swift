import Foundation
import Testing

@testable import ChangeLog

/// A log whose files are immutable (`chattr +i`, as an archived log or evidence attached to a
/// crash report may be): it opens for reading, and for writing fails plainly.
///
/// Setting the attribute takes root (`CAP_LINUX_IMMUTABLE`), `chattr` and a file system that
/// has it; CI runs the tests as root on ext4. Without root or `chattr` (another user, macOS)
/// the test is skipped; as root with `chattr`, a file system that refuses the attribute is
/// recorded as a failure, so that a run that checked nothing does not pass quietly.
@Suite("Immutable logs")
struct ImmutableLogTests {
    static let chattr = "/usr/bin/chattr"
    /// Whether this process may set the immutable attribute: root, with `chattr`.
    static let canSetImmutable = getuid() == 0 && FileManager.default.isExecutableFile(atPath: chattr)

    @Test(
        "an immutable log opens read-only: it reads, verifies and subscribes; opening it to write fails",
        .enabled(if: canSetImmutable, "setting the immutable attribute takes root and /usr/bin/chattr"))
    func immutableLog() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/archived"
            var snapshots: [LogSnapshot] = []
            do {
                let log = try ChangeLog(path: path)
                for version in 0..<3 {
                    snapshots.append(try makeSnapshot(sections: 2, itemsPerSection: 4, version: version))
                    _ = try await log.append(snapshots[version])
                }
            }
            let files = [path + "/data.mdb", path + "/lock.mdb"]
            guard try setImmutable(true, files) else {
                Issue.record("could not set the immutable attribute (needs ext4 or similar): nothing checked")
                return
            }
            defer { _ = try? setImmutable(false, files) }

            do {
                let log = try ChangeLog(path: path, options: .init(readOnly: true))
                #expect(log.readingWithoutLock?.reason == .immutableFiles)
                #expect(
                    log.readingWithoutLock?.description
                        == "reading the log at \(path) without its lock file (its files are immutable): no process "
                        + "can write to it meanwhile")
                #expect(try log.latestRevision == 3)
                #expect(try log.snapshot(at: 2) == snapshots[1])
                let report = try await log.verify()
                #expect(report.isValid, "\(report)")
                var iterator = log.subscribe(from: 1).makeAsyncIterator()
                #expect(try await events(4, from: &iterator) == ["1", "2", "3", "caughtUp 3"])
            }
            let writable = #expect(throws: ChangeLogError.self) { _ = try ChangeLog(path: path) }
            #expect(writable?.code == .cannotOpen, "\(String(describing: writable))")
            #expect(writable?.message.contains("does not permit writing") == true, "\(String(describing: writable))")
        }
    }

    /// Sets or clears the immutable attribute of `files` with `chattr`; returns whether it could.
    private func setImmutable(_ immutable: Bool, _ files: [String]) throws -> Bool {
        let chattr = Process()
        chattr.executableURL = URL(fileURLWithPath: Self.chattr)
        chattr.arguments = [immutable ? "+i" : "-i"] + files
        chattr.standardError = FileHandle.nullDevice
        try chattr.run()
        chattr.waitUntilExit()
        return chattr.terminationStatus == 0
    }
}
