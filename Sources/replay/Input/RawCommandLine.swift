import ListAdapter
import ListFormat

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command line and `$REPLAY_LOG` as the process received them, checked for text that is not
/// UTF-8 before anything reads them as `String`s.
///
/// Swift replaces each byte of `argv` that is not valid UTF-8 with U+FFFD, and so does
/// `ProcessInfo` for the environment: the tool would otherwise create a log under a name other
/// than the one given, or report a file that exists as missing. It refuses such text instead.
enum RawCommandLine {
    /// A value given to the tool that is not valid UTF-8: where it came from, and how it reads.
    struct NotUTF8: Equatable, CustomStringConvertible {
        /// Where the value came from: `argument 3`, or `$REPLAY_LOG`.
        var source: String
        /// The value quoted, with every byte that is not valid UTF-8 as `\xFF` (and `\`, `"` and
        /// control characters escaped as ``ListAdapter/quoted(_:)`` escapes them, so that the
        /// text is unambiguous on one line).
        var shown: String

        /// `argument 3 is not valid UTF-8: "bad\xFFname"`.
        var description: String { "\(source) is not valid UTF-8: \(shown)" }
    }

    /// The first argument after the program's name that is not valid UTF-8, numbered from 1 as
    /// the shell counts them (`$1`); `nil` when all of them are valid.
    static func firstArgumentNotUTF8() -> NotUTF8? {
        for position in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[position] else { continue }
            if let shown = shownIfNotUTF8(argument) {
                return NotUTF8(source: "argument \(position)", shown: shown)
            }
        }
        return nil
    }

    /// `$REPLAY_LOG` when it is set and not valid UTF-8; `nil` otherwise.
    static func logVariableNotUTF8() -> NotUTF8? {
        guard let value = getenv("REPLAY_LOG") else { return nil }
        return shownIfNotUTF8(value).map { NotUTF8(source: "$REPLAY_LOG", shown: $0) }
    }

    /// The C string `text` quoted and escaped as ``NotUTF8/shown`` when it is not valid UTF-8;
    /// `nil` when it is.
    ///
    /// - Complexity: O(*n*) for *n* bytes.
    static func shownIfNotUTF8(_ text: UnsafePointer<CChar>) -> String? {
        // The usual case, valid text, costs one validation and builds nothing.
        guard String(validatingCString: text) == nil else { return nil }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
        return quotedUTF8(bytes)
    }
}
