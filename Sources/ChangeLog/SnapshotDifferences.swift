import ListAdapter

/// What differs between an expected snapshot and the one found, in words, position by position:
/// the lines of a ``VerificationFailure``.
struct SnapshotDifferences: Sendable {
    /// The first differences, at most the limit asked for, sections in order and, inside a
    /// section, its title, its items and its item count.
    var lines: [String] = []
    /// How many more differences there are beyond ``lines`` (the section count not included).
    var omitted = 0
    /// `section count expected 3 found 4` when the section counts differ.
    var sectionCount: String?

    /// Every line, the section count last.
    var all: [String] { lines + (sectionCount.map { [$0] } ?? []) }

    /// Compares `found` with `expected` section by section and item by item, at the same
    /// offsets, keeping the first `limit` differences in words.
    ///
    /// - Complexity: O(*n*), where *n* counts the items of both snapshots.
    init<ItemID, Summary>(
        expected: ListSnapshot<ItemID, Summary>, found: ListSnapshot<ItemID, Summary>, limit: Int
    ) {
        func add(_ line: @autoclosure () -> String) {
            if lines.count < limit {
                lines.append(line())
            } else {
                omitted += 1
            }
        }
        let expectedSections = expected.sections
        let foundSections = found.sections
        for offset in 0..<max(expectedSections.count, foundSections.count) {
            let expectedSection = offset < expectedSections.count ? expectedSections[offset] : nil
            let foundSection = offset < foundSections.count ? foundSections[offset] : nil
            guard let expectedSection, let foundSection else {
                if let expectedSection {
                    add("section \(offset) expected \(Self.describe(expectedSection)) but found none")
                } else if let foundSection {
                    add("section \(offset) expected none but found \(Self.describe(foundSection))")
                }
                continue
            }
            let label = "section \(offset) \(quoted(expectedSection.title))"
            if expectedSection.title != foundSection.title {
                add(
                    "section \(offset) expected \(quoted(expectedSection.title)) but found \(quoted(foundSection.title))"
                )
            }
            let expectedItems = expectedSection.items
            let foundItems = foundSection.items
            if expectedItems.count != foundItems.count {
                add("\(label): item count expected \(expectedItems.count) found \(foundItems.count)")
            }
            for itemOffset in 0..<max(expectedItems.count, foundItems.count) {
                let path = ItemPath(section: offset, item: itemOffset)
                let expectedItem = itemOffset < expectedItems.count ? expectedItems[itemOffset] : nil
                let foundItem = itemOffset < foundItems.count ? foundItems[itemOffset] : nil
                guard let expectedItem, let foundItem else {
                    if let expectedItem {
                        add("\(label): item \(path) expected \(Self.describe(expectedItem)) but found none")
                    } else if let foundItem {
                        add("\(label): item \(path) expected none but found \(Self.describe(foundItem))")
                    }
                    continue
                }
                if expectedItem.id != foundItem.id {
                    add(
                        "\(label): item \(path) expected \(Self.describe(expectedItem)) but found "
                            + Self.describe(foundItem))
                } else if expectedItem.summary != foundItem.summary {
                    add(
                        "\(label): item \(path) \(quoted(String(describing: expectedItem.id))) expected "
                            + "\(Self.describe(expectedItem.summary)) but found \(Self.describe(foundItem.summary))")
                }
            }
        }
        if expectedSections.count != foundSections.count {
            sectionCount = "section count expected \(expectedSections.count) found \(foundSections.count)"
        }
    }

    /// `"Today" (3 items)`.
    private static func describe<ItemID, Summary>(_ section: ListSnapshot<ItemID, Summary>.Section) -> String {
        let count = section.items.count
        return "\(quoted(section.title)) (\(count == 1 ? "1 item" : "\(count) items"))"
    }

    /// `"msg-12" (summary "hi")`, or `"msg-12"` for an item without a summary.
    private static func describe<ItemID, Summary>(_ item: ListSnapshot<ItemID, Summary>.Item) -> String {
        let id = quoted(String(describing: item.id))
        return item.summary.map { "\(id) (summary \(quoted(String(describing: $0))))" } ?? id
    }

    /// `summary "hi"`, or `no summary`.
    private static func describe<Summary>(_ summary: Summary?) -> String {
        summary.map { "summary \(quoted(String(describing: $0)))" } ?? "no summary"
    }
}
