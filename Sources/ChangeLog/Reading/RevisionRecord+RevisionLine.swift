import ListAdapter
import ListFormat

// The interchange format's revision line, read and written by ListFormat: a record converts to
// and from its plain `RevisionLine` (ListFormat).

extension RevisionRecord {
    /// The record of a revision line.
    public init(_ line: RevisionLine) {
        self.init(
            revision: line.revision, millisecondsSince1970: line.millisecondsSince1970, meta: line.meta,
            snapshot: line.snapshot, changes: line.changes)
    }

    /// Reads one revision line as `replay export` writes it
    /// (`InterchangeFormat/readRevisionLine(_:)` (ListFormat)): unknown keys are ignored, `meta`
    /// is optional, `time` is ISO 8601 UTC with optional fractional seconds (kept to the
    /// millisecond).
    ///
    /// - Throws: `FormatError` (ListFormat) naming the column and the path of the first problem.
    public init(jsonLine: some Collection<UInt8>) throws(FormatError) {
        self.init(try InterchangeFormat.readRevisionLine(jsonLine))
    }

    /// The record as a revision line.
    public var revisionLine: RevisionLine {
        RevisionLine(
            revision: revision, millisecondsSince1970: millisecondsSince1970, meta: meta, snapshot: snapshot,
            changes: changes)
    }

    /// The record as one line of the interchange format's JSON Lines, without the trailing
    /// newline:
    /// `{"revision":1,"time":"2026-11-20T10:00:00.000Z","meta":{},"snapshot":{...},"changes":{...}}`,
    /// keys in that order, meta keys sorted, no spaces. Writers of many lines at once, to bytes,
    /// use `RevisionLine.appendLine(...)` and `RevisionLineEncoder` (ListFormat) with the
    /// record's fields.
    ///
    /// - Complexity: O(*n*) in the size of the output.
    public func jsonLine() -> String {
        var bytes: [UInt8] = []
        RevisionLine.appendLine(
            revision: revision, millisecondsSince1970: millisecondsSince1970, meta: meta, snapshot: snapshot,
            changes: changes, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
