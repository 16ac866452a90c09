import PropertyBased
import Synchronization
import Testing

@testable import ListAdapter

/// One edit in place of a `StringSnapshot`, as data, so a script can be printed and shrunk.
enum EditStep: Sendable, CustomStringConvertible {
    case appendItems([StringSnapshot.Item], section: String?)
    case insertItems([StringSnapshot.Item], nextTo: String, after: Bool)
    case deleteItems([String])
    case moveItem(String, nextTo: String, after: Bool)
    case updateItem(String, summary: String?)
    case appendSections([StringSnapshot.Section])
    case insertSections([StringSnapshot.Section], nextTo: String, after: Bool)
    case deleteSections([String])
    case moveSection(String, nextTo: String, after: Bool)
    case updateSection(String, summary: String?)

    /// Makes the edit; an edit a shrunk script made invalid throws and changes nothing.
    func apply(to snapshot: inout StringSnapshot) throws(ListSnapshotEditError) {
        switch self {
        case .appendItems(let items, let section?): try snapshot.appendItems(items, toSection: section)
        case .appendItems(let items, nil): try snapshot.appendItems(items)
        case .insertItems(let items, let id, false): try snapshot.insertItems(items, beforeItem: id)
        case .insertItems(let items, let id, true): try snapshot.insertItems(items, afterItem: id)
        case .deleteItems(let ids): try snapshot.deleteItems(ids)
        case .moveItem(let id, let other, false): try snapshot.moveItem(id, beforeItem: other)
        case .moveItem(let id, let other, true): try snapshot.moveItem(id, afterItem: other)
        case .updateItem(let id, let summary): try snapshot.updateItem(id, summary: summary)
        case .appendSections(let sections): try snapshot.appendSections(sections)
        case .insertSections(let sections, let title, false):
            try snapshot.insertSections(sections, beforeSection: title)
        case .insertSections(let sections, let title, true): try snapshot.insertSections(sections, afterSection: title)
        case .deleteSections(let titles): try snapshot.deleteSections(titles)
        case .moveSection(let title, let other, false): try snapshot.moveSection(title, beforeSection: other)
        case .moveSection(let title, let other, true): try snapshot.moveSection(title, afterSection: other)
        case .updateSection(let title, let summary): try snapshot.updateSection(title, summary: summary)
        }
    }

    var description: String {
        switch self {
        case .appendItems(let items, let section): "append \(items.map(\.id)) to \(section ?? "last")"
        case .insertItems(let items, let id, let after): "insert \(items.map(\.id)) \(after ? "after" : "before") \(id)"
        case .deleteItems(let ids): "delete \(ids)"
        case .moveItem(let id, let other, let after): "move \(id) \(after ? "after" : "before") \(other)"
        case .updateItem(let id, let summary): "update \(id) to \(summary ?? "nil")"
        case .appendSections(let sections): "append sections \(sections.map(\.title))"
        case .insertSections(let sections, let title, let after):
            "insert sections \(sections.map(\.title)) \(after ? "after" : "before") \(title.debugDescription)"
        case .deleteSections(let titles): "delete sections \(titles)"
        case .moveSection(let title, let other, let after):
            "move section \(title.debugDescription) \(after ? "after" : "before") \(other.debugDescription)"
        case .updateSection(let title, let summary): "update section \(title.debugDescription) to \(summary ?? "nil")"
        }
    }
}

/// A snapshot and a script of edits to it, for a property check.
struct EditScript: Sendable, CustomTestStringConvertible {
    var base: StringSnapshot
    var steps: [EditStep]
    var index: Int

    /// The base edited by every step, in order; a step that a shrunk script made invalid
    /// throws and is skipped. No copy of the snapshot is kept between the steps: a copy alive
    /// when the snapshot is edited would make its edits start from that copy.
    func edited() -> StringSnapshot {
        var snapshot = base
        for step in steps { try? step.apply(to: &snapshot) }
        return snapshot
    }

    /// Shorter scripts: without their second half, without their first half, without one step.
    func smaller() -> [EditScript] {
        guard !steps.isEmpty else { return [] }
        var scripts: [EditScript] = []
        let half = steps.count / 2
        if half > 0 {
            scripts.append(EditScript(base: base, steps: Array(steps[..<half]), index: index))
            scripts.append(EditScript(base: base, steps: Array(steps[half...]), index: index))
        }
        for drop in steps.indices {
            var fewer = steps
            fewer.remove(at: drop)
            scripts.append(EditScript(base: base, steps: fewer, index: index))
        }
        return scripts
    }

