import Foundation

/// Shrinks a failing history while the oracle says it still fails: the smallest failing history
/// it can find, 1-minimal in its revisions, sections and items.
///
/// The steps, each kept only when the oracle says the candidate still fails in the same way:
///
/// 1. For ``ReductionOracle/verify`` and ``ReductionOracle/strict``, the failing revision and the
///    one before it alone (a verification failure needs only its pair of snapshots), else every
///    revision up to the failing one.
/// 2. Revisions, by Zeller and Hildebrandt's ddmin: dropping a revision makes the one before it go straight
///    to the one after it, with changes recomputed by the diff there.
/// 3. Whole sections, then items, each removed from every snapshot at once; steps 2 and 3 repeat
///    until neither removes anything.
/// 4. Summaries: all dropped, else as many as can be; then the rest shortened to `1`, `2`, ….
/// 5. Titles renamed `s0`, `s1`, … and identifiers `a`, `b`, …, together or else one kind alone.
/// 6. Steps 2 and 3 again, so that the result is 1-minimal as it is named.
///
/// The oracle's calls run in groups of up to ``jobs`` at a time; the result is the same whatever
/// the job count, because each step takes the first failing candidate in a fixed order.
public struct HistoryReducer: Sendable {
    /// The steps a reduction takes.
    public struct Steps: OptionSet, Hashable, Sendable {
        /// The option set's bits.
        public let rawValue: Int

        /// Creates a set of steps from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Step 1: the failing revision's pair, for the built-in oracles.
        public static let failingPair = Steps(rawValue: 1 << 0)
        /// Step 2 (and 6): ddmin over revisions.
        public static let revisions = Steps(rawValue: 1 << 1)
        /// Step 3 (and 6): sections, then items, removed from every snapshot.
        public static let structure = Steps(rawValue: 1 << 2)
        /// Steps 4 and 5: summaries dropped or shortened, names shortened.
        public static let strings = Steps(rawValue: 1 << 3)
        /// Every step.
        public static let all: Steps = [.failingPair, .revisions, .structure, .strings]
    }

    /// The history to reduce.
    public let history: ReducibleHistory
    /// What decides whether a candidate fails.
    public let oracle: ReductionOracle
    /// How many oracle calls may run at the same time (1 when the oracle does not allow more).
    public let jobs: Int
    /// The steps taken; the others are skipped (``Steps/revisions`` alone is plain ddmin over
    /// revisions, a baseline for measurements).
    public let steps: Steps
    /// Whether every candidate must fail in the whole history's way (the oracle's signature: for
    /// the built-in oracles, the same check failing on the same kind of operation) rather than in
    /// any way.
    public let keepsFailureKind: Bool

    /// Creates a reducer.
    /// - Parameters:
    ///   - history: the failing history to reduce.
    ///   - oracle: what decides whether a candidate fails.
    ///   - jobs: the most oracle calls at the same time; at least 1.
    ///   - steps: the steps to take; every one by default.
    ///   - keepsFailureKind: whether candidates must fail in the whole history's way (`true`, the
    ///     default) or may fail in any way.
    public init(
        history: ReducibleHistory, oracle: ReductionOracle, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        steps: Steps = .all, keepsFailureKind: Bool = true
    ) {
        self.history = history
        self.oracle = oracle
        self.jobs = max(1, jobs)
        self.steps = steps
        self.keepsFailureKind = keepsFailureKind
    }

    /// Reduces the history.
    ///
    /// - Parameters:
    ///   - progress: called after each group of oracle calls, from any thread.
    ///   - stopRequested: polled between oracle calls; once it returns `true`, the reduction stops
    ///     and returns the smallest failing history found so far, marked
    ///     ``ReductionResult/interrupted``.
    /// - Throws: ``ReductionError``: ``ReductionError/Code-swift.struct/passesOnInput`` when the
    ///   whole history does not fail, ``ReductionError/Code-swift.struct/failsOnEmpty`` when a
    ///   predicate or custom oracle fails on the empty history, or the oracle's own error.
    public func reduce(
        progress: @escaping @Sendable (ReductionProgress) -> Void = { _ in },
        stopRequested: @escaping @Sendable () -> Bool = { false }
    ) async throws(ReductionError) -> ReductionResult {
        let started = ContinuousClock.now
        let materializer = HistoryMaterializer(original: history)
        let runner = OracleRunner(
            oracle: oracle, materializer: materializer, jobs: jobs, keepsFailureKind: keepsFailureKind,
            stopRequested: stopRequested, progress: progress)
        let whole = HistoryShape(kept: Array(history.revisions.indices))
        var current = whole
        var interrupted = false
        var originalVerdict = ReductionOracle.Verdict.passes
        do {
            let verdict = try await runner.verdict(whole)
            guard case .fails(_, _, let failingRevision) = verdict else {
                throw ReductionError(
                    .passesOnInput,
                    "the \(oracle.name) oracle does not fail on the whole history (\(history.revisionCount) "
                        + "revisions): there is nothing to reduce")
            }
            if !oracle.isBuiltIn, try await runner.verdict(HistoryShape(kept: [])).isFailure {
                throw ReductionError(
                    .failsOnEmpty,
                    "the \(oracle.name) oracle fails on the empty history too: it does not depend on the history")
            }
            originalVerdict = verdict
            runner.requireFailure(verdict, of: whole)
            if let failingRevision, steps.contains(.failingPair) {
                current = try await aroundFailure(at: failingRevision, runner: runner) ?? current
            }
            current = try await minimizeStructure(current, runner: runner)
            if steps.contains(.strings) {
                current = try await simplifyStrings(current, runner: runner)
                current = try await minimizeStructure(current, runner: runner)
            }
        } catch let error as ReductionError {
            throw error
        } catch is ReductionStopped {
            interrupted = true
            current = runner.smallest?.shape ?? current
        } catch {
            throw ReductionError(.predicateNotRun, "\(error)")
        }
        let reduced = materializer.history(current, changes: oracle.changeSource)
        var verdict = runner.smallest?.verdict ?? .passes
        if oracle.isBuiltIn, let final = try? await oracle.verdict(on: reduced) { verdict = final }
        return ReductionResult(
            oracleName: oracle.name, isBuiltInOracle: oracle.isBuiltIn, original: history, reduced: reduced,
            verdict: verdict, oracleCalls: runner.calls, elapsed: ContinuousClock.now - started,
            interrupted: interrupted, originalVerdict: originalVerdict)
    }

