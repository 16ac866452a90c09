extension ListChanges {
    /// How many operations of each kind the changes hold.
    public struct Counts: Hashable, Sendable, CustomStringConvertible {
        /// Sections deleted, inserted, moved and updated.
        public var sectionsDeleted = 0, sectionsInserted = 0, sectionsMoved = 0, sectionsUpdated = 0
        /// Items deleted, inserted, moved and updated.
        public var itemsDeleted = 0, itemsInserted = 0, itemsMoved = 0, itemsUpdated = 0

        /// Creates zero counts.
        /// - Complexity: O(1).
        public init() {}

        /// Adds `other`'s counts to these.
        /// - Complexity: O(1).
        public static func += (lhs: inout Self, rhs: Self) {
            lhs.sectionsDeleted += rhs.sectionsDeleted
            lhs.sectionsInserted += rhs.sectionsInserted
            lhs.sectionsMoved += rhs.sectionsMoved
            lhs.sectionsUpdated += rhs.sectionsUpdated
            lhs.itemsDeleted += rhs.itemsDeleted
            lhs.itemsInserted += rhs.itemsInserted
            lhs.itemsMoved += rhs.itemsMoved
            lhs.itemsUpdated += rhs.itemsUpdated
        }

        /// `sections +1 -0 ~0 *1  items +3 -1 ~2 *1`: `+` inserted, `-` deleted, `~` moved,
        /// `*` updated.
        /// - Complexity: O(1).
        public var description: String {
            "sections +\(sectionsInserted) -\(sectionsDeleted) ~\(sectionsMoved) *\(sectionsUpdated)  "
                + "items +\(itemsInserted) -\(itemsDeleted) ~\(itemsMoved) *\(itemsUpdated)"
        }
    }

    /// How many operations of each kind the changes hold.
    /// - Complexity: O(1).
    public var counts: Counts {
        var counts = Counts()
        counts.sectionsDeleted = deletedSections.count
        counts.sectionsInserted = insertedSections.count
        counts.sectionsMoved = movedSections.count
        counts.sectionsUpdated = updatedSections.count
        counts.itemsDeleted = deletedItems.count
        counts.itemsInserted = insertedItems.count
        counts.itemsMoved = movedItems.count
        counts.itemsUpdated = updatedItems.count
        return counts
    }

    /// The operations in words, one line each, in the format's order: sections deleted,
    /// inserted, moved, updated; items deleted, inserted, moved, updated.
    ///
    /// - Parameter old: the snapshot the changes apply to, to name what a removal removes; when
    ///   `nil`, removals are described by position only.
    /// - Complexity: O(*c*), where *c* is the number of operations.
    public func describedInWords(old: ListSnapshot<ItemID, Summary, SectionSummary>?) -> [String] {
        func title(_ offset: Int) -> String {
            old?.title(ofSection: offset).map { " " + quoted($0) } ?? ""
        }
        func id(_ path: ItemPath) -> String {
            old?.identifier(at: path).map { " " + quoted(String(describing: $0)) } ?? ""
        }
        func summary(_ value: Summary?) -> String {
            value.map { " (summary " + quoted(String(describing: $0)) + ")" } ?? ""
        }
        func items(_ count: Int) -> String { count == 1 ? "1 item" : "\(count) items" }
        var lines: [String] = []
        lines += deletedSections.map { "delete section \($0)\(title($0))" }
        lines += insertedSections.map {
            "insert section \($0.index) \(quoted($0.section.title)) with \(items($0.section.items.count))"
        }
        lines += movedSections.map { "move section \($0.from)\(title($0.from)) to \($0.to)" }
        lines += updatedSections.map {
            let place = $0.from == $0.to ? "at \($0.to)" : "from \($0.from) to \($0.to)"
            let to = $0.summary.map { quoted(String(describing: $0)) } ?? "no summary"
            return "update section\(title($0.from)) \(place): summary now \(to)"
        }
        lines += deletedItems.map { "delete item\(id($0)) at \($0)" }
        lines += insertedItems.map {
            "insert item \(quoted(String(describing: $0.id))) at \($0.at)\(summary($0.summary))"
        }
        lines += movedItems.map { "move item\(id($0.from)) from \($0.from) to \($0.to)" }
        lines += updatedItems.map {
            let place = $0.from == $0.to ? "at \($0.to)" : "from \($0.from) to \($0.to)"
            let to = $0.summary.map { quoted(String(describing: $0)) } ?? "no summary"
            return "update item\(id($0.from)) \(place): summary now \(to)\($0.kind == .reload ? " (reload)" : "")"
        }
        return lines
    }
}

extension ListChanges: CustomStringConvertible {
    /// The most operations ``description`` lists; ``describedInWords(old:)`` lists them all.
    static var describedOperationLimit: Int { 50 }

    /// The changes as `replay show` words them: the counts (``Counts``: `+` inserted, `-` deleted,
    /// `~` moved, `*` updated), then one indented line per operation in the format's order, at most
    /// 50, removals described by position:
    ///
    /// ```
    /// sections +1 -0 ~0 *1  items +1 -1 ~0 *1
    ///   insert section 2 "Archive" with 3 items
    ///   update section at 0: summary now "3 unread"
    ///   delete item at [0, 4]
    ///   insert item "b7" at [0, 0] (summary "New")
    ///   update item at [1, 2]: summary now "Read"
    /// ```
    ///
    /// An update whose ``ItemUpdate/kind`` is ``ItemUpdateKind/reload`` ends in ` (reload)`.
    ///
    /// - Complexity: O(*c*), where *c* is the number of operations (at most 50 are worded).
    public var description: String {
        var lines = [counts.description]
        let limited = prefix(operations: Self.describedOperationLimit)
        lines += limited.describedInWords(old: nil).map { "  " + $0 }
        let rest = operationCount - limited.operationCount
        if rest > 0 { lines.append("  ... and \(rest) more operation\(rest == 1 ? "" : "s")") }
        return lines.joined(separator: "\n")
    }

    /// The first `limit` operations, in the format's order.
    private func prefix(operations limit: Int) -> Self {
        guard operationCount > limit else { return self }
        var remaining = limit
        func take<T>(_ list: [T]) -> [T] {
            let taken = Array(list.prefix(remaining))
            remaining -= taken.count
            return taken
        }
        return Self(
            deletedSections: take(deletedSections), insertedSections: take(insertedSections),
            movedSections: take(movedSections), updatedSections: take(updatedSections),
            deletedItems: take(deletedItems), insertedItems: take(insertedItems),
            movedItems: take(movedItems), updatedItems: take(updatedItems))
    }
}
