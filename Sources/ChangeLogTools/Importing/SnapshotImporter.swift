import ChangeLog
import Foundation
import ListAdapter
import ListFormat

/// Appends snapshots read as the interchange format's JSON Lines (one snapshot, with optional
/// `meta`, per line) to a `ChangeLog`, one revision per line: what `replay import` does.
///
/// A line may also be a revision line as `replay export` writes it, so that an export imports
/// back. A revision line with `changes` is evidence, kept as it was recorded: its snapshot,
/// `meta`, changes and `time` (when present) are stored as they are, even when its changes do
/// not take the previous revision's snapshot to its own; such revisions are counted in
/// ``Report/disagreeing``, and `ChangeLog.verify` names them. The log numbers every revision
/// after its latest (a line's `revision` is not kept), and a snapshot line, or a revision line
/// without `changes`, is stamped with the time of the append and diffed from the revision
/// before. ``Options/recomputesChanges`` diffs every line instead, keeping only snapshots and
/// `meta`.
///
/// Every line is decoded and checked before anything is appended: a bad line stops the import
/// with a ``SnapshotImportError`` naming the line, and nothing of the input is appended
/// (the interchange format), unless ``Options/skipInvalid`` asks to report bad lines and go on. One
/// transaction then appends every line, or with ``Options/commitEvery`` one transaction per *N*
/// lines, so that an import interrupted while appending (a signal, a crash, a full disk) keeps
/// a gap-free prefix.
///
/// Lines are decoded on every processor, in windows of up to 256 lines, each window ending with
/// the line that brings it to 16 MiB of text; a line shares the strings of the line before that
/// hold the same bytes, so decoded snapshots take about three times the bytes of their JSON
/// when consecutive lines differ in few items, and up to eight times when every string changes
/// from line to line.
///
/// Memory: an import in one transaction holds every line decoded until it appends them. With
/// ``Options/commitEvery`` an import keeps at most ``decodedLinesBudget`` bytes of lines decoded
/// between checking and appending them (besides the window being decoded), and decodes the
/// lines after those again when their transaction comes, so that its decoded lines stay bounded
/// whatever the input's length.
public struct SnapshotImporter: Sendable {
    /// How to import.
    public struct Options: Hashable, Sendable {
        /// Commit after every this many appended lines; `nil` appends everything in one
        /// transaction. Either way, no line is appended before every line was checked.
        public var commitEvery: Int?
        /// Skip bad lines (reporting them) instead of stopping at the first one.
        public var skipInvalid: Bool
        /// Whether a line that repeats a title or an id is bad (`.refuse`, the default), or keeps
        /// the first occurrence of each and drops the rest (`.keepFirst`, `replay import
        /// --drop-duplicates`), recording what it dropped in its revision's `meta` under
        /// `InterchangeFormat.droppedDuplicatesKey` (ListFormat): see
        /// `InterchangeFormat.readImportLine(_:previous:duplicates:recorded:)`.
        public var duplicatePolicy: DuplicatePolicy
        /// Whether a revision line's own `changes` and `time` are left out and its changes
        /// computed from the revision before, as for a snapshot line (`replay import
        /// --recompute-changes`); by default they are kept as recorded.
        public var recomputesChanges: Bool

        /// Creates options; the default is all or nothing, duplicates refused, recorded changes kept.
        public init(
            commitEvery: Int? = nil, skipInvalid: Bool = false, duplicatePolicy: DuplicatePolicy = .refuse,
            recomputesChanges: Bool = false
        ) {
            self.commitEvery = commitEvery
            self.skipInvalid = skipInvalid
            self.duplicatePolicy = duplicatePolicy
            self.recomputesChanges = recomputesChanges
        }
    }

    /// What an import did.
    public struct Report: Hashable, Sendable {
        /// The revisions appended, oldest first (empty when nothing was appended).
        public var revisions: [UInt64]
        /// The bad lines skipped under ``Options/skipInvalid``, in input order.
        public var skipped: [SnapshotImportError]
        /// The number of the last line read, blank lines included: the number of lines read
        /// when the import started at the input's first line.
        public var linesRead: Int
        /// The revisions appended with recorded changes that do not take the previous snapshot to
        /// their own, stored as they came, oldest first.
        public var disagreeing: [UInt64]

