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
    /// keys in that order, meta keys sorted, no spaces.
    ///
    /// - Complexity: O(*n*) in the size of the output.
    public func jsonLine() -> String {
        var bytes: [UInt8] = []
        appendJSONLine(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the record's revision line (``jsonLine()``'s UTF-8 bytes, without a line feed)
    /// to `bytes`.
    ///
    /// - Complexity: O(*n*) in the size of the output.
    package func appendJSONLine(to bytes: inout [UInt8]) {
        RevisionLine.appendLine(
            revision: revision, millisecondsSince1970: millisecondsSince1970, meta: meta, snapshot: snapshot,
            changes: changes, to: &bytes)
    }

    /// Appends the record's revision line without its snapshot to `bytes`, without a line feed:
    /// `{"revision":R,"time":"…","meta":{…},"changes":{…}}`, keys in that order, `meta`'s keys
    /// sorted code point by code point, no spaces.
    ///
    /// - Complexity: O(*n*) in the size of the output.
    package func appendChangesOnlyJSONLine(to bytes: inout [UInt8]) {
        RevisionLine.appendChangesOnlyLine(
            revision: revision, millisecondsSince1970: millisecondsSince1970, meta: meta, changes: changes,
            to: &bytes)
    }
}

/// Writes the revision lines of consecutive records, as ``RevisionRecord/jsonLine()`` writes
/// each: a snapshot section that a record shares with the record written before it (the log's
/// consecutive snapshots share their unchanged sections) is copied from that line rather than
/// written again (`RevisionLineEncoder` (ListFormat)).
package struct RecordLineEncoder {
    private var encoder = RevisionLineEncoder()

    /// Creates an encoder that has written nothing yet.
    package init() {}

    /// Appends `record`'s revision line (``RevisionRecord/jsonLine()``'s UTF-8 bytes, without a
    /// line feed) to `bytes`.
    package mutating func appendJSONLine(of record: RevisionRecord, to bytes: inout [UInt8]) {
        encoder.appendLine(
            revision: record.revision, millisecondsSince1970: record.millisecondsSince1970, meta: record.meta,
            snapshot: record.snapshot, changes: record.changes, to: &bytes)
    }
}
