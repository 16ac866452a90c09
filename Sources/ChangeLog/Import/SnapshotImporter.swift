import Foundation
import ListAdapter

/// Appends snapshots read as the interchange format's JSON Lines (one snapshot, with optional
/// `meta`, per line) to a ``ChangeLog``, one revision per line: what `replay import` does.
///
/// A line may also be a revision line as `replay export` writes it, so that an export imports
/// back: its `snapshot` and `meta` are appended; the log numbers, stamps and diffs the revision
/// itself.
///
/// Every line is decoded and checked before anything is appended: a bad line stops the import
/// with a ``SnapshotImportError`` naming the line, and nothing of the input is appended
/// (the interchange format), unless ``Options/skipInvalid`` asks to report bad lines and go on. One
/// transaction then appends every line, or with ``Options/commitEvery`` one transaction per *N*
/// lines, so that an import interrupted while appending (a signal, a crash, a full disk) keeps
/// a gap-free prefix.
public struct SnapshotImporter: Sendable {
    /// How to import.
    public struct Options: Hashable, Sendable {
        /// Commit after every this many appended lines; `nil` appends everything in one
        /// transaction. Either way, no line is appended before every line was checked.
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
            return try CheckedJSON.decode(ImportLine.self, from: Data(line), reading: .importLine).annotated
        } catch {
            throw SnapshotImportError(line: lineNumber, problem: error.description)
        }
    }

    /// Imports every line of `input`. Blank lines are skipped.
    ///
    /// - Parameters:
    ///   - progress: called now and then with the number of lines read so far.
    /// - Throws: ``SnapshotImportError`` for a bad line (unless skipped), before anything is
    ///   appended; ``ChangeLogError`` when the log refuses an append. With
    ///   ``Options/commitEvery``, the transactions committed before such an error stay in the
    ///   log, and its latest revision tells where the import stopped.
    public func run(input: Data, progress: (Int) -> Void = { _ in }) async throws -> Report {
        var report = Report(revisions: [], skipped: [], linesRead: 0)
        var entries: [ChangeLog.AppendEntry] = []
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
                entries.append(.init(annotated.snapshot, meta: annotated.meta))
            } catch {
                guard options.skipInvalid else { throw error }
                report.skipped.append(error)
            }
        }
        progress(lineNumber)
        let log = try openLog()
        let batchSize = max(1, options.commitEvery ?? entries.count)
        var start = 0
        while start < entries.count {
            let end = min(entries.count, start + batchSize)
            let appended = try await log.append(contentsOf: Array(entries[start..<end]))
            report.revisions += appended.map(\.revision)
            start = end
        }
        return report
    }
}

/// A bad line of an import: its number and what is wrong with it.
public struct SnapshotImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// What is wrong, naming the field and the offending value where it can.
    public var problem: String

    /// Creates an error for `line`.
    public init(line: Int, problem: String) {
        self.line = line
        self.problem = problem
    }

    /// `line 3: missing field "title" in sections[1]`.
    public var description: String { "line \(line): \(problem)" }
}
