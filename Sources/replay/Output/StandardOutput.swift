import CStandardStreams
import ListAdapter
import ListFormat
import Synchronization

// C's `stdout` is a global variable that never changes; the stream it points to locks itself.
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// The tool's standard output and standard error.
///
/// Everything the tool prints to standard output goes through C's `stdout`, as `print` does,
/// so lines keep their order; a write that fails (a full disk, a file that cannot grow, a
/// closed pipe when SIGPIPE is ignored) is reported when the output is flushed, rather than
/// lost or trapped. Standard error is written unbuffered, and a failure to write there is
/// ignored: there is nowhere left to report it.
enum StandardOutput {
    /// A write to standard output that failed.
    struct Failure: Error, CustomStringConvertible {
        /// The `errno` of the failure.
        let code: Int32

        var description: String {
            if StandardStream.output.wasClosedAtStart {
                return "cannot write to standard output: it was closed when replay started"
            }
            return "cannot write to standard output: \(String(cString: strerror(code)))"
        }
    }

    /// Buffers standard output in large blocks when it is not a terminal (a file or a pipe
    /// takes the output of `export` faster so). Call before anything is printed.
    static func prepare() {
        if isatty(STDOUT_FILENO) == 0 {
            // glibc ignores the size without a buffer of the caller's; this one lives as long
            // as the process.
            let size = 1 << 20
            setvbuf(stdout, UnsafeMutablePointer<CChar>.allocate(capacity: size), _IOFBF, size)
        }
    }

    /// Writes `line` and a newline; a failure is reported by ``check()`` and ``flush()``.
    static func writeLine(_ line: String) {
        var line = line + "\n"
        line.withUTF8 { bytes in
            _ = fwrite(bytes.baseAddress, 1, bytes.count, stdout)
        }
    }

    /// Throws if a write to standard output has failed so far, so that long output stops early.
    static func check() throws(Failure) {
        if ferror(stdout) != 0 {
            throw Failure(code: errno)
        }
    }

    /// Writes out what is buffered, and throws if that or any earlier write failed.
    static func flush() throws(Failure) {
        if fflush(stdout) != 0 {
            throw Failure(code: errno)
        }
        try check()
    }

    /// Whether a failure of standard output has been reported on standard error.
    private static let failureReported = Atomic<Bool>(false)

    /// Reports `failure` on standard error, once: a tool that ends with another error (exit 1 or
    /// 2) still says that its output is incomplete, and says it only once.
    static func report(_ failure: Failure) {
        guard !failureReported.exchange(true, ordering: .relaxed) else { return }
        writeToStandardError("replay: \(failure.description)\n")
    }
}

/// Prints `message` as one line on standard error, prefixed with `replay: `, after what
/// standard output holds: where both go to one file, the message follows the lines written
/// before it instead of landing inside one. Control characters in it (a path or a value the
/// user gave, holding a line break or a terminal escape sequence) are escaped: the message
/// stays on one line, and never drives the terminal.
///
/// A reader of standard output that has gone (`replay export | head`) must not take the message
/// with it: SIGPIPE is ignored during that flush, which then just fails. When standard output
/// has failed, that is reported after the message (once: ``StandardOutput/report(_:)``).
func printError(_ message: String) {
    let previous = signal(SIGPIPE, SIG_IGN)
    let flushed = fflush(stdout) == 0
    let code = errno
    let failed = !flushed || ferror(stdout) != 0
    signal(SIGPIPE, previous)
    writeToStandardError("replay: \(escapingControls(message))\n")
    if failed {
        StandardOutput.report(StandardOutput.Failure(code: code))
    }
}

/// `text` with its control characters escaped as `\n`, `\r`, `\t` or `\u{1b}`, and the rest as
/// it is.
func escapingControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isEscapedInText) else { return text }
    var escaped = ""
    for scalar in text.unicodeScalars {
        appendEscapingControl(scalar, to: &escaped)
    }
    return escaped
}

/// Writes `text` to standard error as it is, ignoring a failure.
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            guard written > 0 else { return }
            offset += written
        }
    }
}

/// The three standard streams, as the process found them when it started.
enum StandardStream: Int {
    /// Standard input, descriptor 0.
    case input = 0
    /// Standard output, descriptor 1.
    case output = 1
    /// Standard error, descriptor 2.
    case error = 2

    /// Whether the stream's descriptor was closed when the process started. Such a descriptor
    /// now holds `/dev/null`, opened so that using it fails as on a closed one (see
    /// `CStandardStreams`): the log's files never take its number.
    var wasClosedAtStart: Bool {
        replay_standard_streams_closed_at_start() & (1 << UInt32(rawValue)) != 0
    }
}
