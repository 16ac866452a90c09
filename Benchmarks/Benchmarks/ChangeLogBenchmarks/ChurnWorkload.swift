import BenchmarkSupport
import ChangeLog
import ListAdapter

/// The ChangeLog benchmarks' data: a list of 1,000 items in 10 sections that changes by 1% per
/// revision, from a fixed seed.
///
/// Each revision changes 10 items: 4 get a new summary, 2 move to a random place (in a random
/// section), 2 are deleted and 2 are inserted, so the list keeps 1,000 items. Identifiers look
/// like `item-000123`; summaries are 16 hexadecimal digits (a version hash, say).
struct ChurnWorkload {
    private var sections: [LogSnapshot.Section]
    private var rng: SplitMix64
    private var nextID = 0

    init(sections sectionCount: Int = 10, itemsPerSection: Int = 100, seed: UInt64 = 42) {
        rng = SplitMix64(seed: seed)
        sections = []
        for section in 0..<sectionCount {
            var items: [LogSnapshot.Item] = []
            for _ in 0..<itemsPerSection {
                items.append(newItem())
            }
            sections.append(LogSnapshot.Section(title: "Section \(section)", items: items))
        }
    }

    /// The current snapshot.
    var snapshot: LogSnapshot {
        try! LogSnapshot(sections: sections)
    }

    /// Applies one revision's churn and returns the new snapshot.
    mutating func next() -> LogSnapshot {
        for _ in 0..<4 {
            let (section, item) = randomItem()
            sections[section].items[item].summary = summary()
        }
        for _ in 0..<2 {
            let (section, item) = randomItem()
            let moved = sections[section].items.remove(at: item)
            let to = Int.random(in: 0..<sections.count, using: &rng)
            sections[to].items.insert(moved, at: Int.random(in: 0...sections[to].items.count, using: &rng))
        }
        for _ in 0..<2 {
            let (section, item) = randomItem()
            sections[section].items.remove(at: item)
        }
        for _ in 0..<2 {
            let to = Int.random(in: 0..<sections.count, using: &rng)
            sections[to].items.insert(newItem(), at: Int.random(in: 0...sections[to].items.count, using: &rng))
        }
        return snapshot
    }

    /// The next `count` snapshots.
    mutating func next(_ count: Int) -> [LogSnapshot] {
        (0..<count).map { _ in next() }
    }

    private mutating func randomItem() -> (section: Int, item: Int) {
        while true {
            let section = Int.random(in: 0..<sections.count, using: &rng)
            if !sections[section].items.isEmpty {
                return (section, Int.random(in: 0..<sections[section].items.count, using: &rng))
            }
        }
    }

    private mutating func newItem() -> LogSnapshot.Item {
        defer { nextID += 1 }
        let digits = String(nextID)
        return LogSnapshot.Item(
            id: "item-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits, summary: summary())
    }

    private mutating func summary() -> String {
        let hex = String(rng.next(), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
