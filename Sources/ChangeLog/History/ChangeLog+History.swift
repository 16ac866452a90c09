import ListAdapter

/// How ``ChangeLog/history(of:in:where:)`` found the revisions it read.
public enum HistorySource: Hashable, Sendable {
    /// Through the history index the log keeps as it appends.
    case index
    /// Through the history index, which this call first built or completed (a log written
    /// before the index existed, or appended to by a writer that does not keep it).
    case builtIndex
    /// By reading every revision of the range: the log has no complete index and cannot be
    /// written (opened read-only, or on read-only storage).
    case scan
}

/// A history: its events, oldest first, and how they were found.
public struct History: Hashable, Sendable {
    /// What happened to the subject, one event per revision that touched it, oldest first.
    public var events: [HistoryEvent]
    /// How the revisions were found.
    public var source: HistorySource

    /// Creates a history.
    public init(events: [HistoryEvent], source: HistorySource) {
        self.events = events
        self.source = source
    }
}

extension ChangeLog {
    /// The history index of this log's storage engine.
    var historyIndex: any HistoryIndexStorage {
        store.storage.historyIndex()
    }

    /// Makes sure the index covers the latest revision when it can: returns how a history will
    /// be answered.
    func preparedHistorySource() throws(ChangeLogError) -> HistorySource {
        let index = historyIndex
        let latest = try latestRevision
        if let coverage = try index.coverage(), coverage >= latest { return .index }
        return try index.catchUp() ? .builtIndex : .scan
    }

    /// Every revision of `range` (default: every revision held) that inserted, deleted, moved or
    /// updated `subject`, or for an item took it away or brought it with its section, as events
    /// oldest first; with `filters`, only the revisions whose annotations satisfy all of them.
    ///
    /// The events come from the history index the log keeps as it appends, and their time and
    /// annotations from the revisions' records. A log written
    /// before the index existed gets one on first use when it can be written
    /// (``HistorySource/builtIndex``); otherwise every revision of the range is read
    /// (``HistorySource/scan``), with the same answer.
    ///
    /// The oldest revision held after retention dropped older ones has no event: the snapshot
    /// before it is gone.
    ///
    /// - Throws: ``ChangeLogError`` when a bound is not held (``ChangeLogError/Code/revisionNotFound``,
    ///   ``ChangeLogError/Code/revisionDropped``), or when reading fails.
    public func history(
        of subject: HistorySubject, in range: ClosedRange<UInt64>? = nil, where filters: [MetaFilter] = []
    ) throws(ChangeLogError) -> History {
        let source = try preparedHistorySource()
        let latest = try latestRevision
        guard latest > 0 else {
            if let range { _ = try record(at: range.lowerBound) }
            return History(events: [], source: source)
        }
        let first = try firstRevision
        let range = range ?? first...latest
        for bound in [range.lowerBound, range.upperBound] where !(first...latest).contains(bound) {
            _ = try record(at: bound)
        }
        // The oldest revision held follows a dropped one (or the empty list, for revision 1).
        let lower = first > 1 ? Swift.max(range.lowerBound, first + 1) : range.lowerBound
        guard lower <= range.upperBound else { return History(events: [], source: source) }
        let events: [HistoryEvent]
        switch source {
        case .index, .builtIndex:
            let indexed = try historyIndex.events(of: subject, in: lower...range.upperBound)
            events = try annotated(indexed, where: filters)
        case .scan:
            events = try scanEvents(for: subject, in: lower...range.upperBound, where: filters)
        }
        return History(events: events, source: source)
    }

    /// `events` as the index stores them, with the time and annotations of their revisions'
    /// records; with `filters`, only those whose annotations satisfy all of them.
    func annotated(_ events: [HistoryEvent], where filters: [MetaFilter]) throws(ChangeLogError) -> [HistoryEvent] {
        var annotated: [HistoryEvent] = []
        annotated.reserveCapacity(events.count)
        for batch in stride(from: 0, to: events.count, by: 256) {
            let slice = events[batch..<Swift.min(batch + 256, events.count)]
            try store.read(during: "reading a history") { transaction in
                for var event in slice {
                    let body = try store.body(at: event.revision, in: transaction)
                    guard MetaFilter.all(filters, match: body.meta) else { continue }
                    event.millisecondsSince1970 = body.timestamp
                    event.meta = body.meta
                    annotated.append(event)
                }
            }
        }
        return annotated
    }

    /// The events of `subject` in `range`, found by reading every revision of it.
    func scanEvents(for subject: HistorySubject, in range: ClosedRange<UInt64>, where filters: [MetaFilter])
        throws(ChangeLogError) -> [HistoryEvent]
    {
        var old = range.lowerBound > 1 ? try snapshot(at: range.lowerBound - 1) : LogSnapshot()
        var iterator = records(in: range).makeAsyncIterator()
        var events: [HistoryEvent] = []
        while let record = try iterator.next() {
            defer { old = record.snapshot }
            guard MetaFilter.all(filters, match: record.meta) else { continue }
            let touched = HistoryAnalysis.touched(old: old, new: record.snapshot, changes: record.changes)
            let isTouched: Bool =
                switch subject {
                case .item(let id): touched.items.contains(id)
                case .section(let title): touched.sections.contains(title)
                }
            if isTouched, let event = HistoryAnalysis.event(for: subject, old: old, record: record) {
                events.append(event)
            }
        }
        return events
    }

    /// The items ever stored (in the revisions held) whose identifier contains `text`,
    /// case-insensitively, ordered by identifier, at most `limit`; with the revisions that
    /// touched each first and last. Answered by the history index, built first when the log
    /// has none and can be written; otherwise by reading every revision.
    public func items(containing text: String, limit: Int = 50) throws(ChangeLogError) -> [HistoryItem] {
        switch try preparedHistorySource() {
        case .index, .builtIndex:
            return try historyIndex.items(containing: text, limit: limit)
        case .scan:
            return try scanItems(containing: text, limit: limit)
        }
    }

    private func scanItems(containing text: String, limit: Int) throws(ChangeLogError) -> [HistoryItem] {
        let latest = try latestRevision
        guard latest > 0, limit > 0 else { return [] }
        let first = try firstRevision
        let needle = text.lowercased()
        var found: [String: HistoryItem] = [:]
        var old = LogSnapshot()
        var iterator = records(in: first...latest).makeAsyncIterator()
        while let record = try iterator.next() {
            defer { old = record.snapshot }
            let touched = HistoryAnalysis.touched(old: old, new: record.snapshot, changes: record.changes)
            for id in touched.items where needle.isEmpty || id.lowercased().contains(needle) {
                found[id, default: HistoryItem(id: id, firstRevision: record.revision, lastRevision: 0)]
                    .lastRevision = record.revision
            }
        }
        let sorted = found.values.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        return Array(sorted.prefix(limit))
    }
}
