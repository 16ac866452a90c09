import ListFormat

extension RevisionRecord {
    /// The append time as the interchange format writes it: UTC, ISO 8601, milliseconds
    /// (`2026-11-20T10:00:00.000Z`).
    public var timeString: String { Timestamp.iso8601(milliseconds: millisecondsSince1970) }
}
