/// A snapshot's index from identifier to path: a hash table that keeps each identifier's hash
/// beside it, so that it is computed once per identifier, when the snapshot is built.
///
/// Used like a dictionary keyed by ``LiteralKey`` (subscript, `updateValue`, `removeValue`,
/// `count`), and besides looked up with a hash computed earlier: the diff finds a new item in
/// the old snapshot's index with the hash the new snapshot already holds (``ListSnapshot``'s
/// `itemHashes`), so no identifier is hashed twice.
///
/// The entries (hash, identifier, path) are stored densely, in the order they were added; the
/// table of slots holds, for each, its position and the high half of its hash, 8 bytes a slot.
/// Building touches the small table at random and the entries in order; a lookup reads one
/// slot, whose half hash rejects other identifiers, then one entry. A `Dictionary` of the same
/// identifiers reads and writes three arrays at random (occupancy, keys, values), about four
/// times the memory, which is what a large list's build and diff wait for.
///
/// Linear probing in a power-of-two table at most two thirds full; a removal shifts the slots that
/// follow back (no tombstones) and moves the last entry into the freed place. Hashes come from
/// `Hasher` with the process's seed, as a `Dictionary`'s do, so they cannot be predicted from
/// outside the process.
///
/// Invariants: `entries` holds no two literally equal identifiers, each with its hash
/// (``hash(of:)``); `slots.count` is a power of two at least `1.5 × entries.count` (and at least
/// ``minimumSlotCount``); exactly `entries.count` slots are occupied, one per entry, each in the
/// run of occupied slots that starts at its entry's home slot (`hash & (slots.count - 1)`),
/// holding the entry's position plus one and the high 32 bits of its hash.
@usableFromInline
package struct IdentifierIndex<ID: Hashable & Sendable>: Sendable {
    /// One identifier, its hash and its path (two 32-bit offsets: see ``maximumOffset``).
    @usableFromInline
    struct Entry: Sendable {
        /// `IdentifierIndex.hash(of: id)`.
        @usableFromInline var hash: Int
        /// The identifier.
        @usableFromInline var id: ID
        /// The path's section offset.
        @usableFromInline var section: UInt32
        /// The path's item offset.
        @usableFromInline var item: UInt32

        @inlinable @inline(__always)
        init(hash: Int, id: ID, path: ItemPath) {
            self.hash = hash
            self.id = id
            section = UInt32(truncatingIfNeeded: path.section)
            item = UInt32(truncatingIfNeeded: path.item)
        }

        /// The path.
        @inlinable
        var path: ItemPath {
            get { ItemPath(section: Int(section), item: Int(item)) }
            set { self = Entry(hash: hash, id: id, path: newValue) }
        }
    }

    /// The table: `0` is an empty slot; otherwise the high 32 bits of the entry's hash, and in
    /// the low 32 bits its position in `entries` plus one.
    @usableFromInline var slots: [UInt64]
    /// The entries, densely.
    @usableFromInline var entries: [Entry]

    /// The number of identifiers.
    @inlinable
    package var count: Int { entries.count }

    /// The largest section or item offset a path in the index may have.
    @inlinable
    package static var maximumOffset: Int { Int(UInt32.max) }

    /// The fewest slots a table has.
    @inlinable
    static var minimumSlotCount: Int { 8 }

    /// An empty index with room for `capacity` identifiers before it grows.
    /// - Complexity: O(*capacity*).
    @inlinable
    package init(minimumCapacity capacity: Int = 0) {
        slots = [UInt64](repeating: 0, count: Self.slotCount(forCapacity: capacity))
        entries = []
        entries.reserveCapacity(capacity)
    }

    /// An index of `entries` whose `slots` the caller filled (see the invariants).
    @inlinable
    init(slots: [UInt64], entries: [Entry]) {
        self.slots = slots
        self.entries = entries
    }

    /// The number of slots for `capacity` identifiers: a power of two, at least 1.5 × `capacity`.
    /// - Complexity: O(log *capacity*).
    @inlinable
    static func slotCount(forCapacity capacity: Int) -> Int {
        precondition(capacity < Int(UInt32.max) / 2, "too many identifiers for one index")
        var slotCount = Self.minimumSlotCount
        while 2 * slotCount < 3 * capacity { slotCount &<<= 1 }
        return slotCount
    }

    /// The hash of `id` that the index files it under, consistent with ``literallyEqual(_:_:)``:
    /// a string's literal hash (``hashLiterally(_:into:)``), any other type's `hashValue` (which
    /// for integers is one call, where a `Hasher` takes three).
    /// - Complexity: O(1), plus O(*l*) for a string of length *l*.
    @inlinable @inline(__always)
    package static func hash(of id: ID) -> Int {
        guard ID.self == String.self else { return id.hashValue }
        var hasher = Hasher()
        hashStringLiterally(id as! String, into: &hasher)
        return hasher.finalize()
    }

    /// The high half of `hash`, as a slot holds it.
    @inlinable @inline(__always)
    static func tag(_ hash: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: hash) & 0xFFFF_FFFF_0000_0000
    }

    /// The slot that holds `id`, whose hash is `hash`, or the empty slot where it would go.
    /// - Complexity: O(1) expected.
    @inlinable @inline(__always)
    static func slot(
        of id: ID, hash: Int, in slots: UnsafeBufferPointer<UInt64>, entries: UnsafeBufferPointer<Entry>
    ) -> (slot: Int, found: Bool) {
        let mask = slots.count &- 1
        let tag = Self.tag(hash)
        var slot = hash & mask
        while true {
            let content = slots[slot]
            if content == 0 { return (slot, false) }
            if content & 0xFFFF_FFFF_0000_0000 == tag {
                let entry = Int(truncatingIfNeeded: content & 0xFFFF_FFFF) &- 1
                if entries[entry].hash == hash, literallyEqual(entries[entry].id, id) { return (slot, true) }
            }
            slot = (slot &+ 1) & mask
        }
    }

    /// The position in `entries` of the entry that a non-empty slot holds.
    @inlinable @inline(__always)
    static func entryPosition(_ content: UInt64) -> Int {
        Int(truncatingIfNeeded: content & 0xFFFF_FFFF) &- 1
    }

    /// The path of `id`, whose hash (``hash(of:)``) the caller already has, or `nil`.
    /// - Complexity: O(1) expected; `id` is not hashed.
    @inlinable @inline(__always)
    package func path(of id: ID, hash: Int) -> ItemPath? {
        slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                let (slot, found) = Self.slot(of: id, hash: hash, in: slots, entries: entries)
                return found ? entries[Self.entryPosition(slots[slot])].path : nil
            }
        }
    }

    /// Files `id`, whose hash is `hash`, at `path`, unless it is there already.
    ///
    /// - Returns: the path `id` already had (the index is then unchanged), or `nil` when it was added.
    /// - Complexity: O(1) expected, amortised over growth; growing re-files the stored hashes
    ///   and hashes no identifier.
    @inlinable @inline(__always)
    package mutating func insertIfAbsent(_ id: ID, hash: Int, path: ItemPath) -> ItemPath? {
        precondition(
            (0...Self.maximumOffset).contains(path.section) && (0...Self.maximumOffset).contains(path.item),
            "an offset of \(path) is out of the index's range")
        if 3 * (entries.count + 1) > 2 * slots.count { grow() }
        let position = entries.count
        let existing: ItemPath? = entries.withUnsafeBufferPointer { entries in
            slots.withUnsafeMutableBufferPointer { slots in
                let (slot, found) = Self.slot(of: id, hash: hash, in: UnsafeBufferPointer(slots), entries: entries)
                if found { return entries[Self.entryPosition(slots[slot])].path }
                slots[slot] = Self.tag(hash) | UInt64(truncatingIfNeeded: position &+ 1)
                return nil
            }
        }
        if existing == nil { entries.append(Entry(hash: hash, id: id, path: path)) }
        return existing
    }

    /// Doubles the table, re-filing every entry under its stored hash.
    /// - Complexity: O(*slots*).
    @inlinable @inline(never)
    mutating func grow() {
        precondition(slots.count < Int(UInt32.max), "too many identifiers for one index")
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        entries.withUnsafeBufferPointer { entries in
            slots.withUnsafeMutableBufferPointer { slots in
                let mask = slots.count &- 1
                for position in entries.indices {
                    let hash = entries[position].hash
                    var slot = hash & mask
                    while slots[slot] != 0 { slot = (slot &+ 1) & mask }
                    slots[slot] = Self.tag(hash) | UInt64(truncatingIfNeeded: position &+ 1)
                }
            }
        }
    }

    /// Removes `id`, whose hash is `hash`.
    ///
    /// The slots after its own in its run move back into the gap when their home slot allows,
    /// so that every entry stays reachable from its home slot; the last entry moves into the
    /// removed one's place, and its slot is updated.
    ///
    /// - Returns: the path `id` had, or `nil` when it was not in the index.
    /// - Complexity: O(1) expected.
    @inlinable
    package mutating func remove(_ id: ID, hash: Int) -> ItemPath? {
        let position: Int? = entries.withUnsafeBufferPointer { entries in
            slots.withUnsafeMutableBufferPointer { slots in
                let (found, isThere) = Self.slot(of: id, hash: hash, in: UnsafeBufferPointer(slots), entries: entries)
                guard isThere else { return nil }
                let position = Self.entryPosition(slots[found])
                let mask = slots.count &- 1
                var gap = found
                var next = (gap &+ 1) & mask
                while slots[next] != 0 {
                    // The slot may fill the gap when its home is not in (gap, next] (cyclically).
                    let home = entries[Self.entryPosition(slots[next])].hash & mask
                    if (next &- home) & mask >= (next &- gap) & mask {
                        slots[gap] = slots[next]
                        gap = next
                    }
                    next = (next &+ 1) & mask
                }
                slots[gap] = 0
                return position
            }
        }
        guard let position else { return nil }
        let removed = entries[position].path
        let last = entries.count - 1
        if position != last {
            // The last entry takes the removed one's place: its slot now says so.
            let moved = entries[last]
            slots.withUnsafeMutableBufferPointer { slots in
                let mask = slots.count &- 1
                var slot = moved.hash & mask
                while Self.entryPosition(slots[slot]) != last { slot = (slot &+ 1) & mask }
                slots[slot] = Self.tag(moved.hash) | UInt64(truncatingIfNeeded: position &+ 1)
            }
            entries[position] = moved
        }
        entries.removeLast()
        return removed
    }

    /// The path of `key`'s identifier, or `nil`; setting a path files it there, setting `nil`
    /// removes the identifier, as a dictionary's subscript does.
    /// - Complexity: O(1) expected, plus hashing the identifier.
    @inlinable
    package subscript(key: LiteralKey<ID>) -> ItemPath? {
        get { path(of: key.value, hash: Self.hash(of: key.value)) }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Files `key`'s identifier at `path`, as a dictionary's `updateValue(_:forKey:)` does.
    /// - Returns: the identifier's previous path, or `nil` when it was not in the index.
    /// - Complexity: O(1) expected, plus hashing the identifier.
    @inlinable @discardableResult
    package mutating func updateValue(_ path: ItemPath, forKey key: LiteralKey<ID>) -> ItemPath? {
        let hash = Self.hash(of: key.value)
        guard let previous = insertIfAbsent(key.value, hash: hash, path: path) else { return nil }
        let (slot, _) = slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                Self.slot(of: key.value, hash: hash, in: slots, entries: entries)
            }
        }
        entries[Self.entryPosition(slots[slot])].path = path
        return previous
    }

    /// Removes `key`'s identifier, as a dictionary's `removeValue(forKey:)` does.
    /// - Returns: the identifier's path, or `nil` when it was not in the index.
    /// - Complexity: O(1) expected, plus hashing the identifier.
    @inlinable @discardableResult
    package mutating func removeValue(forKey key: LiteralKey<ID>) -> ItemPath? {
        remove(key.value, hash: Self.hash(of: key.value))
    }
}
