import ChangeLog

/// Reads revision numbers from requests: a bad one is a 400 naming the parameter, never a 500.
enum RevisionParameters {
    /// `text` as a revision number (a decimal integer from 1), or `nil` when absent.
    /// - Throws: ``APIError`` (400) naming `name` when `text` is not such a number.
    static func parse(_ text: String?, name: String) throws(APIError) -> UInt64? {
        guard let text else { return nil }
        guard let revision = UInt64(text), revision >= 1, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            throw .badRequest("\(name) must be a revision number (an integer from 1), not '\(shown)'")
        }
        return revision
    }

    /// What the log holds, in words: `holds revisions F to L`, or `is empty`.
    static func holdings(first: UInt64, latest: UInt64) -> String {
        latest == 0 ? "the log is empty" : "the log holds revisions \(first) to \(latest)"
    }
}
