import Foundation
import ListFormat

extension RevisionRecord {
    /// The append time as the interchange format writes it: UTC, ISO 8601, milliseconds
    /// (`2026-11-20T10:00:00.000Z`).
    public var timeString: String { Timestamp.iso8601(milliseconds: millisecondsSince1970) }
}

extension Timestamp {
    /// The current time in whole milliseconds since 1970 (rounded down).
    static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The `Date` of `milliseconds` since 1970.
    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
