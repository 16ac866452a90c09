import ChangeLog
import Foundation

// The one place where the server turns records into the interchange format's text: every route
// and event stream calls these, so a move of the format code changes this file only.

enum RevisionLines {
    /// `record` as one revision line of the interchange format, without a trailing newline.
    static func line(_ record: RevisionRecord) -> String {
        record.jsonLine()
    }

    /// `record` as a revision line without its snapshot:
    /// `{"revision":R,"time":"…","meta":{…},"changes":{…}}`, keys in the format's order.
    static func changesOnlyLine(_ record: RevisionRecord) -> String {
        "{\"revision\":\(record.revision),\"time\":\"\(record.timeString)\",\"meta\":\(metaJSON(record.meta)),"
            + "\"changes\":\(record.changes.formatJSON())}"
    }

    /// `meta` as a JSON object with sorted keys and no spaces.
    private static func metaJSON(_ meta: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(meta) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
