import ArgumentParser

/// The `replay` command-line tool: audits, replays and reproduces list histories kept in a
/// ChangeLog. Every subcommand is a thin layer over a library call.
@main
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Audit, replay and reproduce list histories kept in a change log (an LMDB directory or a log file).",
        discussion: """
            Every command that touches a log takes --log PATH (default: $REPLAY_LOG, else \
            ./replay.lmdb). Reading commands never create a log.

            Exit codes: 0 success; 1 a verification or replay found a failing revision; \
            2 bad input (a missing log or file, malformed JSON, a revision out of range, a followed log deleted, \
            a history that reduce's oracle does not fail on); \
            64 a usage error (unknown option, missing argument, an argument that is not UTF-8); \
            74 standard output could not be written (a full disk, for example).
            """,
        version: "0.1.0",
        subcommands: [
            DemoCommand.self, ImportCommand.self, ExportCommand.self, CopyCommand.self, DiffCommand.self,
            LogCommand.self,
            ShowCommand.self, HistoryCommand.self, VerifyCommand.self, PlayCommand.self, ReduceCommand.self,
            TailCommand.self, LogsCommand.self,
            StatsCommand.self, ServeCommand.self, ViewCommand.self,
        ]
    )

    /// Parses the command line and runs the command, then writes out standard output: a write
    /// that failed is reported, with exit status 74, instead of lost.
    ///
    /// An argument that is not valid UTF-8 is refused first, with exit status 64, and so is such
    /// a `$REPLAY_LOG`, with exit status 2: Swift would read either with U+FFFD in place of the
    /// bytes given (``RawCommandLine``).
    static func main() async {
        StandardOutput.prepare()
        if let argument = RawCommandLine.firstArgumentNotUTF8() {
            printError("\(argument); replay reads arguments as UTF-8 and cannot use this one as given")
            exit(withError: ExitCode.validationFailure)
        }
        if let variable = RawCommandLine.logVariableNotUTF8() {
            printError("\(variable); unset it, or set it to a log path that is valid UTF-8")
            exit(withError: ExitCode(ExitStatus.badInput))
        }
        do {
            do {
                var command: any ParsableCommand
                do {
                    command = try parseAsRoot(
                        TimeArgument.joiningRelativeTimes(Array(CommandLine.arguments.dropFirst())))
                } catch let error where exitCode(for: error) == .validationFailure {
                    let arguments = CommandLine.arguments.dropFirst()
                    let parserMessage = Self.message(for: error)
                    // `--from -1`: the parser takes `-1` for an option and calls the value missing.
                    if let (option, value) = NegativeNumberArgument.first(in: arguments),
                        let message = NegativeNumberArgument.message(
                            for: option, value: value, parserMessage: parserMessage)
                    {
                        printError(message)
                        exit(withError: ExitCode.validationFailure)
                    }
                    if let message = NegativeNumberArgument.revisionMessage(in: arguments, parserMessage: parserMessage)
                    {
                        printError(message)
                        exit(withError: ExitCode.validationFailure)
                    }
                    // `replay verfy`: the parser calls it an unexpected argument.
                    if let unknown = unknownCommand(in: arguments) {
                        printError(unknownCommandMessage(unknown))
                        exit(withError: ExitCode.validationFailure)
                    }
                    throw error
                }
                if var asynchronous = command as? AsyncParsableCommand {
                    try await asynchronous.run()
                } else {
                    try command.run()
                }
            } catch let error where exitCode(for: error) == .success {
                // The parser answers `replay foo --help` and `replay help foo` with the tool's
                // own help, as if `foo` were not there: name it instead.
                if let unknown = unknownCommand(in: CommandLine.arguments.dropFirst()) {
                    printError(unknownCommandMessage(unknown))
                    exit(withError: ExitCode.validationFailure)
                }
                // --help and --version: their text goes through the same checked output.
                let text = fullMessage(for: error)
                if !text.isEmpty { StandardOutput.writeLine(text) }
            }
            try StandardOutput.flush()
        } catch let failure as StandardOutput.Failure {
            StandardOutput.report(failure)
            exit(withError: ExitCode(ExitStatus.outputFailed))
        } catch {
            // The parser's messages quote the arguments as given: escape their control
            // characters, as every other error line does, so that an argument cannot split the
            // message or drive the terminal.
            let message = parserMessage(for: error, arguments: CommandLine.arguments.dropFirst())
            if !message.isEmpty { writeToStandardError(message + "\n") }
            exit(withError: exitCode(for: error))
        }
    }

    /// The parser's full message for `error` (empty for an ``ExitCode``), with the control
    /// characters of the `arguments` it quotes escaped, and any other control character but
    /// the newlines between its lines.
    static func parserMessage(for error: any Error, arguments: some Collection<String>) -> String {
        var message = fullMessage(for: error)
        for argument in arguments where escapingControls(argument) != argument {
            message = message.replacing(argument, with: escapingControls(argument))
        }
        return message.split(separator: "\n", omittingEmptySubsequences: false).map { escapingControls(String($0)) }
            .joined(separator: "\n")
    }
}
