import ArgumentParser
import ChangeLog
import Foundation

#if Postgres
    import ChangeLogPostgres
#endif

/// `replay logs`: the logs of a PostgreSQL database, with their latest revisions.
struct LogsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs",
        abstract: "List the logs of a PostgreSQL database, with their latest revisions.",
        discussion: """
            One line per log, by name: its name and its latest revision (0 for an empty log). \
            The URL's log= is ignored. A database without logs lists nothing.

            Example:
              replay logs --log postgres://app@db.example:5432/lists
            """
    )

    @OptionGroup var logOptions: LogOptions

    func validate() throws {
        guard LogOptions.isPostgresURL(logOptions.path) else {
            throw ValidationError(
                "replay logs lists the logs of a PostgreSQL database: pass --log postgres://USER@HOST:PORT/DATABASE")
        }
    }

    func run() async throws {
        try await failingWithBadInput {
            #if Postgres
                let logs = try ChangeLog.postgresLogs(url: logOptions.path, passwordFile: logOptions.passwordFile)
                let width = logs.map(\.name.count).max() ?? 0
                for log in logs {
                    StandardOutput.writeLine(
                        log.name.padding(toLength: max(width, 4), withPad: " ", startingAt: 0)
                            + "  \(log.latestRevision)")
                }
                try StandardOutput.flush()
            #else
                throw InputError("this replay was built without PostgreSQL (the package trait Postgres)")
            #endif
        }
    }
}
