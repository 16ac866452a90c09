import ArgumentParser
import ChangeLog
import Foundation

/// `--from R` and `--to R`, shared by the commands that read a range of revisions.
struct RangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The first revision (default: the oldest).", valueName: "revision"))
    var from: UInt64?

    @Option(help: ArgumentHelp("The last revision (default: the latest).", valueName: "revision"))
    var to: UInt64?

    func validate() throws {
        if let from, let to, from > to {
            throw ValidationError("--from \(from) is after --to \(to)")
        }
        if from == 0 || to == 0 { throw ValidationError("revisions count from 1") }
    }

    /// The range to read in `log`, or `nil` when the log is empty and no bound was given.
    /// - Throws: an error naming the bound when it is outside the log's revisions.
    func range(in log: ChangeLog) throws -> ClosedRange<UInt64>? {
        let first = try log.firstRevision
        let latest = try log.latestRevision
        if latest == 0 {
            if from == nil && to == nil { return nil }
            throw InputError.outOfRange(from ?? to ?? 1, in: log, first: first, latest: latest)
        }
        let lower = from ?? first
        let upper = to ?? latest
        for bound in [lower, upper] where bound < first || bound > latest {
            throw InputError.outOfRange(bound, in: log, first: first, latest: latest)
        }
        return lower...upper
    }
}

/// `--since TIME` and `--until TIME`, beside ``RangeOptions`` on the commands that read a range
/// of revisions: only the revisions appended in that time.
struct TimeRangeOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Only revisions appended at or after this time: RFC 3339 (2026-11-20T10:42:00Z, or with an offset such "
                + "as +01:00) or before now (-30m, -2h, -7d).",
            valueName: "time"))
    var since: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Only revisions appended at or before this time (as --since).", valueName: "time"))
    var until: String?

    func validate() throws {
        let (since, until) = try times()
        if let since, let until, since > until {
            throw ValidationError("--since \(self.since!) is after --until \(self.until!)")
        }
    }

    /// `--since` and `--until` in milliseconds since 1970.
    func times(now: Int64 = TimeExpression.now) throws -> (since: Int64?, until: Int64?) {
        (
            try since.map { try TimeArgument.milliseconds($0, option: "--since", now: now) },
            try until.map { try TimeArgument.milliseconds($0, option: "--until", now: now) }
        )
    }

    /// The revisions of `range` appended in the times given; `nil` when none was (or `range`
    /// is `nil`).
    func narrow(_ range: ClosedRange<UInt64>?, in log: ChangeLog) throws -> ClosedRange<UInt64>? {
        guard let range else { return nil }
        let (since, until) = try times()
        if since == nil && until == nil { return range }
        return try log.revisions(since: since, until: until, within: range)
    }

    /// ``narrow(_:in:)`` for the commands that need a revision: an error saying so when the
    /// times leave none.
    func narrowRequiringOne(_ range: ClosedRange<UInt64>?, in log: ChangeLog) throws -> ClosedRange<UInt64>? {
        guard let range, let narrowed = try narrow(range, in: log) else {
            guard range != nil else { return nil }
            let times = [since.map { "since \($0)" }, until.map { "until \($0)" }].compactMap { $0 }
            throw InputError(
                "no revision of \(ExportInput.name(ofLogAt: log.path)) from \(range!.lowerBound) to "
                    + "\(range!.upperBound) was appended \(times.joined(separator: " and "))")
        }
        return narrowed
    }
}

/// `--where key=value` and `--where key~text`, repeatable: only the revisions whose metadata
/// satisfy every condition.
struct WhereOptions: ParsableArguments {
    @Option(
        name: .customLong("where"),
        help: ArgumentHelp(
            "Only revisions whose metadata satisfy this: key=value (exactly that value) or key~text (a value that "
                + "contains the text). Repeat it: every condition must hold.",
            valueName: "condition"))
    var conditions: [String] = []

    func validate() throws { _ = try filters() }

    /// The conditions, parsed.
    func filters() throws -> [MetaFilter] {
        var filters: [MetaFilter] = []
        for condition in conditions {
            do {
                filters.append(try MetaFilter(parsing: condition))
            } catch {
                throw ValidationError("--where: \(error.message)")
            }
        }
        return filters
    }

    /// Whether `record`'s metadata satisfy every condition.
    func matches(_ record: RevisionRecord) throws -> Bool {
        MetaFilter.all(try filters(), match: record.meta)
    }
}
