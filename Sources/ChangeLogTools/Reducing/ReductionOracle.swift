import ChangeLog
import ListAdapter

/// What decides whether a candidate history still fails while ``HistoryReducer`` shrinks it.
///
/// - ``verify``: the history fails while some revision does not verify: its changes break a
///   validity rule for the previous snapshot, or applying them does not give its snapshot (the
///   check of `ChangeLog.verify(_:progress:)`).
/// - ``strict``: the history fails while `UIKitStrictRenderer`, fed every revision's changes
///   from the empty snapshot, refuses some batch.
/// - ``predicate(command:timeout:timeoutMeans:)``: the history fails while a shell command exits
///   non-zero when given the history as revision lines on its standard input.
/// - ``custom(name:readsStoredChanges:allowsParallelCalls:_:)``: an in-process closure.
///
/// The built-in oracles read the stored changes of the revisions that keep their recorded
/// predecessor and the diff elsewhere; a predicate reads the diff everywhere, so its input is
/// always consistent. The built-in oracles name the kind of a failure in its signature: the check
/// that failed (verify's comparison with the stored snapshot, or the validity rule broken; the
/// strict renderer's `ListRuleViolationCode`) and the kind of operation it comes from (a move
/// whose `to` holds another item is an `item move` failure), so that a reduction that keeps the
/// signature does not slip to another failure.
public struct ReductionOracle: Sendable {
    /// What a predicate that runs past its timeout means.
    public enum TimeoutMeaning: String, Hashable, Sendable, CaseIterable {
        /// The candidate passes.
        case pass
        /// The candidate fails.
        case fail
        /// The reduction stops with ``ReductionError/Code-swift.struct/timedOut``.
        case error
    }

    /// The answer of an oracle about one candidate.
    public enum Verdict: Hashable, Sendable {
        /// The candidate does not show the failure.
        case passes
        /// The candidate fails: `signature` names the kind of failure (equal signatures are the same
        /// failure; for the built-in oracles, for example `verify snapshotMismatch, item move`), `description` says what failed, and `revision` is the offset of the failing
        /// revision in the candidate when the oracle knows it.
        case fails(signature: String, description: String, revision: Int?)

        /// Whether the candidate fails.
        public var isFailure: Bool {
            if case .fails = self { return true }
            return false
        }
    }

    enum Kind: Sendable {
        case verify
        case strict
        case predicate(PredicateCommand)
        case custom(@Sendable (ReducibleHistory) async -> Bool)
    }

    let kind: Kind
    /// A short name for reports: `verify`, `strict`, `predicate` or a custom oracle's name.
    public let name: String
    /// Whether the oracle reads stored changes (kept where a revision keeps its recorded
    /// predecessor) rather than changes recomputed by the diff everywhere.
    public let readsStoredChanges: Bool
    /// Whether several candidates may be asked at the same time.
    public let allowsParallelCalls: Bool

    /// Whether the oracle is ``verify`` or ``strict``, for which a test can be written.
    public var isBuiltIn: Bool {
        switch kind {
        case .verify, .strict: true
        case .predicate, .custom: false
        }
    }

    var changeSource: ChangeSource { readsStoredChanges ? .stored : .recomputed }

    /// Fails while some revision does not verify.
    public static let verify = ReductionOracle(
        kind: .verify, name: "verify", readsStoredChanges: true, allowsParallelCalls: true)

    /// Fails while the UIKit-strict renderer refuses some batch.
    public static let strict = ReductionOracle(
        kind: .strict, name: "strict", readsStoredChanges: true, allowsParallelCalls: true)

    /// Fails while `/bin/sh -c command` exits non-zero, or ends by a signal, when given the
    /// candidate as interchange-format revision lines (numbered from 1) on its standard input.
    ///
    /// The command runs in a process group of its own, with its standard output and standard
    /// error discarded; past `timeout` the group is killed and the call counts as `timeoutMeans`
    /// says.
    public static func predicate(
        command: String, timeout: Duration, timeoutMeans: TimeoutMeaning = .error
    ) -> ReductionOracle {
        ReductionOracle(
            kind: .predicate(PredicateCommand(command: command, timeout: timeout, timeoutMeans: timeoutMeans)),
            name: "predicate", readsStoredChanges: false, allowsParallelCalls: true)
    }

    /// Fails while `fails` returns `true` for the candidate.
    /// - Parameters:
    ///   - name: a short name for reports.
    ///   - readsStoredChanges: whether the candidates keep stored changes where they can, as the
    ///     built-in oracles do, rather than carry the diff everywhere.
    ///   - allowsParallelCalls: whether `fails` may run for several candidates at the same time.
    ///   - fails: whether a candidate history fails.
    public static func custom(
        name: String, readsStoredChanges: Bool = false, allowsParallelCalls: Bool = true,
        _ fails: @escaping @Sendable (ReducibleHistory) async -> Bool
    ) -> ReductionOracle {
        ReductionOracle(
            kind: .custom(fails), name: name, readsStoredChanges: readsStoredChanges,
            allowsParallelCalls: allowsParallelCalls)
    }

    /// Asks the oracle about `history`.
    /// - Throws: ``ReductionError`` when a predicate cannot run or times out with
    ///   ``TimeoutMeaning/error``.
    public func verdict(on history: ReducibleHistory) async throws(ReductionError) -> Verdict {
        switch kind {
        case .verify:
            return Self.verification(of: history)
        case .strict:
            return Self.strictReplay(of: history)
        case .predicate(let command):
            return try await command.verdict(on: history)
        case .custom(let fails):
            return await fails(history) ? .fails(signature: name, description: "\(name) fails", revision: nil) : .passes
        }
    }

    private static func verification(of history: ReducibleHistory) -> Verdict {
        var previous = LogSnapshot()
        for (offset, record) in history.records.enumerated() {
            if let failure = ChangeLog.check(record, after: previous) {
                let rule = (failure.cause as? ListChangesError).map { " \($0.code)" } ?? ""
                let operation = OperationBlame.kind(of: record.changes, from: previous, to: record.snapshot)
                return .fails(
                    signature: "verify \(failure.code)\(rule), \(operation)", description: failure.description,
                    revision: offset)
            }
            previous = record.snapshot
        }
        return .passes
    }

    private static func strictReplay(of history: ReducibleHistory) -> Verdict {
        var renderer = UIKitStrictRenderer<String, String, String>()
        var previous = LogSnapshot()
        for (offset, revision) in history.revisions.enumerated() {
            do {
                try renderer.performBatchUpdates(revision.changes, resultingIn: revision.snapshot)
            } catch {
                let code = (error as? BatchUpdateError)?.code.name ?? "\(type(of: error))"
                let operation = OperationBlame.kind(of: revision.changes, from: previous, to: revision.snapshot)
                return .fails(
                    signature: "strict \(code), \(operation)",
                    description: "revision \(offset + 1): the strict renderer refused the batch: \(error)",
                    revision: offset)
            }
            previous = revision.snapshot
        }
        return .passes
    }
}
