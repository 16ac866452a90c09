import BenchmarkSupport
import ChangeLog
import ChangeLogTools
import ListAdapter

/// A long history with a seeded failure: 1,000 revisions of about 10,000 items in 20 sections
/// (every snapshot holds about 10,000 items; about 18,000 distinct items over the whole history). Every revision inserts, deletes, moves and
/// updates a few items, as a busy list does; the changes are the diff's.
struct ReduceWorkload: Sendable {
    /// The seeded failures.
    enum Failure: Sendable {
        /// A renderer bug that needs two batches in a row: revision `at` inserts the section
        /// "fresh" and revision `at + 1` moves an item into it.
        case twoBatchRenderer(at: Int)
        /// Revision `at` stores a wrong summary for the first item it updates (found by `verify`).
        case wrongUpdate(at: Int)
        /// Revision `at` lists its first deletion twice (refused by `strict`).
        case doubleDeletion(at: Int)
    }

    let history: ReducibleHistory

    init(revisions: Int = 1_000, failure: Failure, seed: UInt64 = 42) {
        var random = SplitMix64(seed: seed)
        func number(_ bound: Int) -> Int { Int(random.next() % UInt64(max(1, bound))) }
        var next = 0
        func newItem() -> LogSnapshot.Item {
            next += 1
            return LogSnapshot.Item(id: "item-\(next)", summary: "v0")
        }
        var sections = (0..<20).map { index in
            LogSnapshot.Section(title: "section-\(index)", items: (0..<500).map { _ in newItem() })
        }
        var previous = LogSnapshot()
        var records: [RevisionRecord] = []
        for revision in 1...revisions {
            if revision > 1 {
                for _ in 0..<(1 + number(15)) {
                    let section = number(20)
                    sections[section].items.insert(newItem(), at: number(sections[section].items.count + 1))
                }
                for _ in 0..<8 {
                    let section = number(20)
                    if !sections[section].items.isEmpty {
                        sections[section].items.remove(at: number(sections[section].items.count))
                    }
                }
                let (from, to) = (number(20), number(20))
                if !sections[from].items.isEmpty {
                    let item = sections[from].items.remove(at: number(sections[from].items.count))
                    sections[to].items.insert(item, at: number(sections[to].items.count + 1))
                }
                for _ in 0..<2 {
                    let section = number(20)
                    if !sections[section].items.isEmpty {
                        let offset = number(sections[section].items.count)
                        sections[section].items[offset].summary = "v\(revision)"
                    }
                }
            }
            if case .twoBatchRenderer(let at) = failure {
                if revision == at { sections.insert(LogSnapshot.Section(title: "fresh", items: [newItem()]), at: 0) }
                if revision == at + 1 {
                    let item = sections[5].items.removeFirst()
                    sections[0].items.append(item)
                }
            }
            let snapshot = try! LogSnapshot(sections: sections)
            records.append(
                RevisionRecord(
                    revision: UInt64(revision), millisecondsSince1970: Int64(revision) * 1000,
                    meta: ["step": String(revision)], snapshot: snapshot, changes: previous.changes(to: snapshot)))
            previous = snapshot
        }
        switch failure {
        case .twoBatchRenderer: break
        case .wrongUpdate(let at):
            let index = records.indices.first { $0 >= at - 1 && !records[$0].changes.updatedItems.isEmpty }!
            records[index].changes.updatedItems[0].summary = "wrong"
        case .doubleDeletion(let at):
            let index = records.indices.first { $0 >= at - 1 && !records[$0].changes.deletedItems.isEmpty }!
            records[index].changes.deletedItems.append(records[index].changes.deletedItems[0])
        }
        history = ReducibleHistory(records: records)
    }

    /// A renderer that corrupts its state when a batch moves an item into a section the previous
    /// batch inserted; its first revision is a reload. The benchmark's in-process oracle.
    static let driftingRenderer = ReductionOracle.custom(name: "drifting renderer") { history in
        var insertedByLastBatch: Set<String> = []
        for offset in history.revisions.indices.dropFirst() {
            let (old, new) = (history.revisions[offset - 1].snapshot, history.revisions[offset].snapshot)
            let changes = history.revisions[offset].changes
            for move in changes.movedItems {
                if let target = new.title(ofSection: move.to.section), insertedByLastBatch.contains(target),
                    old.title(ofSection: move.from.section) != target
                {
                    return true
                }
            }
            insertedByLastBatch = Set(changes.insertedSections.map(\.section.title))
        }
        return false
    }
}