        /// Creates a report of an import that appended `revisions`, skipped `skipped`, read up to
        /// line `linesRead` and stored `disagreeing` with changes that disagree with their snapshots.
        public init(
            revisions: [UInt64] = [], skipped: [SnapshotImportError] = [], linesRead: Int = 0,
            disagreeing: [UInt64] = []
        ) {
            self.revisions = revisions
            self.skipped = skipped
            self.linesRead = linesRead
            self.disagreeing = disagreeing
        }

        /// The revisions appended, in words: `revisions 1 to 1000 (1000)`, or, where other
        /// writers appended between this import's transactions, `1000 revisions from 1 to 1500
        /// (other writers appended between them)`; `nil` when nothing was appended.
        public var revisionsSummary: String? {
            guard let first = revisions.first, let last = revisions.last else { return nil }
            guard last - first + 1 == UInt64(revisions.count) else {
                return "\(revisions.count) revisions from \(first) to \(last) (other writers appended between them)"
            }
            return "revisions \(first) to \(last) (\(revisions.count))"
        }
    }

    /// The log to append to, or how to open it when the first lines are ready to be appended.
    private let openLog: @Sendable () throws -> ChangeLog
    /// How to import.
    public let options: Options
    /// How many bytes of JSON lines an import with ``Options/commitEvery`` keeps decoded from
    /// checking them to appending them (16 MiB); the lines after those are decoded again.
    public static let decodedLinesBudget = 16 << 20
    /// ``decodedLinesBudget``, smaller in tests.
    var decodedBytesLimit = Self.decodedLinesBudget

    /// Creates an importer appending to `log`.
    public init(log: ChangeLog, options: Options = Options()) {
        self.openLog = { log }
        self.options = options
    }

    /// Creates an importer that opens (or creates) its log with `openLog` only once it has lines
    /// to append, or once it has read all of an input with nothing to append: an import stopped
    /// before its first append (a bad line of an all-or-nothing import) leaves no new log
    /// behind, and so never has to remove one that another process may have opened meanwhile.
    public init(options: Options = Options(), openingLogWith openLog: @escaping @Sendable () throws -> ChangeLog) {
        self.openLog = openLog
        self.options = options
    }

    /// Decodes one line of an import file: a snapshot line, or a revision line of an export
    /// (its `snapshot` and `meta`, and with `recorded` its `changes`, `revision` and `time`), read
    /// by `InterchangeFormat/readImportLine(_:previous:duplicates:recorded:)` (ListFormat) under
    /// `duplicatePolicy`.
    ///
    /// - Throws: ``SnapshotImportError`` naming `lineNumber`, the column and the path of the
    ///   first problem in the line, and the problem: not JSON, a missing or mistyped field (with
    ///   the offending value), a duplicate title or id (unless dropped), a key named twice in one
    ///   object, both `sections` and `snapshot` in the line, text that is not UTF-8.
    public static func decode(
        line: some Collection<UInt8>, lineNumber: Int, duplicatePolicy: DuplicatePolicy = .refuse,
        recorded: Bool = false
    ) throws(SnapshotImportError) -> AnnotatedSnapshot<String, String, String> {
        do {
            return try InterchangeFormat.readImportLine(line, duplicates: duplicatePolicy, recorded: recorded)
        } catch {
            throw SnapshotImportError(line: lineNumber, problem: error.description)
        }
    }

    /// ``decode(line:lineNumber:duplicatePolicy:recorded:)`` for a line in `buffer`, sharing the strings
    /// of `previous`, the line before's snapshot, where they hold the same bytes.
    static func decode(
        line buffer: UnsafeBufferPointer<UInt8>, lineNumber: Int, previous: ListSnapshot<String, String, String>?,
        duplicatePolicy: DuplicatePolicy = .refuse, recorded: Bool = false
    ) throws(SnapshotImportError) -> AnnotatedSnapshot<String, String, String> {
        do {
            return try InterchangeFormat.readImportLine(
                buffer, previous: previous, duplicates: duplicatePolicy, recorded: recorded)
        } catch {
            throw SnapshotImportError(line: lineNumber, problem: error.description)
        }
    }

