import Foundation

/// What ``HistoryReducer/reduce(progress:stopRequested:)`` found: the reduced history, the
/// oracle's verdict on it, and what the reduction cost.
public struct ReductionResult: Sendable {
    /// The oracle's name (`verify`, `strict`, `predicate` or a custom name).
    public var oracleName: String
    /// Whether the oracle is a built-in one, for which ``reducedTestSource()`` writes a test.
    public var isBuiltInOracle: Bool
    /// The history before reduction.
    public var original: ReducibleHistory
    /// The smallest failing history found; each revision keeps its original number and meta.
    public var reduced: ReducibleHistory
    /// The oracle's verdict on ``reduced``.
    public var verdict: ReductionOracle.Verdict
    /// The oracle's verdict on ``original``: the failure the reduction kept.
    public var originalVerdict: ReductionOracle.Verdict
    /// The oracle calls made.
    public var oracleCalls: Int
    /// The time the reduction took.
    public var elapsed: Duration
    /// Whether the reduction was stopped early: ``reduced`` is then the smallest failing history
    /// found until then, not necessarily 1-minimal.
    public var interrupted: Bool

    /// Creates a result; `originalVerdict` is `verdict` when not given.
    public init(
        oracleName: String, isBuiltInOracle: Bool, original: ReducibleHistory, reduced: ReducibleHistory,
        verdict: ReductionOracle.Verdict, oracleCalls: Int, elapsed: Duration, interrupted: Bool,
        originalVerdict: ReductionOracle.Verdict? = nil
    ) {
        self.oracleName = oracleName
        self.isBuiltInOracle = isBuiltInOracle
        self.original = original
        self.reduced = reduced
        self.verdict = verdict
        self.oracleCalls = oracleCalls
        self.elapsed = elapsed
        self.interrupted = interrupted
        self.originalVerdict = originalVerdict ?? verdict
    }

    /// The lines that say what the reduction did: sizes before and after, oracle calls, time.
    public var summaryLines: [String] {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return [
            "before: \(ReductionSize(original))",
            "after:  \(ReductionSize(reduced))"
                + (interrupted ? " (interrupted: the smallest failing history found so far)" : ""),
            "oracle calls: \(oracleCalls) (\(oracleName)) in \(String(format: "%.2f", seconds)) s",
        ]
    }

    /// Writes `history.jsonl` (the reduced history's revision lines, numbered from 1, for `replay
    /// import` and `replay view`) and, for a built-in oracle, `ReducedTest.swift` (which holds the
    /// same history) into `directory`, creating it when needed.
    /// - Returns: the files written.
    /// - Throws: the file system's error.
    @discardableResult
    public func write(to directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let history = directory.appendingPathComponent("history.jsonl")
        try Data(reduced.jsonLines().utf8).write(to: history)
        var written = [history]
        let test = directory.appendingPathComponent("ReducedTest.swift")
        if let source = reducedTestSource() {
            try Data(source.utf8).write(to: test)
            written.append(test)
        } else if FileManager.default.fileExists(atPath: test.path) {
            // A test left by an earlier reduction would not match the new history.
            try FileManager.default.removeItem(at: test)
        }
        return written
    }
}
