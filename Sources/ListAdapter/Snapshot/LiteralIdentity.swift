/// How snapshots compare titles, identifiers and summaries: strings by their Unicode scalars
/// (code point by code point, so byte for byte in UTF-8), every other type by its own `==`.
///
/// Swift's `String` equality is Unicode canonical equivalence: a precomposed `"é"` and `"e"` +
/// U+0301 are equal. JSON, `NSString` and the renderers of other languages compare the code
/// points, and the interchange format's `apply` must give the new snapshot exactly; so two
/// spellings are two titles, identifiers or summaries here, and a string that only changes its
/// normalization is a change (an update of a summary, or a deletion and an insertion).
///
/// The checks below fold to constants once specialised.
@inlinable @inline(__always)
package func literallyEqual<Value: Equatable>(_ lhs: Value, _ rhs: Value) -> Bool {
    if Value.self == String.self {
        return literallyEqualStrings(lhs as! String, rhs as! String)
    }
    return lhs == rhs
}

/// ``literallyEqual(_:_:)`` for optional values: `nil` equals only `nil`.
@inlinable @inline(__always)
package func literallyEqual<Value: Equatable>(_ lhs: Value?, _ rhs: Value?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case (let lhs?, let rhs?): return literallyEqual(lhs, rhs)
    default: return false
    }
}

/// Feeds `value` to `hasher` consistently with ``literallyEqual(_:_:)``: a string's UTF-8 bytes,
/// every other type through its own `hash(into:)`.
@inlinable @inline(__always)
package func hashLiterally<Value: Hashable>(_ value: Value, into hasher: inout Hasher) {
    if Value.self == String.self {
        hashStringLiterally(value as! String, into: &hasher)
        return
    }
    hasher.combine(value)
}

/// ``hashLiterally(_:into:)`` for optional values.
@inlinable @inline(__always)
package func hashLiterally<Value: Hashable>(_ value: Value?, into hasher: inout Hasher) {
    guard let value else {
        hasher.combine(false)
        return
    }
    hasher.combine(true)
    hashLiterally(value, into: &hasher)
}

/// Whether two strings hold the same UTF-8 bytes. Two strings with the same representation
/// (the same inline bytes, or the same storage) do, without reading them. Strings that are not
/// canonically equivalent are not the same bytes either, and Swift's own `==` tells those apart
/// fastest (a comparison of the bits of two small strings, or of the bytes of two normalized
/// ones); only strings equal to it are compared byte for byte.
@inlinable @inline(__always)
package func literallyEqualStrings(_ lhs: String, _ rhs: String) -> Bool {
    let same = withUnsafePointer(to: lhs) { left in withUnsafePointer(to: rhs) { right in identicalBits(left, right) } }
    return same || (lhs == rhs && literallyEqualStringsApart(lhs, rhs))
}

/// ``literallyEqualStrings(_:_:)`` for canonically equivalent strings whose representations
/// differ.
@inlinable @inline(never)
package func literallyEqualStringsApart(_ lhs: String, _ rhs: String) -> Bool {
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    // Native strings are contiguous: compared in place, without a copy.
    let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
        rhs.utf8.withContiguousStorageIfAvailable { right in
            left.count == 0 || bytesEqual(left.baseAddress!, right.baseAddress!, left.count)
        }
    }
    if let compared, let compared { return compared }
    return lhs.utf8.elementsEqual(rhs.utf8)
}

/// Whether `count` bytes at `lhs` and `rhs` are the same.
@inlinable @inline(__always)
package func bytesEqual(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    UnsafeBufferPointer(start: lhs, count: count).elementsEqual(UnsafeBufferPointer(start: rhs, count: count))
}

/// Feeds a string's UTF-8 bytes to `hasher`, then a byte no UTF-8 text holds (0xFF), so that
/// consecutive strings hash apart from their concatenation: what Swift's own hashing feeds it for
/// normalized text, so ASCII costs the same. Hashing spellings of one text in other
/// normalizations alike (Swift's way, consistent with the finer literal equality too) would let
/// an input of many spellings of one text (2ⁿ of n "é"s) collide all in one bucket.
@inlinable @inline(__always)
package func hashStringLiterally(_ string: String, into hasher: inout Hasher) {
    let hashed: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    }
    if hashed == nil {
        for byte in string.utf8 { hasher.combine(byte) }
    }
    hasher.combine(0xFF as UInt8)
}

/// A dictionary key that compares and hashes its value literally (``literallyEqual(_:_:)``):
/// what snapshots index titles and identifiers by.
@usableFromInline
package struct LiteralKey<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The value.
    @usableFromInline package let value: Value

    /// Wraps `value`.
    @inlinable @inline(__always)
    package init(_ value: Value) {
        self.value = value
    }

    @inlinable @inline(__always)
    package static func == (lhs: Self, rhs: Self) -> Bool {
        literallyEqual(lhs.value, rhs.value)
    }

    @inlinable @inline(__always)
    package func hash(into hasher: inout Hasher) {
        hashLiterally(value, into: &hasher)
    }
}
