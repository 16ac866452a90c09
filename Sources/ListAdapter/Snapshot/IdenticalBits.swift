/// Whether the values at `lhs` and `rhs` have the same bits, compared eight bytes at a time.
///
/// Values with the same bits are the same value: two strings with the same representation hold
/// the same bytes (the same inline bytes, or the same immutable storage). This answers "is it
/// unchanged?" for values a new snapshot shares with the old one without copying them, which
/// would retain and release every string stored out of line. A `false` answer means only "look
/// closer": equal values may differ in their bits (separate storage, padding bytes).
@inlinable @inline(__always)
package func identicalBits<T>(_ lhs: UnsafePointer<T>, _ rhs: UnsafePointer<T>) -> Bool {
    if lhs == rhs { return true }
    let size = MemoryLayout<T>.size
    let left = UnsafeRawPointer(lhs)
    let right = UnsafeRawPointer(rhs)
    var offset = 0
    while offset + 8 <= size {
        guard
            left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        else { return false }
        offset += 8
    }
    while offset < size {
        guard left.load(fromByteOffset: offset, as: UInt8.self) == right.load(fromByteOffset: offset, as: UInt8.self)
        else { return false }
        offset += 1
    }
    return true
}

extension ListSnapshot.Item {
    /// Whether items can be compared by their bits: for string identifiers and summaries, whose
    /// representation has no padding and whose `==` is reflexive. Other types take the path that
    /// compares with `==`. Folds to a constant once specialised.
    @inlinable
    package static var comparesByBits: Bool { ItemID.self == String.self && Summary.self == String.self }
}

extension ListSnapshot {
    /// Whether `other` is a copy of this snapshot: the same storage, hence the same content,
    /// decided in O(1). Equal snapshots built separately do not share storage.
    ///
    /// Compared field by field: each storage reference by its bits, so that padding between
    /// the fields (whose bytes a copy need not keep) is never read.
    @inlinable
    package func sharesStorage(with other: Self) -> Bool {
        func same<Field>(_ lhs: Field, _ rhs: Field) -> Bool {
            withUnsafePointer(to: lhs) { lhs in withUnsafePointer(to: rhs) { rhs in identicalBits(lhs, rhs) } }
        }
        // A snapshot with edits pending in its index is compared by content elsewhere.
        guard pendingIndex == nil, other.pendingIndex == nil else { return false }
        return same(storedSections, other.storedSections) && same(storedPathsByID.slots, other.storedPathsByID.slots)
            && same(storedPathsByID.entries, other.storedPathsByID.entries)
            && same(offsetsByTitle, other.offsetsByTitle)
            && indexFollowsDisplayOrder == other.indexFollowsDisplayOrder
    }
}
