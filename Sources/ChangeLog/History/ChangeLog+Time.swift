extension ChangeLog {
    /// The revision that was current at `milliseconds` since 1970: the latest one appended at
    /// or before then; `nil` when the log is empty or every revision held is later.
    ///
    /// Found by binary search over the revisions' times, which a log's writer makes ascend
    /// (an import keeps the times it is given: where they go backwards, the answer is one of the
    /// revisions around the time).
    ///
    /// - Throws: ``ChangeLogError`` when reading fails.
    public func revision(atMillisecondsSince1970 milliseconds: Int64) throws(ChangeLogError) -> UInt64? {
        try store.read(during: "finding a revision by time") { transaction in
            guard let latest = try store.latest(in: transaction)?.revision, let first = try store.first(in: transaction)
            else { return nil }
            guard try store.body(at: first, in: transaction).timestamp <= milliseconds else { return nil }
            var low = first
            var high = latest
            // The answer is in low...high: low's time is at most `milliseconds`.
            while low < high {
                let middle = low + (high - low + 1) / 2
                if try store.body(at: middle, in: transaction).timestamp <= milliseconds {
                    low = middle
                } else {
                    high = middle - 1
                }
            }
            return low
        }
    }

    /// The revisions appended from `since` to `until` (milliseconds since 1970, either open),
    /// within `range` (default: every revision held); `nil` when none is.
    ///
    /// - Throws: ``ChangeLogError`` when reading fails.
    public func revisions(
        since: Int64?, until: Int64?, within range: ClosedRange<UInt64>? = nil
    ) throws(ChangeLogError) -> ClosedRange<UInt64>? {
        let latest = try latestRevision
        guard latest > 0 else { return nil }
        let held = try firstRevision...latest
        var lower = range?.lowerBound ?? held.lowerBound
        var upper = range?.upperBound ?? held.upperBound
        if let since {
            let before = since == Int64.min ? nil : try revision(atMillisecondsSince1970: since - 1)
            lower = Swift.max(lower, (before ?? 0) + 1)
        }
        if let until {
            guard let last = try revision(atMillisecondsSince1970: until) else { return nil }
            upper = Swift.min(upper, last)
        }
        return lower <= upper ? lower...upper : nil
    }
}
