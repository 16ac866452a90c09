import ListAdapter

/// One line of `replay export`: a revision as the interchange format writes it, with its
/// number, its time, its annotations, its snapshot and the changes from the revision before.
///
/// A plain value: the log converts its own records to and from it. ``jsonLine()`` writes it,
/// ``InterchangeFormat/readRevisionLine(_:)`` reads it.
public struct RevisionLine: Hashable, Sendable {
    /// The revision number, from 1.
    public var revision: UInt64
    /// When the revision was appended, in milliseconds since 1970-01-01T00:00:00Z (UTC).
    public var millisecondsSince1970: Int64
    /// The revision's annotations.
    public var meta: [String: String]
    /// The snapshot after the change.
    public var snapshot: ListSnapshot<String, String, String>
    /// The changes from the previous revision's snapshot to ``snapshot``.
    public var changes: ListChanges<String, String, String>

    /// Creates a revision line.
    public init(
        revision: UInt64, millisecondsSince1970: Int64, meta: [String: String],
        snapshot: ListSnapshot<String, String, String>, changes: ListChanges<String, String, String>
    ) {
        self.revision = revision
        self.millisecondsSince1970 = millisecondsSince1970
        self.meta = meta
        self.snapshot = snapshot
        self.changes = changes
    }

    /// The line, without its line feed:
    /// `{"revision":1,"time":"2026-11-20T10:00:00.000Z","meta":{},"snapshot":{...},"changes":{...}}`,
    /// keys in that order, `meta`'s keys sorted, no spaces.
    ///
    /// - Complexity: O(*n*) in the size of the output.
    public func jsonLine() -> String {
        Self.jsonLine(
            revision: revision, millisecondsSince1970: millisecondsSince1970, meta: meta, snapshot: snapshot,
            changes: changes)
    }

    /// The line of a revision of these parts, for a caller whose snapshot and changes have
    /// other identifier and summary types (written through their `description`).
    package static func jsonLine<
        ItemID: LosslessStringConvertible, Summary: LosslessStringConvertible, SectionSummary: LosslessStringConvertible
    >(
        revision: UInt64, millisecondsSince1970: Int64, meta: [String: String],
        snapshot: ListSnapshot<ItemID, Summary, SectionSummary>, changes: ListChanges<ItemID, Summary, SectionSummary>
    ) -> String {
        var writer = JSONWriter()
        write(
            revision: revision, millisecondsSince1970: millisecondsSince1970, meta: meta, snapshot: snapshot,
            changes: changes, into: &writer)
        return writer.string
    }

    /// Appends the line of a revision of these parts to `bytes`, without its line feed: the
    /// UTF-8 bytes of ``jsonLine()``.
    ///
    /// The types are the log's own (`String` identifiers and summaries), so the writing code is
    /// specialized for them here rather than run generically from another module.
    /// - Complexity: O(*n*) in the size of the output.
    public static func appendLine(
        revision: UInt64, millisecondsSince1970: Int64, meta: [String: String],
        snapshot: ListSnapshot<String, String, String>, changes: ListChanges<String, String, String>,
        to bytes: inout [UInt8]
    ) {
        JSONWriter.appending(to: &bytes) { writer in
            write(
                revision: revision, millisecondsSince1970: millisecondsSince1970, meta: meta, snapshot: snapshot,
                changes: changes, into: &writer)
        }
    }

    /// Appends a revision line without its snapshot to `bytes`, without its line feed:
    /// `{"revision":R,"time":"…","meta":{…},"changes":{…}}`, keys in that order, `meta`'s keys
    /// sorted code point by code point, no spaces.
    /// - Complexity: O(*n*) in the size of the output.
    public static func appendChangesOnlyLine(
        revision: UInt64, millisecondsSince1970: Int64, meta: [String: String],
        changes: ListChanges<String, String, String>, to bytes: inout [UInt8]
    ) {
        JSONWriter.appending(to: &bytes) { writer in
            writer.raw("{")
            writeHeader(revision: revision, millisecondsSince1970: millisecondsSince1970, into: &writer)
            writer.key("meta")
            writer.stringMapByCodePoint(meta)
            writer.raw(",")
            writer.key("changes")
            changes.write(into: &writer)
            writer.raw("}")
        }
    }

    private static func write<
        ItemID: LosslessStringConvertible, Summary: LosslessStringConvertible, SectionSummary: LosslessStringConvertible
    >(
        revision: UInt64, millisecondsSince1970: Int64, meta: [String: String],
        snapshot: ListSnapshot<ItemID, Summary, SectionSummary>, changes: ListChanges<ItemID, Summary, SectionSummary>,
        into writer: inout JSONWriter
    ) {
        writer.raw("{")
        writeHeader(revision: revision, millisecondsSince1970: millisecondsSince1970, into: &writer)
        writer.key("meta")
        writer.stringMap(meta)
        writer.raw(",")
        writer.key("snapshot")
        snapshot.write(into: &writer)
        writer.raw(",")
        writer.key("changes")
        changes.write(into: &writer)
        writer.raw("}")
    }

    /// Writes `"revision":R,"time":"…",`.
    static func writeHeader(revision: UInt64, millisecondsSince1970: Int64, into writer: inout JSONWriter) {
        writer.key("revision")
        writer.integer(revision)
        writer.raw(",")
        writer.key("time")
        writer.string(Timestamp.iso8601(milliseconds: millisecondsSince1970))
        writer.raw(",")
    }
}
