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
    init<ItemID, Summary, SectionSummary>(
        expected: ListSnapshot<ItemID, Summary, SectionSummary>, found: ListSnapshot<ItemID, Summary, SectionSummary>,
        limit: Int
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
            let label = "section \(offset) \(quotedExcerpt(expectedSection.title))"
            if !literallyEqualStrings(expectedSection.title, foundSection.title) {
                let (expectedTitle, foundTitle) = quotedApart(expectedSection.title, foundSection.title)
                add("section \(offset) expected \(expectedTitle) but found \(foundTitle)")
            }
            if !literallyEqual(expectedSection.summary, foundSection.summary) {
                func spelled(_ summary: SectionSummary?) -> String {
                    summary.map { quotedExcerpt(String(describing: $0)) } ?? "none"
                }
                add(
                    "\(label): section summary expected \(spelled(expectedSection.summary)) "
                        + "found \(spelled(foundSection.summary))")
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
                if !literallyEqual(expectedItem.id, foundItem.id) {
                    let (expectedText, foundText) = Self.describeApart(expectedItem, foundItem)
                    add("\(label): item \(path) expected \(expectedText) but found \(foundText)")
                } else if !literallyEqual(expectedItem.summary, foundItem.summary) {
                    let (expectedText, foundText) = Self.describeApart(expectedItem.summary, foundItem.summary)
                    add(
                        "\(label): item \(path) \(quotedExcerpt(String(describing: expectedItem.id))) expected "
                            + "\(expectedText) but found \(foundText)")
                }
            }
        }
        if expectedSections.count != foundSections.count {
            sectionCount = "section count expected \(expectedSections.count) found \(foundSections.count)"
        }
    }

    /// `"Today" (3 items)`.
    private static func describe<ItemID, Summary, SectionSummary>(
        _ section: ListSnapshot<ItemID, Summary, SectionSummary>.Section
    ) -> String {
        let count = section.items.count
        return "\(quotedExcerpt(section.title)) (\(count == 1 ? "1 item" : "\(count) items"))"
    }

    /// `"msg-12" (summary "hi")`, or `"msg-12"` for an item without a summary.
    private static func describe<ItemID, Summary, SectionSummary>(
        _ item: ListSnapshot<ItemID, Summary, SectionSummary>.Item
    ) -> String {
        let id = quotedExcerpt(String(describing: item.id))
        return item.summary.map { "\(id) (summary \(quotedExcerpt(String(describing: $0))))" } ?? id
    }

    /// `summary "hi"`, or `no summary`.
    private static func describe<Summary>(_ summary: Summary?, spellingOut: Bool = false) -> String {
        summary.map { "summary \(quotedExcerpt(String(describing: $0), spellingOut: spellingOut))" } ?? "no summary"
    }

    /// Two different items described; where they would read the same (texts that differ only
    /// in their Unicode normalization), with their characters past ASCII spelled out.
    private static func describeApart<ItemID, Summary, SectionSummary>(
        _ expected: ListSnapshot<ItemID, Summary, SectionSummary>.Item,
        _ found: ListSnapshot<ItemID, Summary, SectionSummary>.Item
    ) -> (String, String) {
        let texts = (describe(expected), describe(found))
        guard texts.0 == texts.1 else { return texts }
        func spelledOut(_ item: ListSnapshot<ItemID, Summary, SectionSummary>.Item) -> String {
            let id = quotedExcerpt(String(describing: item.id), spellingOut: true)
            return item.summary.map { "\(id) (\(describe($0, spellingOut: true)))" } ?? id
        }
        return (spelledOut(expected), spelledOut(found))
    }

    /// ``describe(_:spellingOut:)`` for two different summaries, spelled out where they would
    /// read the same.
    private static func describeApart<Summary>(_ expected: Summary?, _ found: Summary?) -> (String, String) {
        let texts = (describe(expected), describe(found))
        guard texts.0 == texts.1 else { return texts }
        return (describe(expected, spellingOut: true), describe(found, spellingOut: true))
    }
}
