extension ListContents {
    /// How a section's summary is found: from its title, or from its title and its elements.
    enum SectionSummaryRule<Element>: Sendable {
        case ofTitle(@Sendable (String) -> SectionSummary?)
        case ofElements(@Sendable (String, [Element]) -> SectionSummary?)
    }

    /// Groups a flat sequence of elements into sections by title, in a given section order or
    /// in the order of each section's first element, reading each element once.
    struct ElementGrouping<Element>: Sendable {
        let id: @Sendable (Element) -> ItemID
        let sectionTitle: @Sendable (Element) -> String?
        let summary: @Sendable (Element) -> Summary?
        let sectionOrder: [String]
        let sectionSummary: SectionSummaryRule<Element>

        /// The snapshot of `elements`; with `keepingFirst`, an element that repeats an earlier
        /// identifier is dropped and reported at `[offset]`, and a title that `sectionOrder`
        /// lists again is dropped and reported at `[offset in sectionOrder]`.
        func snapshot<Elements: Sequence<Element>>(
            of elements: Elements, keepingFirst keepFirst: Bool
        ) throws(ListSnapshotError) -> KeptFirstOccurrences {
            var titles: [String] = []
            var items: [[Snapshot.Item]] = []
            // Kept only when a section's summary is computed from its elements.
            var members: [[Element]] = []
            var offsetsByTitle: [LiteralKey<String>: Int] = [:]
            var dropped: [DroppedDuplicate<ItemID>] = []
            let keepsMembers: Bool
            if case .ofElements = sectionSummary { keepsMembers = true } else { keepsMembers = false }

            func addSection(_ title: String) -> Int {
                titles.append(title)
                items.append([])
                if keepsMembers { members.append([]) }
                return titles.count - 1
            }
            for (offset, title) in sectionOrder.enumerated() {
                if let first = offsetsByTitle[LiteralKey(title)] {
                    // A title listed twice: refused below as a duplicate, or dropped here.
                    if keepFirst {
                        dropped.append(
                            DroppedDuplicate(
                                kind: .section(title: title, itemCount: 0), position: [offset], firstPosition: [first]))
                        continue
                    }
                    _ = addSection(title)
                } else {
                    offsetsByTitle[LiteralKey(title)] = addSection(title)
                }
            }
            // With `keepFirst`, each identifier's offset in `elements`.
            var firstOffsets: [LiteralKey<ItemID>: Int] = [:]
            for (offset, element) in elements.enumerated() {
                let elementID = id(element)
                if keepFirst {
                    if let first = firstOffsets[LiteralKey(elementID)] {
                        dropped.append(
                            DroppedDuplicate(kind: .item(id: elementID), position: [offset], firstPosition: [first]))
                        continue
                    }
                    firstOffsets[LiteralKey(elementID)] = offset
                }
                let title = sectionTitle(element) ?? ""
                let section: Int
                if let known = offsetsByTitle[LiteralKey(title)] {
                    section = known
                } else {
                    section = addSection(title)
                    offsetsByTitle[LiteralKey(title)] = section
                }
                items[section].append(Snapshot.Item(id: elementID, summary: summary(element)))
                if keepsMembers { members[section].append(element) }
            }
            var sections: [Snapshot.Section] = []
            sections.reserveCapacity(titles.count)
            for (index, title) in titles.enumerated() {
                let summary: SectionSummary? =
                    switch sectionSummary {
                    case .ofTitle(let summarize): summarize(title)
                    case .ofElements(let summarize): summarize(title, members[index])
                    }
                sections.append(Snapshot.Section(title: title, summary: summary, items: items[index]))
            }
            // Grouping by title leaves no title twice, and `keepFirst` no identifier.
            guard keepFirst else { return (try Snapshot(sections: sections), []) }
            return (Snapshot.uniqueSections(sections), dropped)
        }
    }
}
