import ChangeLog
import Foundation

// The two places where reduction reads and writes the interchange format's revision lines: every
// other part of reduction goes through them, so that they are the only ones to change when the
// format's reading and writing move elsewhere.

extension ReducibleHistory {
    /// Reads interchange-format revision lines (as `replay export` writes them), oldest first;
    /// blank lines are skipped.
    ///
    /// - Throws: ``ReductionError`` with code ``ReductionError/Code-swift.struct/badInput`` naming
    ///   the first line that is not a revision line.
    /// - Complexity: O(*n*) in the size of the text, plus the diffs of ``init(records:)``.
    public init(jsonLines text: String) throws(ReductionError) {
        self.init(records: try Self.records(jsonLines: text))
    }

    /// The records of interchange-format revision lines, in the order of the lines; blank lines
    /// are skipped.
    ///
    /// - Throws: ``ReductionError`` with code ``ReductionError/Code-swift.struct/badInput`` naming
    ///   the first line that is not a revision line.
    /// - Complexity: O(*n*) in the size of the text.
    public static func records(jsonLines text: String) throws(ReductionError) -> [RevisionRecord] {
        var records: [RevisionRecord] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            records.append(try record(fromJSONLine: line, lineNumber: offset + 1))
        }
        return records
    }

    /// The history as interchange-format revision lines, each followed by a newline, numbered
    /// from 1 (``records``).
    /// - Complexity: O(*n*) in the size of the output.
    public func jsonLines() -> String {
        var text = ""
        for record in records {
            text += Self.jsonLine(of: record)
            text += "\n"
        }
        return text
    }

    /// Decodes one revision line: the one reading adapter of reduction.
    static func record(fromJSONLine line: Substring, lineNumber: Int) throws(ReductionError) -> RevisionRecord {
        do {
            return try RevisionRecord(jsonLine: line.utf8)
        } catch {
            throw ReductionError(.badInput, "line \(lineNumber) is not a revision line: \(error)")
        }
    }

    /// Encodes one revision line, without its newline: the one writing adapter of reduction.
    static func jsonLine(of record: RevisionRecord) -> String {
        record.jsonLine()
    }
}
