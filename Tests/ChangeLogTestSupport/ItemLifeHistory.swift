import ChangeLog
import ListAdapter

/// A seeded history of items that come and go, written down as it is generated: each step does
/// one thing to the list (an item arrives, leaves, comes back, moves within or across sections,
/// changes summary, moves and changes summary at once, goes with its deleted section or arrives
/// with a new one, or a section changes summary) and records the event it makes for every item
/// and section it touches, so that a history read from the log can be checked against it
/// exactly. Identifiers and titles hold spaces, slashes, quotes and non-ASCII letters.
package struct ItemLifeHistory {
    private struct Item {
        var id: String
        var summary: String?
    }

    private struct Section {
        var title: String
        var summary: String?
        var items: [Item]
    }

    /// The identifiers the history uses, awkward on purpose.
    package static let identifiers = [
        "a b", "x/y", #"q"t"#, "né-1", "日本", "plain", "slash/", "%25", "tab\tid", "last one",
    ]
    /// The section titles the history uses.
    package static let titles = ["Pinned", "Today", "Later / soon", #"Ünï "q""#]

    /// The revisions to append, each with the changes the log computes, oldest first.
    package private(set) var entries: [ChangeLog.AppendEntry] = []
    /// The events each subject must have, oldest first.
    package private(set) var expected: [HistorySubject: [HistoryEvent]] = [:]

    private var sections: [Section] = []
    private var random: SplitMix64
    private var edits = 0

    /// The history of `count` steps from `seed`.
    package init(seed: UInt64, count: Int) {
        random = SplitMix64(seed: seed)
        sections = [Section(title: Self.titles[0], summary: nil, items: [])]
        var previous = LogSnapshot()
        // Revision 1 holds the first section, empty.
        append(step: 1, words: "start", from: &previous, events: [.section(Self.titles[0]): .inserted])
        for step in 2...max(count, 2) {
            let (words, events) = randomStep()
            append(step: step, words: words, from: &previous, events: events)
        }
    }

    /// The time of step `step`.
    package static func time(ofStep step: Int) -> Int64 { 1_795_000_000_000 + Int64(step) * 60_000 }

    private var snapshot: LogSnapshot {
        try! LogSnapshot(
            sections: sections.map { section in
                .init(
                    title: section.title, summary: section.summary,
                    items: section.items.map { .init(id: $0.id, summary: $0.summary) })
            })
    }

    /// What happened to a subject in one step, before the step's places are known.
    private enum Happening {
        case inserted, deleted, moved, updated, movedAndUpdated
        case withDeletedSection, withInsertedSection, leftDeletedSection
    }

    private mutating func append(
        step: Int, words: String, from previous: inout LogSnapshot, events: [HistorySubject: Happening]
    ) {
        let next = snapshot
        let meta = ["op": words, "step": String(step), "job": step % 3 == 0 ? "sync" : "app"]
        let time = Self.time(ofStep: step)
        entries.append(
            ChangeLog.AppendEntry(
                next, changes: previous.changes(to: next), meta: meta, millisecondsSince1970: time))
        for (subject, happening) in events {
            let event = Self.event(
                subject, happening, old: previous, new: next, revision: UInt64(step), time: time, meta: meta)
            expected[subject, default: []].append(event)
        }
        previous = next
    }

    private static func event(
        _ subject: HistorySubject, _ happening: Happening, old: LogSnapshot, new: LogSnapshot, revision: UInt64,
        time: Int64, meta: [String: String]
    ) -> HistoryEvent {
        let kinds: [HistoryEvent.Kind]
        var fate: HistoryEvent.SectionFate?
        switch happening {
        case .inserted: kinds = [.inserted]
        case .deleted: kinds = [.deleted]
        case .moved: kinds = [.moved]
        case .updated: kinds = [.updated]
        case .movedAndUpdated: kinds = [.moved, .updated]
        case .withDeletedSection:
            kinds = [.deleted]
            fate = .deleted
        case .withInsertedSection:
            kinds = [.inserted]
            fate = .inserted
        case .leftDeletedSection:
            kinds = [.moved]
            fate = .deleted
        }
        switch subject {
        case .item(let id):
            let before = old.path(of: id)
            let after = new.path(of: id)
            return HistoryEvent(
                revision: revision, millisecondsSince1970: time, meta: meta, kinds: kinds, withSection: fate,
                before: before.map {
                    .init(section: old.sections[$0.section].title, sectionIndex: $0.section, itemIndex: $0.item)
                },
                after: after.map {
                    .init(section: new.sections[$0.section].title, sectionIndex: $0.section, itemIndex: $0.item)
                },
                summaryBefore: before.flatMap { old.item(at: $0)?.summary },
                summaryAfter: after.flatMap { new.item(at: $0)?.summary })
        case .section(let title):
            let before = old.sectionOffset(titled: title)
            let after = new.sectionOffset(titled: title)
            return HistoryEvent(
                revision: revision, millisecondsSince1970: time, meta: meta, kinds: kinds, withSection: nil,
                before: before.map { .init(section: title, sectionIndex: $0, itemIndex: nil) },
                after: after.map { .init(section: title, sectionIndex: $0, itemIndex: nil) },
                summaryBefore: before.flatMap { old.sections[$0].summary },
                summaryAfter: after.flatMap { new.sections[$0].summary })
        }
    }

    private mutating func number(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }

    private var present: Set<String> { Set(sections.flatMap { $0.items.map(\.id) }) }

    private mutating func newSummary() -> String {
        edits += 1
        return ["draft", "sent ✓", #"said "hi""#, "a/b"][edits % 4] + " \(edits)"
    }

    /// Picks and applies one step; returns its words and the events it makes.
    private mutating func randomStep() -> (String, [HistorySubject: Happening]) {
        for _ in 0..<20 {
            if let step = tryStep(number(9)) { return step }
        }
        let s = number(sections.count)
        sections[s].summary = newSummary()
        return ("edit section", [.section(sections[s].title): .updated])
    }

    private mutating func tryStep(_ choice: Int) -> (String, [HistorySubject: Happening])? {
        let occupied = sections.indices.filter { !sections[$0].items.isEmpty }
        switch choice {
        case 0, 1:
            return present.count < Self.identifiers.count ? insertItem() : nil
        case 2:
            guard let s = occupied.randomElement(using: &random) else { return nil }
            let item = sections[s].items.remove(at: number(sections[s].items.count))
            return ("delete", [.item(item.id): .deleted])
        case 3, 4:
            guard sections.count >= 2, let s = occupied.randomElement(using: &random) else { return nil }
            let item = sections[s].items.remove(at: number(sections[s].items.count))
            var target = number(sections.count - 1)
            if target >= s { target += 1 }
            var moved = item
            let update = choice == 4
            if update { moved.summary = newSummary() }
            sections[target].items.insert(moved, at: number(sections[target].items.count + 1))
            return (
                update ? "move across and edit" : "move across", [.item(item.id): update ? .movedAndUpdated : .moved]
            )
        case 5:
            guard let s = sections.indices.filter({ sections[$0].items.count >= 3 }).randomElement(using: &random)
            else { return nil }
            if number(2) == 0 {
                let item = sections[s].items.removeFirst()
                sections[s].items.append(item)
                return ("first to last", [.item(item.id): .moved])
            }
            let item = sections[s].items.removeLast()
            sections[s].items.insert(item, at: 0)
            return ("last to first", [.item(item.id): .moved])
        case 6:
            guard let s = occupied.randomElement(using: &random) else { return nil }
            let index = number(sections[s].items.count)
            sections[s].items[index].summary = newSummary()
            return ("edit", [.item(sections[s].items[index].id): .updated])
        case 7:
            guard sections.count >= 2 else { return nil }
            let s = number(sections.count)
            let section = sections.remove(at: s)
            var events: [HistorySubject: Happening] = [.section(section.title): .deleted]
            var leaving = section.items
            if !leaving.isEmpty, number(2) == 0 {
                let item = leaving.removeFirst()
                let target = number(sections.count)
                sections[target].items.insert(item, at: number(sections[target].items.count + 1))
                events[.item(item.id)] = .leftDeletedSection
            }
            for item in leaving { events[.item(item.id)] = .withDeletedSection }
            return ("delete section", events)
        default:
            let titles = Set(sections.map(\.title))
            if let title = Self.titles.filter({ !titles.contains($0) }).randomElement(using: &random) {
                let free = Self.identifiers.filter { !present.contains($0) }.shuffled(using: &random).prefix(number(3))
                let items = free.map { Item(id: $0, summary: number(2) == 0 ? nil : "new") }
                sections.insert(Section(title: title, summary: nil, items: items), at: number(sections.count + 1))
                var events: [HistorySubject: Happening] = [.section(title): .inserted]
                for item in items { events[.item(item.id)] = .withInsertedSection }
                return ("insert section", events)
            }
            let s = number(sections.count)
            sections[s].summary = newSummary()
            return ("edit section", [.section(sections[s].title): .updated])
        }
    }

    private mutating func insertItem() -> (String, [HistorySubject: Happening]) {
        let free = Self.identifiers.filter { !present.contains($0) }
        let id = free[number(free.count)]
        let s = number(sections.count)
        sections[s].items.insert(
            Item(id: id, summary: number(3) == 0 ? nil : newSummary()), at: number(sections[s].items.count + 1))
        return ("insert", [.item(id): .inserted])
    }
}
