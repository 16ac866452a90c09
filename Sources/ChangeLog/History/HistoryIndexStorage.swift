/// An item ever stored, as the history index knows it: its identifier and the oldest and latest
/// revisions held that touched it.
public struct HistoryItem: Hashable, Sendable {
    /// The identifier.
    public var id: String
    /// The oldest revision held that inserted, deleted, moved or updated the item.
    public var firstRevision: UInt64
    /// The latest revision that did.
    public var lastRevision: UInt64

    /// Creates a description of an item.
    public init(id: String, firstRevision: UInt64, lastRevision: UInt64) {
        self.id = id
        self.firstRevision = firstRevision
        self.lastRevision = lastRevision
    }
}

/// What a storage engine keeps for the history index: for each item identifier and section
/// title, what each revision that touched it did (``HistoryAnalysis/touched(old:new:changes:)``
/// works it out, with everything of the event but its time and annotations, which the revision's
/// record holds), and the latest revision the index covers. ``HistoryEventCoding`` is the compact
/// form an engine may store a subject's events in, in blocks. The log's engine writes a
/// revision's events in the transaction that stores the revision; everything else about
/// histories (time and annotations, answering by scan when there is no index) is the
/// engine-independent part, in ``ChangeLog/history(of:in:where:)``.
package protocol HistoryIndexStorage: Sendable {
    /// The latest revision the index covers (every revision from the oldest held up to it has
    /// its entries), or `nil` when the log has no index.
    func coverage() throws(ChangeLogError) -> UInt64?

    /// What the revisions of `range` did to `subject`, ascending, with no time (0) and no
    /// annotations.
    func events(of subject: HistorySubject, in range: ClosedRange<UInt64>) throws(ChangeLogError) -> [HistoryEvent]

    /// The items whose identifier contains `text` (case-insensitively), ordered by identifier,
    /// at most `limit` of them.
    func items(containing text: String, limit: Int) throws(ChangeLogError) -> [HistoryItem]

    /// What the index holds now: its coverage, entries and bytes.
    func status() throws(ChangeLogError) -> HistoryIndexStatus

    /// Creates the index when the log has none and adds the entries of the revisions it does not
    /// cover yet. Returns `false`, doing nothing, when the log cannot be written.
    func catchUp() throws(ChangeLogError) -> Bool
}
