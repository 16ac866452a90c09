import Foundation
import Testing

/// Logs this user may read but not write: another user's, and a copy on read-only storage.
/// Reading commands read them without LMDB's lock file, and warn that writers running at the
/// same time are not seen; nothing opens them for writing.
@Suite("Logs this user does not own")
struct ForeignLogTests {
    /// Whether this process is root, and `runuser` and the user `nobody` exist: then a log
    /// root owns can be read as `nobody`.
    static let canRunAsNobody =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: runuser) && getpwnam("nobody") != nil
    static let runuser = "/usr/sbin/runuser"

    @Test(
        "as nobody, a root-owned log verifies, lists and replays, with a warning; importing into it fails",
        .enabled(if: canRunAsNobody, "needs root, /usr/sbin/runuser and the user nobody to read a log root owns"))
    func anotherUsersLog() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.history).status == 0)
        // nobody may search the directories and run a copy of the tool; the log is root's, 0755
        // and 0644, whatever the umask.
        let copy = directory.path("replay")
        try await ToolRunner.copyBinary(to: copy)
        var modes = [directory.url.path: 0o755, log: 0o755, copy: 0o755]
        for file in try FileManager.default.contentsOfDirectory(atPath: log) { modes[log + "/" + file] = 0o644 }
        for (path, mode) in modes {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
        let launcher = [Self.runuser, "-u", "nobody", "--", copy]
        let warning = "replay: warning: " + ToolRunner.withoutLockWarning(log: log)

        let verify = try await ToolRunner.run(["verify", "--log", log], launcher: launcher)
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout == "verified revisions 1 to 3 (3): ok\n")
        #expect(verify.stderr == warning)
        let asRoot = try await ToolRunner.run(["log", "--log", log])
        #expect(asRoot.stderr == "", "the owner reads it with its lock file")
        let list = try await ToolRunner.run(["log", "--log", log], launcher: launcher)
        #expect(list.status == 0 && list.stdout == asRoot.stdout && list.stderr == warning, "\(list)")
        let play = try await ToolRunner.run(["play", "--log", log], launcher: launcher)
        #expect(play.status == 0 && play.stderr == warning, "\(play)")

        let before = try Data(contentsOf: URL(fileURLWithPath: log + "/data.mdb"))
        let imported = try await ToolRunner.run(
            ["import", "-", "--log", log], input: #"{"sections": []}"# + "\n", launcher: launcher)
        #expect(imported.status == 2)
        #expect(
            imported.stderr
                == "replay: cannot open the log at \(log) for writing: its lock.mdb is not writable by this user; "
                + "ask its owner, copy the log, or open it for reading only (Options.readOnly) (Permission denied "
                + "(LMDB code 13))\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log + "/data.mdb")) == before)
    }

    /// Whether `unshare -rm` can bind a directory read-only over itself here (util-linux, user
    /// namespaces allowed): the way to a log on read-only storage without root.
    static let canMountReadOnly: Bool = {
        guard let directory = try? TemporaryDirectory() else { return false }
        defer { directory.remove() }
        // A trait's condition cannot await; the probe is quick and runs once.
        let probe = try? ToolRunner.runBlocking(
            ["-rm", "/bin/sh", "-c", mountReadOnly + " && ! touch \"$LOG/file\" 2>/dev/null"],
            environment: ["LOG": directory.url.path], launcher: ["/usr/bin/unshare"])
        return probe?.status == 0
    }()
    /// Binds `$LOG` read-only over itself, in the mount namespace of the command.
    static let mountReadOnly = "mount --bind \"$LOG\" \"$LOG\" && mount -o remount,bind,ro \"$LOG\""

    @Test(
        "a copy on read-only storage verifies with a warning; importing into it fails",
        .enabled(if: canMountReadOnly, "needs unshare -rm (util-linux, user namespaces) to mount a directory read-only")
    )
    func readOnlyStorage() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("app.lmdb")
        #expect(try await ToolRunner.run(["import", "-", "--log", log], input: Fixtures.history).status == 0)
        // A mount namespace of its own (as an unprivileged user too, in a user namespace) binds
        // the log read-only over itself; the mount ends with the command.
        func readOnly(_ command: String, input: String? = nil) async throws -> ToolRunner.Result {
            try await ToolRunner.run(
                ["-rm", "/bin/sh", "-c", Self.mountReadOnly + " && exec \"$REPLAY\" " + command], input: input,
                environment: ["LOG": log, "REPLAY": ToolRunner.binary.path], launcher: ["/usr/bin/unshare"])
        }

        let verify = try await readOnly("verify --log \"$LOG\"")
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout == "verified revisions 1 to 3 (3): ok\n")
        #expect(
            verify.stderr
                == "replay: warning: reading the log at \(log) without its lock file (the file system is read-only): "
                + "writers running at the same time are not seen, and may change pages while they are read; read it "
                + "while nothing writes to it, or read a copy\n")
        let imported = try await readOnly("import - --log \"$LOG\"", input: #"{"sections": []}"# + "\n")
        #expect(imported.status == 2, "\(imported)")
        #expect(imported.stderr.contains("for writing"), "\(imported)")
    }
}

extension ToolRunner {
    /// The warning, after `replay: warning: `, for the log at `log` read without its lock file
    /// because this user may not write it.
    static func withoutLockWarning(log: String) -> String {
        "reading the log at \(log) without its lock file (its lock.mdb is not writable by this user): writers "
            + "running at the same time are not seen, and may change pages while they are read; read it while "
            + "nothing writes to it, or read a copy\n"
    }
}