    /// `error` for a line that opens an object and ends before closing it, followed by more
    /// lines, with a hint that each snapshot must be on one line: such an input is most likely a
    /// snapshot spread over lines, as pretty-printed JSON is; `error` unchanged for other lines.
    public static func hintingSpreadSnapshot(_ error: SnapshotImportError, line: some Collection<UInt8>)
        -> SnapshotImportError
    {
        var hinted = error
        hinted.problem += spreadHint(line)
        return hinted
    }

    /// The hint of ``hintingSpreadSnapshot(_:line:)`` for `line`, or an empty string.
    static func spreadHint(_ line: some Collection<UInt8>) -> String {
        guard line.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") else { return "" }
        var depth = 0
        var inString = false
        var escaped = false
        for byte in line {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        guard depth > 0 else { return "" }
        return " (each snapshot must be on one line, as JSON Lines: this line opens an object it does not close, "
            + "as the first line of a snapshot spread over several lines, pretty-printed, does)"
    }

    /// Imports every line of `input`. Blank lines are skipped.
    ///
    /// - Parameters:
    ///   - input: the lines to import, separated by `\n`: snapshot lines, or revision lines of an
    ///     export.
    ///   - firstLineNumber: the number of `input`'s first line, as errors, progress and
    ///     ``Report/linesRead`` count lines: 1, or more where `input` is a part of a longer
    ///     input read a part at a time.
    ///   - progress: called now and then, while lines are checked, with the number of the last
    ///     line read.
    ///   - appending: called before each transaction with the numbers of its first and last lines.
    ///   - stopRequested: asked before each line's outcome is taken, before each transaction, and
    ///     (from the log's writer thread) before each line of a transaction is prepared: once it
    ///     returns true, the import stops there. A transaction still being prepared is abandoned,
    ///     one already being written commits first, so an interrupted import appends a gap-free
    ///     prefix of its lines, or nothing. Lines are checked ahead of it, a decoding window at a
    ///     time (up to 256 lines, about 16 MiB): a request made while a window is decoded is seen
    ///     once that window is done.
    /// - Throws: ``SnapshotImportError`` for a bad line (unless skipped), before anything is
    ///   appended; ``SnapshotAppendError`` when the log refuses an append, naming the revisions
    ///   appended before it and the first line not appended (with ``Options/commitEvery``, the
    ///   transactions committed before the failure stay in the log); the error of the
    ///   `openingLogWith` closure when it cannot open the log; ``SnapshotImportInterrupted``
    ///   when `stopRequested` returned true before the import was done.
    public func run(
        input: Data, firstLineNumber: Int = 1, progress: (Int) -> Void = { _ in },
        appending: (ClosedRange<Int>) -> Void = { _ in },
        stopRequested: @escaping @Sendable () -> Bool = { false }
    ) async throws -> Report {
        var report = Report(revisions: [], skipped: [], linesRead: 0)
        // Every good line, and the entries of the first of them (all of them without commitEvery).
        var good: [Line] = []
        var decoded: [ChangeLog.AppendEntry] = []
        var decodedBytes = 0
        // Blank lines are counted, not kept: they append nothing.
        let (lines, lineCount) = Self.nonBlankLines(of: input, firstNumber: firstLineNumber)
        var window = 0..<0
        var outcomes: [DecodedLine] = []
        var progressReported = firstLineNumber - 1
        for (index, line) in lines.enumerated() {
            report.linesRead = line.number
            if stopRequested() { throw SnapshotImportInterrupted(report: report, firstLineNotAppended: nil) }
            if line.number - progressReported >= 1_000 {
                progress(line.number)
                progressReported = line.number
            }
            if !window.contains(index) {
                window = Self.decodingWindow(of: lines, from: index)
                outcomes = Self.decode(lines[window], of: input, options: options)
            }
            switch outcomes[index - window.lowerBound] {
            case nil:
                continue
            case .success(let entry):
                if decoded.count == good.count,
                    options.commitEvery == nil || decodedBytes + line.bytes.count <= decodedBytesLimit
                {
                    decoded.append(entry)
                    decodedBytes += line.bytes.count
                }
                good.append(line)
            case .failure(var error):
                if line.number == 1, lineCount > 1 {
                    error = input.withUnsafeBytes { Self.hintingSpreadSnapshot(error, line: $0[line.bytes]) }
                }
                guard options.skipInvalid else { throw error }
                report.skipped.append(error)
            }
        }
        if lineCount > 0 { report.linesRead = firstLineNumber - 1 + lineCount }
        progress(report.linesRead)
        let log = try openLog()
        let batchSize = max(1, options.commitEvery ?? good.count)
        var start = 0
        while start < good.count {
            if stopRequested() {
                throw SnapshotImportInterrupted(report: report, firstLineNotAppended: good[start].number)
            }
            let end = min(good.count, start + batchSize)
            appending(good[start].number...good[end - 1].number)
            var batch = Array(decoded[min(start, decoded.count)..<min(end, decoded.count)])
            // Checked already: decoding the same bytes again gives the same entries.
            let rest = good[max(start, decoded.count)..<max(end, decoded.count)]
            for outcome in Self.decode(rest, of: input, options: options) {
                if let outcome { batch.append(try outcome.get()) }
            }
            let appended: [AppendedRevision]
            do {
                appended = try await log.append(contentsOf: batch, abandonWhen: stopRequested)
            } catch  where error.code == .abandoned {
                throw SnapshotImportInterrupted(report: report, firstLineNotAppended: good[start].number)
            } catch {
                // The transactions committed so far stay: say which, so that a retry resumes
                // after them instead of appending them twice.
                throw SnapshotAppendError(report: report, firstLineNotAppended: good[start].number, cause: error)
            }
            report.revisions += appended.map(\.revision)
            report.disagreeing += appended.filter(\.changesDisagree).map(\.revision)
            start = end
        }
        return report
    }
}

/// A bad line of an import: its number and what is wrong with it.
public struct SnapshotImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// Where in the line and what is wrong, naming the field and the offending value where it
    /// can: `column 25, sections[0].title: expected a string, found 7`.
    public var problem: String

