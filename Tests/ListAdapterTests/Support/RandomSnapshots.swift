@testable import ListAdapter

typealias StringSnapshot = ListSnapshot<String, String, String>
typealias StringChanges = ListChanges<String, String, String>

/// Random snapshots and random successors of them, covering every kind of change FORMAT.md
/// names: sections inserted, deleted and moved; items inserted, deleted, moved inside and across
/// sections, leaving into inserted sections and arriving from deleted ones; updates; empty
/// titles and absent summaries; section summaries that appear, disappear, change or stay.
enum RandomSnapshots {
    /// A random snapshot with up to `maxSections` sections and `maxItems` items in all.
    static func snapshot(
        using rng: inout SeededGenerator, maxSections: Int = 6, maxItems: Int = 24
    ) -> StringSnapshot {
        var titles = Array(titlePool.shuffled(using: &rng).prefix(Int.random(in: 0...maxSections, using: &rng)))
        titles.shuffle(using: &rng)
        var sections = titles.map { StringSnapshot.Section(title: $0) }
        guard !sections.isEmpty else { return StringSnapshot() }
        let itemCount = Int.random(in: 0...maxItems, using: &rng)
        let ids = idPool.shuffled(using: &rng).prefix(itemCount)
        for id in ids {
            let section = Int.random(in: 0..<sections.count, using: &rng)
            sections[section].items.append(.init(id: id, summary: randomSummary(using: &rng)))
        }
        for index in sections.indices { sections[index].summary = randomSectionSummary(using: &rng) }
        return try! StringSnapshot(sections: sections)
    }

    /// A random successor of `old`: a mix of section and item operations, some items kept,
    /// some summaries changed.
    static func successor(of old: StringSnapshot, using rng: inout SeededGenerator) -> StringSnapshot {
        // Keep a random subset of the old sections, maybe reordered, and add new ones.
        var sections: [StringSnapshot.Section] = []
        for section in old.sections where Int.random(in: 0..<5, using: &rng) != 0 {
            sections.append(.init(title: section.title))
        }
        let used = Set(sections.map(\.title))
        for title in titlePool.shuffled(using: &rng) where !used.contains(title) {
            if Int.random(in: 0..<4, using: &rng) == 0 { sections.append(.init(title: title)) }
            if sections.count >= 7 { break }
        }
        if Bool.random(using: &rng) { sections.shuffle(using: &rng) }
        guard !sections.isEmpty else { return StringSnapshot() }

        // Old items: most survive (most in place, some to another section), some leave.
        var placed = Set<String>()
        let oldOffsets = Dictionary(uniqueKeysWithValues: old.sections.enumerated().map { ($1.title, $0) })
        var assignment: [(section: Int, item: StringSnapshot.Item)] = []
        let newOffsets = Dictionary(uniqueKeysWithValues: sections.enumerated().map { ($1.title, $0) })
        for section in old.sections {
            for item in section.items {
                let roll = Int.random(in: 0..<10, using: &rng)
                if roll == 0 { continue }  // deleted
                var target = newOffsets[section.title] ?? Int.random(in: 0..<sections.count, using: &rng)
                if roll == 1 { target = Int.random(in: 0..<sections.count, using: &rng) }
                var next = item
                if Int.random(in: 0..<5, using: &rng) == 0 { next.summary = randomSummary(using: &rng) }
                assignment.append((target, next))
                placed.insert(item.id)
            }
        }
        _ = oldOffsets
        // New items.
        for id in idPool.shuffled(using: &rng).prefix(Int.random(in: 0...8, using: &rng))
        where !placed.contains(id) {
            assignment.append(
                (Int.random(in: 0..<sections.count, using: &rng), .init(id: id, summary: randomSummary(using: &rng))))
            placed.insert(id)
        }
        for (section, item) in assignment { sections[section].items.append(item) }
        // Section summaries: most surviving sections keep theirs, some change; new ones get one.
        for index in sections.indices {
            let kept = old.sectionOffset(titled: sections[index].title).flatMap { old.sections[$0].summary }
            let survives = old.sectionOffset(titled: sections[index].title) != nil
            sections[index].summary =
                survives && Int.random(in: 0..<3, using: &rng) != 0 ? kept : randomSectionSummary(using: &rng)
        }
        // Reorder a little: swap a few items inside sections.
        for index in sections.indices where sections[index].items.count > 1 {
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                let count = sections[index].items.count
                sections[index].items.swapAt(
                    Int.random(in: 0..<count, using: &rng), Int.random(in: 0..<count, using: &rng))
            }
        }
        return try! StringSnapshot(sections: sections)
    }

    private static let titlePool = ["", "Today", "Yesterday", "Pinned", "Archive", "Drafts", "Spam", "Later", "Work"]
    private static let idPool = (0..<60).map { "item_\($0)" }

    private static func randomSectionSummary(using rng: inout SeededGenerator) -> String? {
        Bool.random(using: &rng) ? nil : "\(Int.random(in: 0..<3, using: &rng)) unread"
    }

    private static func randomSummary(using rng: inout SeededGenerator) -> String? {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return nil
        default: return "v\(Int.random(in: 0..<3, using: &rng))"
        }
    }
}
