import Foundation
import ListAdapter

/// Appends snapshots read as FORMAT.md's JSON Lines (one snapshot, with optional `meta`, per
/// line) to a ``ChangeLog``, one revision per line: what `replay import` does.
///
/// A line may also be a revision line as `replay export` writes it, so that an export imports
/// back: its `snapshot` and `meta` are appended; the log numbers, stamps and diffs the revision
/// itself.
///
/// By default an import is all or nothing: every line is decoded and checked first, and one
/// transaction appends them all; a bad line stops the import with a ``SnapshotImportError``
/// naming the line, and nothing of the input is appended. ``Options/commitEvery`` commits every
/// *N* lines instead, so that an interrupted import keeps a gap-free prefix;
/// ``Options/skipInvalid`` reports bad lines and goes on.
public struct SnapshotImporter: Sendable {
    /// How to import.
    public struct Options: Hashable, Sendable {
        /// Commit after every this many appended lines; `nil` appends everything in one
        /// transaction (all or nothing).
        public var commitEvery: Int?
        /// Skip bad lines (reporting them) instead of stopping at the first one.
        public var skipInvalid: Bool

        /// Creates options; the default is all or nothing.
        public init(commitEvery: Int? = nil, skipInvalid: Bool = false) {
            self.commitEvery = commitEvery
            self.skipInvalid = skipInvalid
        }
    }

    /// What an import did.
    public struct Report: Hashable, Sendable {
        /// The revisions appended, oldest first (empty when nothing was appended).
        public var revisions: [UInt64]
        /// The bad lines skipped under ``Options/skipInvalid``, in input order.
        public var skipped: [SnapshotImportError]
        /// The number of lines read, blank lines included.
        public var linesRead: Int
    }

    /// The log to append to, or how to open it when the first lines are ready to be appended.
    private let openLog: @Sendable () throws -> ChangeLog
    /// How to import.
    public let options: Options

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
    /// (its `snapshot` and `meta`).
    ///
    /// - Throws: ``SnapshotImportError`` naming `lineNumber` and the problem: not JSON, a
    ///   missing or mistyped field (with the offending value), a duplicate title or id, a key
    ///   named twice in one object, text that is not UTF-8 (UTF-16 or UTF-32, which
    ///   `JSONDecoder` would otherwise decode unchecked).
    public static func decode(line: some Collection<UInt8>, lineNumber: Int) throws(SnapshotImportError)
        -> AnnotatedSnapshot<String, String>
    {
        do {
            return try CheckedJSON.decode(ImportLine.self, from: Data(line)).annotated
        } catch {
            throw SnapshotImportError(line: lineNumber, problem: error.description)
        }
    }

    /// Imports every line of `input`. Blank lines are skipped.
    ///
    /// - Parameters:
    ///   - progress: called now and then with the number of lines read so far.
    /// - Throws: ``SnapshotImportError`` for a bad line (unless skipped), ``ChangeLogError`` when
    ///   the log refuses the append. With ``Options/commitEvery`` the lines committed before the
    ///   error stay in the log: a ``SnapshotImportError`` says how many; after a
    ///   ``ChangeLogError``, the log's latest revision tells where the import stopped.
    public func run(input: Data, progress: (Int) -> Void = { _ in }) async throws -> Report {
        var report = Report(revisions: [], skipped: [], linesRead: 0)
        var log: ChangeLog?
        var pending: [ChangeLog.AppendEntry] = []
        let batchSize = options.commitEvery.map { max(1, $0) }
        let bytes = [UInt8](input)
        var lineStart = 0
        var lineNumber = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            lineNumber += 1
            defer { lineStart = lineEnd + 1 }
            report.linesRead = lineNumber
            if lineNumber % 1_000 == 0 { progress(lineNumber) }
            let line = bytes[lineStart..<lineEnd]
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            do {
                let annotated = try Self.decode(line: line, lineNumber: lineNumber)
                pending.append(.init(annotated.snapshot, meta: annotated.meta))
            } catch {
                guard options.skipInvalid else {
                    throw error.committing(report.revisions.count)
                }
                report.skipped.append(error)
                continue
            }
            if let batchSize, pending.count >= batchSize {
                try await commit(&pending, into: &report, log: &log)
            }
        }
        progress(lineNumber)
        try await commit(&pending, into: &report, log: &log)
        if log == nil {
            // A successful import of nothing still leaves a log, as an import of lines would.
            _ = try openLog()
        }
        return report
    }

    /// Appends `pending` in one transaction, opening the log first if this is the first batch.
    private func commit(_ pending: inout [ChangeLog.AppendEntry], into report: inout Report, log: inout ChangeLog?)
        async throws
    {
        guard !pending.isEmpty else { return }
        let opened = try log ?? openLog()
        log = opened
        let appended = try await opened.append(contentsOf: pending)
        report.revisions += appended.map(\.revision)
        pending.removeAll(keepingCapacity: true)
    }
}

/// A bad line of an import: its number and what is wrong with it.
public struct SnapshotImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// What is wrong, naming the field and the offending value where it can.
    public var problem: String
    /// How many lines had been committed before the import stopped (with `commitEvery`).
    public var committedBefore: Int = 0

    /// Creates an error for `line`.
    public init(line: Int, problem: String) {
        self.line = line
        self.problem = problem
    }

    func committing(_ count: Int) -> Self {
        var copy = self
        copy.committedBefore = count
        return copy
    }

    /// `line 3: missing field "title" in sections[1]`, plus what was kept when some was.
    public var description: String {
        var text = "line \(line): \(problem)"
        if committedBefore > 0 {
            text += " (the \(committedBefore) revisions committed before this line stay in the log)"
        }
        return text
    }
}
