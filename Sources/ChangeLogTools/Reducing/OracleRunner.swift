import Foundation
import Synchronization

/// The reduction was asked to stop; the smallest failing candidate found so far stands.
struct ReductionStopped: Error {}

/// Asks the oracle about candidates: in parallel up to the job count, each candidate once
/// (answers are remembered), counting the calls and keeping the smallest failing candidate seen.
///
/// ``firstFailing(_:)`` answers as asking the candidates one by one in order would: it asks them
/// in consecutive groups of the job count and, in the first group with a failure, takes the first
/// failing one. The result does not depend on the job count; only the number of calls does.
final class OracleRunner: Sendable {
    let oracle: ReductionOracle
    let materializer: HistoryMaterializer
    let jobs: Int
    /// Whether a candidate must fail with the whole history's signature, rather than in any way.
    let keepsFailureKind: Bool
    private let stopRequested: @Sendable () -> Bool
    private let progress: @Sendable (ReductionProgress) -> Void
    private let started = ContinuousClock.now
    private let state: Mutex<State>

    private struct State {
        var calls = 0
        var answers: [HistoryShape: Bool] = [:]
        var signature: String?
        var smallest: (shape: HistoryShape, size: ReductionSize, verdict: ReductionOracle.Verdict)?
    }

    init(
        oracle: ReductionOracle, materializer: HistoryMaterializer, jobs: Int, keepsFailureKind: Bool = true,
        stopRequested: @escaping @Sendable () -> Bool, progress: @escaping @Sendable (ReductionProgress) -> Void
    ) {
        self.oracle = oracle
        self.materializer = materializer
        self.jobs = oracle.allowsParallelCalls ? max(1, jobs) : 1
        self.keepsFailureKind = keepsFailureKind
        self.stopRequested = stopRequested
        self.progress = progress
        state = Mutex(State())
    }

    /// The number of oracle calls so far.
    var calls: Int { state.withLock { $0.calls } }

    /// The smallest failing candidate seen so far, its size and the oracle's verdict on it.
    var smallest: (shape: HistoryShape, size: ReductionSize, verdict: ReductionOracle.Verdict)? {
        state.withLock { $0.smallest }
    }

    /// Asks about `shape` without remembering the answer or requiring the original failure's
    /// signature: for the checks before the reduction (the whole and the empty history).
    func verdict(_ shape: HistoryShape) async throws -> ReductionOracle.Verdict {
        try checkStop()
        let history = materializer.history(shape, changes: oracle.changeSource)
        let verdict = try await oracle.verdict(on: history)
        state.withLock { $0.calls += 1 }
        try checkStop()
        return verdict
    }

    /// Fixes the failure every candidate must show: the verdict on the whole history.
    func requireFailure(_ verdict: ReductionOracle.Verdict, of shape: HistoryShape) {
        guard case .fails(let signature, _, _) = verdict else { return }
        let history = materializer.history(shape, changes: oracle.changeSource)
        state.withLock {
            $0.signature = signature
            $0.answers[shape] = true
            $0.smallest = (shape, ReductionSize(history), verdict)
        }
    }

    /// Whether `shape` shows the failure.
    func fails(_ shape: HistoryShape) async throws -> Bool {
        try await firstFailing([shape]) != nil
    }

    /// The offset of the first of `shapes` that shows the failure, or `nil` when none does.
    /// - Throws: ``ReductionStopped`` when a stop was requested, or the oracle's error.
    func firstFailing(_ shapes: [HistoryShape]) async throws -> Int? {
        var offset = 0
        while offset < shapes.count {
            try checkStop()
            // The next candidates not asked yet, up to the job count; remembered answers are free.
            var group: [Int] = []
            var knownFailure: Int?
            gathering: while offset < shapes.count && group.count < jobs {
                switch state.withLock({ $0.answers[shapes[offset]] }) {
                case true?:
                    knownFailure = offset
                    break gathering
                case false?:
                    offset += 1
                case nil:
                    group.append(offset)
                    offset += 1
                }
            }
            let answers = try await ask(group.map { shapes[$0] })
            if let first = zip(group, answers).first(where: { $0.1 })?.0 { return first }
            if let knownFailure { return knownFailure }
        }
        return nil
    }

    private func ask(_ shapes: [HistoryShape]) async throws -> [Bool] {
        guard !shapes.isEmpty else { return [] }
        let verdicts = try await withThrowingTaskGroup(
            of: (Int, ReductionOracle.Verdict, ReductionSize).self
        ) { group in
            for (offset, shape) in shapes.enumerated() {
                group.addTask { [materializer, oracle] in
                    let history = materializer.history(shape, changes: oracle.changeSource)
                    let verdict = try await oracle.verdict(on: history)
                    return (offset, verdict, verdict.isFailure ? ReductionSize(history) : ReductionSize())
                }
            }
            var results = [(ReductionOracle.Verdict, ReductionSize)](
                repeating: (.passes, ReductionSize()), count: shapes.count)
            for try await (offset, verdict, size) in group { results[offset] = (verdict, size) }
            return results
        }
        // Answers that arrive after a stop was requested are not trusted (a predicate may have been
        // killed on the way).
        try checkStop()
        let (answers, report) = state.withLock { state -> ([Bool], ReductionProgress) in
            var answers: [Bool] = []
            for (shape, (verdict, size)) in zip(shapes, verdicts) {
                state.calls += 1
                var fails = false
                if case .fails(let signature, _, _) = verdict {
                    fails = !keepsFailureKind || signature == state.signature
                }
                state.answers[shape] = fails
                answers.append(fails)
                if fails, state.smallest.map({ size < $0.size }) ?? true {
                    state.smallest = (shape, size, verdict)
                }
            }
            let report = ReductionProgress(
                size: state.smallest?.size ?? ReductionSize(), oracleCalls: state.calls,
                elapsed: ContinuousClock.now - started)
            return (answers, report)
        }
        progress(report)
        return answers
    }

    private func checkStop() throws {
        if stopRequested() || Task.isCancelled { throw ReductionStopped() }
    }
}
