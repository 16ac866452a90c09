import ChangeLog
import ListAdapter

/// A seeded random history: each snapshot one to four edits from the one before (items
/// inserted, deleted, moved within and across sections, updated; sections inserted, deleted).
package struct RandomSnapshots {
    private var generator: SplitMix64
    private var sections: [LogSnapshot.Section] = []
    private var next = 0

    /// A history seeded with `seed`, starting from three sections.
    package init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
        for _ in 0..<3 { insertSection() }
    }

    /// The next `count` snapshots.
    package mutating func take(_ count: Int) -> [LogSnapshot] {
        (0..<count).map { _ in
            for _ in 0..<Int.random(in: 1...4, using: &generator) { edit() }
            return try! LogSnapshot(sections: sections)
        }
    }

    private mutating func edit() {
        switch Int.random(in: 0..<12, using: &generator) {
        case 0: insertSection()
        case 1 where sections.count > 1: sections.remove(at: Int.random(in: 0..<sections.count, using: &generator))
        case 2...5:
            let section = Int.random(in: 0..<sections.count, using: &generator)
            let at = Int.random(in: 0...sections[section].items.count, using: &generator)
            sections[section].items.insert(newItem(), at: at)
        case 6, 7:
            let section = Int.random(in: 0..<sections.count, using: &generator)
            guard !sections[section].items.isEmpty else { return }
            let item = sections[section].items.remove(
                at: Int.random(in: 0..<sections[section].items.count, using: &generator))
            let target = Int.random(in: 0..<sections.count, using: &generator)
            sections[target].items.insert(item, at: Int.random(in: 0...sections[target].items.count, using: &generator))
        case 8, 9:
            let section = Int.random(in: 0..<sections.count, using: &generator)
            guard !sections[section].items.isEmpty else { return }
            let offset = Int.random(in: 0..<sections[section].items.count, using: &generator)
            next += 1
            sections[section].items[offset].summary = "updated \(next)"
        default:
            let section = Int.random(in: 0..<sections.count, using: &generator)
            guard !sections[section].items.isEmpty else { return }
            sections[section].items.remove(at: Int.random(in: 0..<sections[section].items.count, using: &generator))
        }
    }

    private mutating func insertSection() {
        next += 1
        let items = (0..<Int.random(in: 0...6, using: &generator)).map { _ in newItem() }
        let at = Int.random(in: 0...sections.count, using: &generator)
        sections.insert(LogSnapshot.Section(title: "Section \(next)", items: items), at: at)
    }

    private mutating func newItem() -> LogSnapshot.Item {
        next += 1
        return LogSnapshot.Item(id: "item-\(next)", summary: "Item \(next)")
    }
}

/// `snapshots` as append entries stamped with fixed times (one second apart from `start`), so
/// that two logs given them store the same bytes.
package func entries(_ snapshots: [LogSnapshot], start: Int64 = 1_700_000_000_000) -> [ChangeLog.AppendEntry] {
    snapshots.enumerated().map { offset, snapshot in
        var entry = ChangeLog.AppendEntry(snapshot)
        entry.millisecondsSince1970 = start + Int64(offset) * 1000
        return entry
    }
}

/// Appends `entries` in groups of one to five, each group one transaction.
package func appendInGroups(_ entries: [ChangeLog.AppendEntry], to log: ChangeLog, seed: UInt64) async throws {
    var generator = SplitMix64(seed: seed)
    var index = 0
    while index < entries.count {
        let count = min(Int.random(in: 1...5, using: &generator), entries.count - index)
        _ = try await log.append(contentsOf: Array(entries[index..<index + count]))
        index += count
    }
}
