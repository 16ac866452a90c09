import ChangeLog
import ListFormat

// The one place where the server turns records into the interchange format's text: every route
// and event stream calls these, so a move of the format code changes this file only. The record's
// public fields go to ListFormat's public writers, byte for byte `RevisionRecord.jsonLine()`.

enum RevisionLines {
    /// `record` as one revision line of the interchange format, without a trailing newline.
    static func line(_ record: RevisionRecord) -> String {
        var bytes: [UInt8] = []
        append(record, changesOnly: false, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `record` as a revision line without its snapshot:
    /// `{"revision":R,"time":"…","meta":{…},"changes":{…}}`, keys in the format's order, `meta`'s
    /// keys sorted code point by code point.
    static func changesOnlyLine(_ record: RevisionRecord) -> String {
        var bytes: [UInt8] = []
        append(record, changesOnly: true, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``line(_:)``'s UTF-8 bytes, or with `changesOnly` ``changesOnlyLine(_:)``'s, to
    /// `bytes`, without a trailing newline: the same bytes without a `String` in between.
    static func append(_ record: RevisionRecord, changesOnly: Bool, to bytes: inout [UInt8]) {
        if changesOnly {
            RevisionLine.appendChangesOnlyLine(
                revision: record.revision, millisecondsSince1970: record.millisecondsSince1970, meta: record.meta,
                changes: record.changes, to: &bytes)
        } else {
            RevisionLine.appendLine(
                revision: record.revision, millisecondsSince1970: record.millisecondsSince1970, meta: record.meta,
                snapshot: record.snapshot, changes: record.changes, to: &bytes)
        }
    }

    /// Writes the lines of consecutive records (``line(_:)``'s or ``changesOnlyLine(_:)``'s
    /// bytes), copying each snapshot section a record shares with the record before it from
    /// that record's line rather than writing it again.
    struct Encoder: RevisionLineWriting {
        /// Whether the lines leave out their snapshots.
        let changesOnly: Bool
        private var lines = RevisionLineEncoder()

        /// Creates an encoder of full lines, or with `changesOnly` of lines without snapshots.
        init(changesOnly: Bool) {
            self.changesOnly = changesOnly
        }

        /// Appends `record`'s line to `bytes`, without a trailing newline.
        mutating func append(_ record: RevisionRecord, to bytes: inout [UInt8]) {
            if changesOnly {
                RevisionLines.append(record, changesOnly: true, to: &bytes)
            } else {
                lines.appendLine(
                    revision: record.revision, millisecondsSince1970: record.millisecondsSince1970, meta: record.meta,
                    snapshot: record.snapshot, changes: record.changes, to: &bytes)
            }
        }
    }
}

/// What turns consecutive revisions into revision lines, for ``RevisionRangeStream``.
protocol RevisionLineWriting {
    /// The revisions written.
    associatedtype Element: Sendable

    /// Appends `element`'s line to `bytes`, without a trailing newline.
    mutating func append(_ element: Element, to bytes: inout [UInt8])
}

/// Writes revisions read without their snapshots (``ChangeLog/changes(in:batchSize:)``) as
/// revision lines without snapshots: the bytes of ``RevisionLines/changesOnlyLine(_:)`` for
/// their full records.
struct ChangesOnlyLines: RevisionLineWriting {
    mutating func append(_ element: RevisionChanges, to bytes: inout [UInt8]) {
        RevisionLine.appendChangesOnlyLine(
            revision: element.revision, millisecondsSince1970: element.millisecondsSince1970, meta: element.meta,
            changes: element.changes, to: &bytes)
    }
}
