import ChangeLog
import ListAdapter

/// Produces a sequence of snapshots, each a few random edits away from the one before: summary
/// updates, moves within and across sections, a deletion and an insertion. Seeded, so that a
/// run repeats.
struct SnapshotChurn {
    private var generator: SplitMix64
    private var sections: [LogSnapshot.Section]
    private var nextItem = 0
    private var step = 0
    private let prefix: String

    /// Starts from `snapshot`, or from `items` new items in three sections.
    init(seed: UInt64, items: Int, startingFrom snapshot: LogSnapshot?) {
        generator = SplitMix64(seed: seed)
        prefix = "w\(seed)-"
        if let snapshot, snapshot.sections.contains(where: { !$0.items.isEmpty }) {
            sections = snapshot.sections
        } else {
            sections = ["A", "B", "C"].map { LogSnapshot.Section(title: $0) }
            for offset in 0..<max(items, 1) {
                sections[offset % sections.count].items.append(newItem())
            }
        }
    }

    /// The next snapshot.
    mutating func next() throws -> LogSnapshot {
        step += 1
        for _ in 0..<2 {
            let (section, item) = randomPath()
            sections[section].items[item].summary = "step \(step) of \(prefix)"
        }
        let (fromSection, fromItem) = randomPath()
        let moved = sections[fromSection].items.remove(at: fromItem)
        let toSection = Int.random(in: 0..<sections.count, using: &generator)
        sections[toSection].items.insert(
            moved, at: Int.random(in: 0...sections[toSection].items.count, using: &generator))
        if Int.random(in: 0..<2, using: &generator) == 0 {
            let (section, item) = randomPath()
            sections[section].items.remove(at: item)
            let target = Int.random(in: 0..<sections.count, using: &generator)
            sections[target].items.insert(
                newItem(), at: Int.random(in: 0...sections[target].items.count, using: &generator))
        }
        return try LogSnapshot(sections: sections)
    }

    private mutating func newItem() -> LogSnapshot.Item {
        nextItem += 1
        return LogSnapshot.Item(id: "\(prefix)\(nextItem)", summary: "new")
    }

    /// A random item's position (some section holds at least one item).
    private mutating func randomPath() -> (section: Int, item: Int) {
        let filled = sections.indices.filter { !sections[$0].items.isEmpty }
        let section = filled[Int.random(in: 0..<filled.count, using: &generator)]
        return (section, Int.random(in: 0..<sections[section].items.count, using: &generator))
    }
}