    /// Step 1: the failing revision with the one before it, else every revision up to it.
    private func aroundFailure(at failing: Int, runner: OracleRunner) async throws -> HistoryShape? {
        let pair = HistoryShape(kept: failing > 0 ? [failing - 1, failing] : [failing])
        let prefix = HistoryShape(kept: Array(0...failing))
        guard let found = try await runner.firstFailing([pair, prefix]) else { return nil }
        return found == 0 ? pair : prefix
    }

    /// `shape` with every name of `names` that the failure does not need added to its `removed`
    /// set, found by ddmin over `names` (whole sections by title, or items by id).
    private func removingUnneeded(
        _ names: [String], at removed: WritableKeyPath<HistoryShape, Set<String>>, from shape: HistoryShape,
        runner: OracleRunner
    ) async throws -> HistoryShape {
        func without(_ kept: [String]) -> HistoryShape {
            var candidate = shape
            candidate[keyPath: removed].formUnion(Set(names).subtracting(kept))
            return candidate
        }
        return without(
            try await DeltaDebugging.minimize(names, tryingEmpty: true, candidate: without, runner: runner))
    }

    /// Steps 2 and 3 until neither removes anything.
    private func minimizeStructure(_ start: HistoryShape, runner: OracleRunner) async throws -> HistoryShape {
        var current = start
        while true {
            let before = current
            if steps.contains(.revisions) {
                current.kept = try await DeltaDebugging.minimize(
                    current.kept, tryingEmpty: false,
                    candidate: { kept in
                        var shape = current
                        shape.kept = kept
                        return shape
                    }, runner: runner)
            }
            guard steps.contains(.structure) else { return current }
            current = try await removingUnneeded(
                present(in: current, titles: true), at: \.removedSections, from: current, runner: runner)
            current = try await removingUnneeded(
                present(in: current, titles: false), at: \.removedItems, from: current, runner: runner)
            if current == before { return current }
        }
    }

    /// Steps 4 and 5.
    private func simplifyStrings(_ start: HistoryShape, runner: OracleRunner) async throws -> HistoryShape {
        var current = start
        let kept = current.kept.map { history.revisions[$0].snapshot }
        var withSummaries: [String] = []
        for snapshot in kept {
            for section in snapshot.sections where !current.removedSections.contains(section.title) {
                for item in section.items where item.summary != nil && !current.removedItems.contains(item.id) {
                    withSummaries.append(item.id)
                }
            }
        }
        withSummaries = Self.inFirstAppearanceOrder(withSummaries)
        let withSectionSummaries = Self.inFirstAppearanceOrder(
            kept.flatMap { snapshot in
                snapshot.sections.lazy.filter { $0.summary != nil && !current.removedSections.contains($0.title) }
                    .map(\.title)
            })
        if !withSectionSummaries.isEmpty {
            current.sectionSummariesKept = Set(
                try await DeltaDebugging.minimize(
                    withSectionSummaries, tryingEmpty: true,
                    candidate: { titles in
                        var shape = current
                        shape.sectionSummariesKept = Set(titles)
                        return shape
                    }, runner: runner))
        }
        if !withSummaries.isEmpty {
            let keptSummaries = try await DeltaDebugging.minimize(
                withSummaries, tryingEmpty: true,
                candidate: { ids in
                    var shape = current
                    shape.summariesKept = Set(ids)
                    return shape
                }, runner: runner)
            current.summariesKept = Set(keptSummaries)
            if !keptSummaries.isEmpty || current.sectionSummariesKept?.isEmpty == false {
                var shortened = current
                shortened.shortSummaries = true
                if try await runner.fails(shortened) { current = shortened }
            }
        }
        var both = current
        both.renamedTitles = true
        both.renamedIDs = true
        var titles = current
        titles.renamedTitles = true
        var ids = current
        ids.renamedIDs = true
        if let found = try await runner.firstFailing([both, titles, ids]) {
            current = [both, titles, ids][found]
        }
        return current
    }

    /// The original titles (or identifiers) of the sections (or items) that `shape` keeps, in the
    /// order they first appear.
    private func present(in shape: HistoryShape, titles: Bool) -> [String] {
        var names: [String] = []
        for offset in shape.kept {
            for section in history.revisions[offset].snapshot.sections
            where !shape.removedSections.contains(section.title) {
                if titles {
                    names.append(section.title)
                } else {
                    names += section.items.lazy.map(\.id).filter { !shape.removedItems.contains($0) }
                }
            }
        }
        return Self.inFirstAppearanceOrder(names)
    }

    private static func inFirstAppearanceOrder(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}
