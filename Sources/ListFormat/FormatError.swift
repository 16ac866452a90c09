/// Input that is not the interchange format: where the first problem is (line, column, and the
/// path of the value inside the document) and what it is.
///
/// The problem is the first in input order: of several, the one whose byte comes first (a value
/// of the wrong type is found at its first byte, a missing field at the end of its object).
public struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 0-based byte offset of the problem in the text read.
    public var offset: Int
    /// The 1-based line of the problem in the text read (1 for a line of JSON Lines).
    public var line: Int
    /// The 1-based column: characters from the line's start, after a UTF-8 byte order mark.
    public var column: Int
    /// The path of the value at fault inside the document, such as `sections[3].items[12].id`;
    /// empty at the top level. Keys that are not printable on one line are quoted, long ones cut.
    public var path: String
    /// What is wrong: `expected a string, found 7`, `not valid JSON: trailing comma (",}")`.
    public var problem: String
    /// Whether the text read has several lines: then ``description`` names the line.
    public var namesLine: Bool

    /// Creates an error.
    public init(offset: Int, line: Int, column: Int, path: String, problem: String, namesLine: Bool) {
        self.offset = offset
        self.line = line
        self.column = column
        self.path = path
        self.problem = problem
        self.namesLine = namesLine
    }

    /// `column 25, sections[0].title: expected a string, found 7`, or with the line first
    /// (`line 2, column 3, …`) in text of several lines.
    public var description: String {
        let place = namesLine ? "line \(line), column \(column)" : "column \(column)"
        return "\(place)\(path.isEmpty ? "" : ", \(path)"): \(problem)"
    }
}
