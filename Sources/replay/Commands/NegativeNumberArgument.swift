/// An option given a negative number, as in `--from -1`: the argument parser reads `-1` as an
/// option of its own and reports the option's value as missing, which misleads. The tool looks
/// for this case on the command line to say what was wrong instead.
enum NegativeNumberArgument {
    /// The first `--option` or `-o` in `arguments` followed by a negative number (`-1`,
    /// `-0.5`), with that number; `nil` when there is none.
    static func first(in arguments: some Collection<String>) -> (option: String, value: String)? {
        func isOption(_ text: String) -> Bool {
            (text.hasPrefix("--") && !text.contains("="))
                || (text.count == 2 && text.first == "-" && text.last?.isLetter == true)
        }
        for (option, value) in zip(arguments, arguments.dropFirst()) where isOption(option) && isNegativeNumber(value) {
            return (option, value)
        }
        return nil
    }

    /// The message for `option` given `value`, when the parser's own `message` says that the
    /// option's value is missing; `nil` otherwise.
    static func message(for option: String, value: String, parserMessage message: String) -> String? {
        guard message.hasPrefix("Missing value for '\(option) ") || message.hasPrefix("Missing value for '\(option)'")
        else { return nil }
        return "\(option) takes a number that is not negative, not \(value)"
    }

    /// The message for a positional `<revision>` given as a negative number (`show -1`), which
    /// the parser takes for an option and so reports as missing (or, where the revision is
    /// optional, as in `show`, which also takes `--at`, the command reports as not given);
    /// `nil` otherwise.
    static func revisionMessage(in arguments: some Collection<String>, parserMessage message: String) -> String? {
        guard message.hasPrefix("Missing expected argument '<revision>'") || message.hasPrefix(ShowCommand.noRevision),
            let value = arguments.first(where: isNegativeNumber)
        else { return nil }
        return "revisions count from 1, not \(value)"
    }

    private static func isNegativeNumber(_ text: String) -> Bool {
        let digits = text.dropFirst()
        return text.first == "-" && digits.first?.isASCII == true && digits.first?.isNumber == true
            && digits.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    }
}
