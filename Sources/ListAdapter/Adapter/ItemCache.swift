/// A bounded least-recently-used cache of fetched items, keyed by identifier.
///
/// Each entry remembers the summary its item was fetched under, so an entry whose item has since
/// been updated is never returned. Entries live in an array of slots, doubly linked from most to
/// least recently used; a dictionary maps identifiers to slots. Every operation but ``retain(where:)``
/// is O(1) expected. Keys and summaries compare as snapshots compare them (``literallyEqual(_:_:)``).
struct ItemCache<Key: Hashable & Sendable, Summary: Hashable, Value> {
    private struct Entry {
        var key: Key
        var summary: Summary?
        var value: Value
        var newer: Int
        var older: Int
    }

    /// The most entries kept; 0 disables the cache.
    let capacity: Int
    private var slots: [Entry?] = []
    private var slotsByKey: [LiteralKey<Key>: Int] = [:]
    private var freeSlots: [Int] = []
    private var newest = -1
    private var oldest = -1

    init(capacity: Int) {
        precondition(capacity >= 0, "An item cache capacity cannot be negative (got \(capacity))")
        self.capacity = capacity
    }

    /// The number of entries.
    var count: Int { slotsByKey.count }

    /// The value cached for `key` under `summary`, marking it recently used; `nil` when there is
    /// none or it was fetched under another summary.
    mutating func value(for key: Key, summary: Summary?) -> Value? {
        guard let slot = slotsByKey[LiteralKey(key)], let entry = slots[slot], literallyEqual(entry.summary, summary)
        else { return nil }
        unlink(slot)
        linkAsNewest(slot)
        return entry.value
    }

    /// Caches `value` for `key` under `summary`, evicting the least recently used entry when full.
    mutating func insert(_ value: Value, for key: Key, summary: Summary?) {
        guard capacity > 0 else { return }
        removeValue(for: key)
        if slotsByKey.count == capacity, oldest >= 0, let entry = slots[oldest] {
            removeValue(for: entry.key)
        }
        let entry = Entry(key: key, summary: summary, value: value, newer: -1, older: -1)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = entry
        } else {
            slot = slots.count
            slots.append(entry)
        }
        slotsByKey[LiteralKey(key)] = slot
        linkAsNewest(slot)
    }

    /// Drops the entry for `key`, if any.
    mutating func removeValue(for key: Key) {
        guard let slot = slotsByKey.removeValue(forKey: LiteralKey(key)) else { return }
        unlink(slot)
        slots[slot] = nil
        freeSlots.append(slot)
    }

    /// Keeps only the entries for which `isValid(key, summary)` is true.
    /// - Complexity: O(*c*), where *c* is the number of entries.
    mutating func retain(where isValid: (Key, Summary?) -> Bool) {
        let stale = slots.compactMap { entry in entry.flatMap { isValid($0.key, $0.summary) ? nil : $0.key } }
        for key in stale { removeValue(for: key) }
    }

    /// Drops every entry.
    mutating func removeAll() {
        self = ItemCache(capacity: capacity)
    }

    private mutating func unlink(_ slot: Int) {
        guard let entry = slots[slot] else { return }
        if entry.newer >= 0 { slots[entry.newer]?.older = entry.older } else { newest = entry.older }
        if entry.older >= 0 { slots[entry.older]?.newer = entry.newer } else { oldest = entry.newer }
        slots[slot]?.newer = -1
        slots[slot]?.older = -1
    }

    private mutating func linkAsNewest(_ slot: Int) {
        slots[slot]?.older = newest
        slots[slot]?.newer = -1
        if newest >= 0 { slots[newest]?.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}