    var testDescription: String {
        let sections = base.sections.map { section in
            "[\(section.title.debugDescription): \(section.items.map { "\($0.id)=\($0.summary ?? "nil")" }.joined(separator: " "))]"
        }
        return "script \(index)\n  base: \(sections.joined(separator: " "))\n  steps: "
            + steps.map(\.description).joined(separator: "; ")
    }
}

/// Random edit scripts, drawn in order from a seeded stream (see `SnapshotPairs`).
enum EditScripts {
    static func generator(seed: UInt64) -> Generator<EditScript, [EditScript]> {
        let stream = Stream(seed: seed)
        return Generator(run: { _ in stream.next() }, shrink: { $0.smaller() })
    }

    private final class Stream: Sendable {
        private let state: Mutex<(generator: SeededGenerator, drawn: Int)>

        init(seed: UInt64) { state = Mutex((SeededGenerator(seed: seed), 0)) }

        func next() -> EditScript {
            state.withLock { state in
                let base = RandomSnapshots.snapshot(using: &state.generator)
                var snapshot = base
                var steps: [EditStep] = []
                for _ in 0..<Int.random(in: 1...8, using: &state.generator) {
                    guard let step = EditScripts.step(for: snapshot, using: &state.generator) else { continue }
                    try? step.apply(to: &snapshot)
                    steps.append(step)
                }
                defer { state.drawn += 1 }
                return EditScript(base: base, steps: steps, index: state.drawn)
            }
        }
    }

    /// A random valid edit of `snapshot`, or `nil` when the one drawn does not apply to it.
    static func step(for snapshot: StringSnapshot, using rng: inout SeededGenerator) -> EditStep? {
        let ids = snapshot.identifiers
        let titles = snapshot.sections.map(\.title)
        // New identifiers come from a small pool, so deleted items come back under their id.
        func newItems() -> [StringSnapshot.Item] {
            let count = Int.random(in: 1...3, using: &rng)
            let fresh = (0..<40).map { "item_\($0)" }.filter { !snapshot.contains($0) }.shuffled(using: &rng)
            return fresh.prefix(count).map { .init(id: $0, summary: summary(using: &rng)) }
        }
        func newSections() -> [StringSnapshot.Section] {
            let title = sectionTitles.filter { !titles.contains($0) }.randomElement(using: &rng)
            guard let title else { return [] }
            return [
                .init(title: title, summary: summary(using: &rng), items: Bool.random(using: &rng) ? newItems() : [])
            ]
        }
        switch Int.random(in: 0..<14, using: &rng) {
        case 0:
            return titles.isEmpty ? nil : .appendItems(newItems(), section: titles.randomElement(using: &rng))
        case 1:
            return titles.isEmpty ? nil : .appendItems(newItems(), section: nil)
        case 2, 3:
            guard let id = ids.randomElement(using: &rng) else { return nil }
            return .insertItems(newItems(), nextTo: id, after: Bool.random(using: &rng))
        case 4, 5:
            guard !ids.isEmpty else { return nil }
            return .deleteItems(Array(ids.shuffled(using: &rng).prefix(Int.random(in: 1...2, using: &rng))))
        case 6, 7, 8:
            guard ids.count >= 2 else { return nil }
            let pair = ids.shuffled(using: &rng).prefix(2)
            return .moveItem(pair.first!, nextTo: pair.last!, after: Bool.random(using: &rng))
        case 9:
            guard let id = ids.randomElement(using: &rng) else { return nil }
            return .updateItem(id, summary: summary(using: &rng))
        case 10:
            let sections = newSections()
            guard !sections.isEmpty else { return nil }
            guard let title = titles.randomElement(using: &rng) else { return .appendSections(sections) }
            return Bool.random(using: &rng)
                ? .appendSections(sections) : .insertSections(sections, nextTo: title, after: Bool.random(using: &rng))
        case 11:
            guard let title = titles.randomElement(using: &rng) else { return nil }
            return .deleteSections([title])
        case 12:
            guard titles.count >= 2 else { return nil }
            let pair = titles.shuffled(using: &rng).prefix(2)
            return .moveSection(pair.first!, nextTo: pair.last!, after: Bool.random(using: &rng))
        default:
            guard let title = titles.randomElement(using: &rng) else { return nil }
            return .updateSection(title, summary: summary(using: &rng))
        }
    }

    private static let sectionTitles = [
        "", "Today", "Yesterday", "Pinned", "Archive", "Drafts", "Spam", "Later", "Work",
    ]

    private static func summary(using rng: inout SeededGenerator) -> String? {
        ["a", "b", "c", nil].randomElement(using: &rng)!
    }
}
