import ArgumentParser

/// The `replay` command-line tool: audits, replays and reproduces list histories kept in a
/// ChangeLog. Every subcommand is a thin layer over a library call.
@main
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Audit, replay and reproduce list histories kept in an LMDB change log.",
        discussion: """
            Every command that touches a log takes --log PATH (default: $REPLAY_LOG, else \
            ./replay.lmdb). Reading commands never create a log.

            Exit codes: 0 success; 1 a verification or replay found a failing revision; \
            2 bad input (a missing log or file, malformed JSON, a revision out of range); \
            64 a usage error (unknown option, missing argument).
            """,
        version: "0.1.0",
        subcommands: [
            DemoCommand.self, ImportCommand.self, ExportCommand.self, DiffCommand.self, LogCommand.self,
            ShowCommand.self, VerifyCommand.self, ReplayCommand.self, TailCommand.self, StatsCommand.self,
        ]
    )
}
