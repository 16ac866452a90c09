import Foundation
import ListAdapter

@testable import ChangeLog

/// A seeded random history of snapshots: each one a few edits away from the one before, the
/// edits covering every kind of change FORMAT.md names (sections inserted, deleted and moved;
/// items inserted, deleted, moved inside and across sections, updated; items without summaries;
/// empty sections and the empty title).
struct RandomHistory {
    private var generator: SeededGenerator
    private var sections: [LogSnapshot.Section] = []
    private var nextItem = 0
    private var nextSection = 0
    private var nextVersion = 0

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
        for _ in 0..<Int.random(in: 2...4, using: &generator) {
            insertSection()
        }
    }

    /// `count` consecutive snapshots of a history seeded with `seed`.
    static func snapshots(seed: UInt64, count: Int) -> [LogSnapshot] {
        var history = RandomHistory(seed: seed)
        return (0..<count).map { _ in history.next() }
    }

    /// The next snapshot: one to four random edits of the current one.
    mutating func next() -> LogSnapshot {
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            edit()
        }
        return try! LogSnapshot(sections: sections)
    }

    private mutating func edit() {
        let itemCount = sections.reduce(0) { $0 + $1.items.count }
        switch Int.random(in: 0..<12, using: &generator) {
        case 0:
            if sections.count < 7 { insertSection() }
        case 1:
            if sections.count > 1 { sections.remove(at: Int.random(in: 0..<sections.count, using: &generator)) }
        case 2:
            if sections.count > 1 {
                let section = sections.remove(at: Int.random(in: 0..<sections.count, using: &generator))
                sections.insert(section, at: Int.random(in: 0...sections.count, using: &generator))
            }
        case 3, 4:
            if itemCount < 60 {
                let section = Int.random(in: 0..<sections.count, using: &generator)
                let offset = Int.random(in: 0...sections[section].items.count, using: &generator)
                sections[section].items.insert(newItem(), at: offset)
            }
        case 5:
            if let (section, offset) = randomItem() { sections[section].items.remove(at: offset) }
        case 6, 7:
            if let (section, offset) = randomItem() {
                let item = sections[section].items.remove(at: offset)
                let target = Int.random(in: 0..<sections.count, using: &generator)
                sections[target].items.insert(
                    item, at: Int.random(in: 0...sections[target].items.count, using: &generator))
            }
        default:
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                if let (section, offset) = randomItem(), sections[section].items[offset].summary != nil {
                    nextVersion += 1
                    sections[section].items[offset].summary = "version \(nextVersion)"
                }
            }
        }
    }

    private mutating func insertSection() {
        // Section 0 of every history is titled "", the title FORMAT.md allows.
        let title = nextSection == 0 ? "" : "Section \(nextSection)"
        nextSection += 1
        let items = (0..<Int.random(in: 0...6, using: &generator)).map { _ in newItem() }
        sections.insert(
            LogSnapshot.Section(title: title, items: items), at: Int.random(in: 0...sections.count, using: &generator))
    }

    private mutating func newItem() -> LogSnapshot.Item {
        nextItem += 1
        let hasSummary = Int.random(in: 0..<5, using: &generator) != 0
        return LogSnapshot.Item(id: "item-\(nextItem)", summary: hasSummary ? "first \(nextItem)" : nil)
    }

    private mutating func randomItem() -> (section: Int, offset: Int)? {
        let candidates = sections.indices.filter { !sections[$0].items.isEmpty }
        guard let section = candidates.randomElement(using: &generator) else { return nil }
        return (section, Int.random(in: 0..<sections[section].items.count, using: &generator))
    }
}

/// Appends `snapshots` one revision each, with the changes the log computes.
func appendAll(_ snapshots: [LogSnapshot], to log: ChangeLog) async throws {
    for snapshot in snapshots {
        _ = try await log.append(snapshot)
    }
}

/// Rewrites the stored record of `revision` through LMDB, behind the log's back.
func tamperRecord(of revision: UInt64, in log: ChangeLog, _ change: (inout [UInt8]) -> Void) throws {
    try log.store.environment.write { transaction in
        guard var bytes = try transaction.value(forKey: revision.bigEndianKey, in: log.store.revisions) else {
            throw ChangeLogError(code: .revisionNotFound, message: "no record \(revision) to tamper with")
        }
        change(&bytes)
        try transaction.put(bytes, forKey: revision.bigEndianKey, in: log.store.revisions)
    }
}
