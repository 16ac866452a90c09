extension ListSnapshot {
    /// Whether this build checks a snapshot's invariants as it is made: `true` in debug builds
    /// of this module (where `DEBUG` is defined), `false` otherwise.
    ///
    /// Documented performance promises do not hold when it is `true`: making a snapshot of *n*
    /// items looks each of them up in its index once more.
    package static var _isConsistencyCheckingEnabled: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    #if DEBUG
        /// Traps with a description of the first broken invariant when the index disagrees with
        /// the sections (see ``_invariantViolation()``). Every initializer calls it in debug builds;
        /// in other builds it does nothing.
        ///
        /// - Complexity: O(*s* + *n*) expected, where *s* is the number of sections and *n* the
        ///   number of items.
        @usableFromInline @inline(never)
        package func _checkInvariants() {
            if let violation = _invariantViolation() {
                preconditionFailure("ListSnapshot invariant broken: \(violation)")
            }
        }
    #else
        /// Does nothing: invariants are checked in debug builds only.
        /// - Complexity: O(1).
        @inlinable @inline(__always)
        package func _checkInvariants() {}
    #endif

    /// The first way in which the index disagrees with the sections, in words, or `nil` when it
    /// agrees.
    ///
    /// The invariants of the index:
    /// - `offsetsByTitle` has one entry per section, and each section's title leads to that
    ///   section's offset (so no two sections share a title);
    /// - `pathsByID` has one entry per item, and each item's identifier leads to that item's
    ///   path (so no two items share an identifier);
    /// - hence ``itemCount``, the size of `pathsByID`, is the number of items in the sections;
    /// - with edits in place pending (`pendingIndex`), the same holds of the paths read through
    ///   them, and no identifier they deleted leads to an item;
    /// - when `indexFollowsDisplayOrder` says so, the index's entries are the items in display order.
    ///
    /// Titles and identifiers are looked up literally, as the index keys them.
    ///
    /// - Complexity: O(*s* + *n*) expected, where *s* is the number of sections and *n* the
    ///   number of items: one lookup for each.
    package func _invariantViolation() -> String? {
        if offsetsByTitle.count != sections.count {
            return "the title index has \(offsetsByTitle.count) entries for \(sections.count) sections"
        }
        var items = 0
        for (offset, section) in sections.enumerated() {
            let indexed = offsetsByTitle[LiteralKey(section.title)]
            guard indexed == offset else {
                return "section \(offset) titled \(String(reflecting: section.title)) is indexed at "
                    + (indexed.map(String.init) ?? "no offset")
            }
            for (itemOffset, item) in section.items.enumerated() {
                let path = ItemPath(section: offset, item: itemOffset)
                let indexed = indexedPath(of: LiteralKey(item.id))
                guard indexed == path else {
                    return "item \(path) with identifier \(String(reflecting: item.id)) is indexed at "
                        + (indexed.map(\.description) ?? "no path")
                }
            }
            items += section.items.count
        }
        if itemCount != items {
            return "the identifier index has \(itemCount) entries for \(items) items"
        }
        // Edits in place pending in the index: every identifier they touched leads to its item.
        for key in pendingIndex?.touched.keys ?? [:].keys {
            guard let path = indexedPath(of: key) else { continue }
            guard let item = item(at: path), LiteralKey(item.id) == key else {
                return "identifier \(String(reflecting: key)) is indexed at \(path), which holds another item"
            }
        }
        if indexFollowsDisplayOrder {
            let paths = sections.enumerated().lazy.flatMap { section, items in
                items.items.indices.lazy.map { ItemPath(section: section, item: $0) }
            }
            let mismatch = pathsByID.withEntries { entries in
                zip(entries.indices, paths).first { entries[$0].path != $1 }
            }
            if let mismatch {
                return
                    "the identifier index's entry \(mismatch.0) is not item \(mismatch.1), as the display order has it"
            }
        }
        return nil
    }
}
