import ArgumentParser
import ChangeLog

/// Times given on the command line (`--at`, `--since`, `--until`).
enum TimeArgument {
    /// `text` in milliseconds since 1970; a usage error naming `option` when it is not a time.
    static func milliseconds(_ text: String, option: String, now: Int64 = TimeExpression.now) throws -> Int64 {
        do {
            return try TimeExpression.milliseconds(parsing: text, now: now)
        } catch {
            throw ValidationError("\(option): \(error.message)")
        }
    }

    /// The revision of `log` that was current at `text`: the latest one appended at or before it.
    /// - Throws: ``InputError`` when the log is empty or every revision is later.
    static func revision(at text: String, in log: ChangeLog) throws -> UInt64 {
        let time = try milliseconds(text, option: "--at")
        if let revision = try log.revision(atMillisecondsSince1970: time) { return revision }
        let name = ExportInput.name(ofLogAt: log.path)
        guard try log.latestRevision > 0 else {
            throw InputError("\(name) is empty: no revision was current at \(text)")
        }
        let first = try log.record(at: try log.firstRevision)
        throw InputError(
            "no revision was current at \(text): the oldest revision \(name) holds, \(first.revision), was appended "
                + "at \(first.timeString)")
    }
}

extension TimeArgument {
    /// The options whose value may be a time before now, such as `-2h`.
    static let timeOptions: Set<String> = ["--since", "--until", "--at"]

    /// `arguments` with each time before now that follows a time option joined to it
    /// (`--since -2h` becomes `--since=-2h`): the parser would otherwise read `-2h` as short
    /// flags, `-h` among them.
    static func joiningRelativeTimes(_ arguments: [String]) -> [String] {
        var joined: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                joined += arguments[index...]
                break
            }
            let next = arguments.index(after: index)
            if timeOptions.contains(argument), next < arguments.endIndex, isRelativeTime(arguments[next]) {
                joined.append(argument + "=" + arguments[next])
                index = arguments.index(after: next)
            } else {
                joined.append(argument)
                index = next
            }
        }
        return joined
    }

    /// `-` then a digit: a time before now (`-2h`), or a mistyped one (`-5y`) that the time's
    /// own error then names.
    static func isRelativeTime(_ text: String) -> Bool {
        guard text.hasPrefix("-"), let digit = text.dropFirst().first else { return false }
        return digit.isASCII && digit.isNumber
    }
}
