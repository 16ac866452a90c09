import ArgumentParser
import ChangeLog
import ChangeLogTools
import Foundation
import Synchronization

/// `replay reduce`: shrinks a failing history to the smallest one that still fails, and writes it
/// with a test that reproduces the failure.
struct ReduceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reduce",
        abstract: "Shrink a failing history to the smallest one that still fails, and write a test.",
        discussion: """
            The history comes from a log (--log, default $REPLAY_LOG, else ./replay.lmdb) or from \
            revision lines as `replay export` writes them (--input), optionally cut to --from and \
            --to. The oracle says whether a candidate still fails:
              --until verify    some revision's changes do not take the previous snapshot to its snapshot
              --until strict    the UIKit-strict renderer refuses some batch
              --predicate CMD   `sh -c CMD` exits non-zero given the candidate's revision lines on stdin

            Reduction keeps the failure at every step. With --until, a candidate must fail in the \
            original's way: the same check (verify's comparison or validity rule, strict's UIKit rule) \
            on the same kind of operation (a wrong move stays a wrong move); --any-failure accepts any \
            failure. A --predicate's failures have no kind: any non-zero exit counts. The steps: the \
            failing revision's pair first (built-in oracles), then revisions (ddmin), then whole sections and items removed from every \
            snapshot, then summaries dropped or shortened and names shortened (s0, a, b, ...). The \
            result is 1-minimal: removing any one revision, section or item makes it pass. The \
            revision with --from is taken as a change from the empty snapshot.

            Prints the original failure first and the reduced one last. Writes DIR/history.jsonl \
            (importable by `replay import`) and, for --until, DIR/ReducedTest.swift, a Swift Testing \
            test that holds the history and fails with the reduced failure's message. \
            Interrupted (SIGINT or SIGTERM), it writes the smallest failing history found so far \
            and ends by that signal.

            Exit 0 when reduced; 2 for bad input, a history the oracle does not fail on, a \
            predicate that fails on the empty history, or a predicate past --timeout without \
            --timeout-means.

            Examples:
              replay reduce --log crash.lmdb --until strict --out Tests/Crash1234
              replay reduce --input history.jsonl --predicate './my-renderer-check' --jobs 4
            """
    )

    /// The built-in oracles `--until` names.
    enum Until: String, ExpressibleByArgument, CaseIterable {
        case verify, strict
    }

    @OptionGroup var logOptions: LogOptions

    @Option(
        help: ArgumentHelp(
            "Read revision lines from this file (an export, gzipped or not) instead of a log.", valueName: "file.jsonl"
        ))
    var input: String?

    @OptionGroup var rangeOptions: RangeOptions

    @Option(help: "The built-in oracle: verify or strict.")
    var until: Until?

    @Option(
        help: ArgumentHelp("The shell command that fails (exits non-zero) on a failing history.", valueName: "command"))
    var predicate: String?

    @Flag(help: "Accept a candidate that fails in any way, not only in the original's (--until).")
    var anyFailure = false

    @Option(help: ArgumentHelp("The directory to write the result to.", valueName: "directory"))
    var out = "./reduced"

    @Option(help: ArgumentHelp("The most oracle calls at a time (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp("The longest a predicate may run, in seconds.", valueName: "seconds"))
    var timeout: Double = 60

    @Option(help: "What a predicate past its timeout means: pass, fail or error.")
    var timeoutMeans: ReductionOracle.TimeoutMeaning = .error

    func validate() throws {
        if (until == nil) == (predicate == nil) {
            throw ValidationError("give exactly one oracle: --until verify, --until strict or --predicate CMD")
        }
        if input != nil && logOptions.explicitPath != nil {
            throw ValidationError("give either --log or --input, not both")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if !(timeout > 0) || !timeout.isFinite {
            throw ValidationError("--timeout must be a positive number of seconds")
        }
    }

    func run() async throws {
        let history = try await failingWithBadInput { try await readHistory() }
        let oracle: ReductionOracle =
            switch until {
            case .verify: .verify
            case .strict: .strict
            case nil:
                .predicate(
                    command: predicate ?? "", timeout: .milliseconds(Int64((timeout * 1000).rounded(.up))),
                    timeoutMeans: timeoutMeans)
            }
        let reducer = HistoryReducer(
            history: history, oracle: oracle, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            keepsFailureKind: !anyFailure)
        let line = ProgressLine()
        let result = try await failingWithBadInput {
            try await Interruption.catching(
                notice: "replay: interrupted; writing the smallest failing history found so far (interrupt again "
                    + "to end at once)\n"
            ) {
                try await reducer.reduce(progress: { line.show($0) }, stopRequested: { Interruption.signal != nil })
            }
        }
        line.finish()
        let directory = URL(fileURLWithPath: out)
        let files = try await failingWithBadInput { try result.write(to: directory) }
        if case .fails(let signature, let description, _) = result.originalVerdict, result.isBuiltInOracle {
            print("original failure (\(signature)): \(description)")
        }
        for summary in result.summaryLines { print(summary) }
        for file in files { print("wrote \(file.path)") }
        if case .fails(let signature, let description, _) = result.verdict, result.isBuiltInOracle {
            print("reduced failure (\(signature)): \(description)")
            if let message = result.reducedTestFailure { print("the test fails with: \(message)") }
        }
        try StandardOutput.flush()
        if result.interrupted, let signal = Interruption.signal { Interruption.end(by: signal) }
    }

    /// The history from `--input` or the log, cut to `--from` and `--to`.
    private func readHistory() async throws -> ReducibleHistory {
        if let input {
            guard let text = String(data: try ExportInput.contents(of: input), encoding: .utf8) else {
                throw InputError("\(input): the file is not UTF-8 text")
            }
            let records = try ReducibleHistory.records(jsonLines: text)
            let from = rangeOptions.from ?? 0
            let to = rangeOptions.to ?? .max
            return ReducibleHistory(records: records.filter { (from...to).contains($0.revision) })
        }
        let log = try logOptions.openExisting()
        guard let range = try rangeOptions.range(in: log) else { return ReducibleHistory() }
        var records: [RevisionRecord] = []
        for try await record in log.records(in: range) { records.append(record) }
        return ReducibleHistory(records: records)
    }
}

extension ReductionOracle.TimeoutMeaning: ExpressibleByArgument {}

/// The reduction's progress on standard error, only when it is a terminal: the size of the
/// smallest failing history so far, the oracle calls made and their rate.
final class ProgressLine: Sendable {
    private let enabled = isatty(STDERR_FILENO) == 1
    private let lastShown = Mutex<ContinuousClock.Instant?>(nil)

    func show(_ progress: ReductionProgress) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let due = lastShown.withLock { last in
            guard last.map({ now - $0 >= .milliseconds(100) }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        writeToStandardError(
            "\r\u{1B}[Kreducing: \(progress.size); \(progress.oracleCalls) oracle calls "
                + "(\(String(format: "%.1f", progress.callsPerSecond))/s)")
    }

    func finish() {
        guard enabled else { return }
        writeToStandardError("\r\u{1B}[K")
    }
}
