import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A shell command that judges candidate histories: it fails when it exits non-zero or ends by a
/// signal, given the candidate's revision lines on its standard input.
///
/// Each call writes the candidate to a temporary file and runs `/bin/sh -c command` with that
/// file as standard input and `/dev/null` as standard output and error, in a process group of its
/// own: an interrupt typed at the terminal reaches the reducer, not the predicates, and a
/// predicate past its timeout is killed with its children.
struct PredicateCommand: Sendable {
    let command: String
    let timeout: Duration
    let timeoutMeans: ReductionOracle.TimeoutMeaning

    /// Runs the command on `history`. A call whose task is cancelled kills the command and
    /// answers ``ReductionOracle/Verdict/passes``, which the caller discards.
    func verdict(on history: ReducibleHistory) async throws(ReductionError) -> ReductionOracle.Verdict {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent(
            "replay-reduce-\(UUID().uuidString).jsonl")
        do {
            try Data(history.jsonLines().utf8).write(to: input)
        } catch {
            throw ReductionError(.predicateNotRun, "cannot write the predicate's input to \(input.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: input) }
        let pid = try spawn(input: input.path)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var pause = Duration.milliseconds(1)
        while true {
            var status: Int32 = 0
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { return Self.verdict(status: status, command: command) }
            if waited == -1 && errno != EINTR {
                throw ReductionError(
                    .predicateNotRun, "cannot wait for the predicate: \(String(cString: strerror(errno)))")
            }
            if Task.isCancelled {
                Self.terminate(pid)
                return .passes
            }
            if ContinuousClock.now >= deadline {
                Self.terminate(pid)
                switch timeoutMeans {
                case .pass: return .passes
                case .fail:
                    return .fails(signature: "predicate", description: "the predicate timed out", revision: nil)
                case .error:
                    throw ReductionError(
                        .timedOut,
                        "the predicate ran longer than its timeout (\(timeout)): raise --timeout, or say what a "
                            + "timeout means with --timeout-means pass or --timeout-means fail")
                }
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    private static func verdict(status: Int32, command: String) -> ReductionOracle.Verdict {
        let signal = status & 0x7f
        let exitStatus = (status >> 8) & 0xff
        if signal == 0 && exitStatus == 0 { return .passes }
        let how = signal == 0 ? "exited with status \(exitStatus)" : "ended by signal \(signal)"
        return .fails(signature: "predicate", description: "the predicate \(how)", revision: nil)
    }

    /// Kills the predicate's process group and reaps it.
    private static func terminate(_ pid: pid_t) {
        _ = kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    private func spawn(input: String) throws(ReductionError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Its own process group, and the signals the tool may ignore back to their defaults.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, number) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let words: [String] = ["/bin/sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { word in strdup(word) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environ)
        guard result == 0 else {
            throw ReductionError(
                .predicateNotRun, "cannot run /bin/sh for the predicate: \(String(cString: strerror(result)))")
        }
        return pid
    }
}
