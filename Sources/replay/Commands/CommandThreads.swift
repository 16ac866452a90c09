import ChangeLog
import Foundation

/// The threads on which the tool's commands do their work: threads of the tool's own, never
/// Swift's cooperative pool, because a command reads its log through the log's synchronous API,
/// and on PostgreSQL each read waits on the network (files and the terminal block too).
///
/// ``failingWithBadInput(onCommandThreads:_:)`` runs a command's body with these threads as its
/// task executor preference, which the tasks it starts inherit. The commands that serve HTTP
/// (`serve`, `view`, `demo`) stay on the cooperative pool: their request handlers read through
/// `ChangeLog.reading`, which moves each read to the engine's own threads.
enum CommandThreads {
    /// As many threads as the machine has processors (at least two), started on first use.
    static let executor = BlockingThreads(
        name: "replay.command", count: max(2, ProcessInfo.processInfo.activeProcessorCount))
}