    /// Creates an error for `line`.
    public init(line: Int, problem: String) {
        self.line = line
        self.problem = problem
    }

    /// `line 3, column 15, sections[1]: missing field "title"`.
    public var description: String { "line \(line), \(problem)" }
}

/// An append that failed during an import: what the import had appended before it, which stays
/// in the log (with ``SnapshotImporter/Options/commitEvery``, the transactions committed before
/// the failure), and the first line it did not append.
public struct SnapshotAppendError: Error, Sendable, CustomStringConvertible {
    /// What the import did before the failure: ``SnapshotImporter/Report/revisions`` are the
    /// revisions appended and kept.
    public var report: SnapshotImporter.Report
    /// The 1-based number of the first line of the failed transaction: neither it nor any line
    /// after it was appended.
    public var firstLineNotAppended: Int
    /// Why the log refused the append.
    public var cause: ChangeLogError

    /// Creates an error for an import that appended `report.revisions` and then failed at the
    /// transaction starting with `firstLineNotAppended`.
    public init(report: SnapshotImporter.Report, firstLineNotAppended: Int, cause: ChangeLogError) {
        self.report = report
        self.firstLineNotAppended = firstLineNotAppended
        self.cause = cause
    }

    /// The revisions kept, as ``SnapshotImporter/Report/revisionsSummary`` says them, or
    /// `nothing` when none were appended.
    public var appendedSummary: String { report.revisionsSummary ?? "nothing" }

    /// `appending line 1001 failed: <cause>; appended before it: revisions 1 to 1000 (1000)`.
    public var description: String {
        "appending line \(firstLineNotAppended) failed: \(cause); appended before it: \(appendedSummary)"
    }
}
